"""Runtimes indexed for pruning, so a fleet is not compared pair by pair.

Built once per cluster and version, with the version's matching table compiled
(modetable.engine.compiled): each runtime's declared mode per compared
component (as auto-selection reads it: inherited annotations do not count),
grouped by mode; runtimes by namespace; and any other grouping a caller keys
them by (format names, for example). With the compiled matching table, the
runtimes that pass the mode check for a request are a union of groups per
component and an intersection across components, computed once per request.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cached_property

import attrs

from modetable.engine.compiled import CompiledMatching, compile_matching
from modetable.engine.matching import runtime_objects
from modetable.engine.modes import Resolution, resolve
from modetable.inputs.manifests import Cluster, Manifest
from modetable.rules.policy import Policy
from modetable.rules.words import Compared, Purpose, Scope
from modetable.settled import frozen

__all__ = ["Request", "RuntimeIndex", "build_index", "request_of"]

# One InferenceService's request: (component, requested mode) per compared
# component, in the rules' component order.
Request = tuple[tuple[str, str | None], ...]


@frozen(eq=False)
class RuntimeIndex:
    policy: Policy = attrs.field(repr=False)
    cluster: Cluster = attrs.field(repr=False)
    # The policy's matching table as lookups, compiled once for this index.
    compiled: CompiledMatching = attrs.field(repr=False)
    # runtime → component → its declared mode with the trace, for auto-selection.
    declared: dict[Manifest, dict[str, Resolution]] = attrs.field(repr=False)
    # component → declared mode (None: no mode) → runtimes.
    by_declared: dict[str, dict[str | None, frozenset[Manifest]]] = attrs.field(repr=False)
    # namespace → its runtimes; None → the cluster-scoped ones.
    by_namespace: dict[str | None, tuple[Manifest, ...]] = attrs.field(repr=False)
    _passing: dict[Request, frozenset[Manifest]] = attrs.field(factory=dict, repr=False)
    _candidates: dict[str | None, tuple[Manifest, ...]] = attrs.field(factory=dict, repr=False)

    @cached_property
    def all(self) -> frozenset[Manifest]:
        return frozenset(self.cluster.runtimes)

    def candidates(self, namespace: str | None) -> tuple[Manifest, ...]:
        """What an InferenceService in `namespace` is checked against: its namespace's
        runtimes and the cluster's, in the cluster's order."""
        found = self._candidates.get(namespace)
        if found is None:
            own = self.by_namespace.get(namespace, ())
            found = shared = self.by_namespace.get(None, ())
            if own:
                members = {*own, *shared}
                found = tuple(r for r in self.cluster.runtimes if r in members)
            self._candidates[namespace] = found
        return found

    def mode_passing(self, request: Request) -> frozenset[Manifest]:
        """The runtimes every compared component of `request` lets pass (any scope)."""
        found = self._passing.get(request)
        if found is None:
            found = self.all
            compiled = self.compiled
            for component, requested in request:
                groups = self.by_declared[component]
                allowed = compiled.passing_declared(component, requested)
                found = found & frozenset().union(
                    *(groups[mode] for mode in allowed if mode in groups)
                )
            self._passing[request] = found
        return found


def request_of(requested: dict[str, Resolution]) -> Request:
    """The index key of an InferenceService's requested modes (matching.requested_modes)."""
    return tuple((component, resolution.mode) for component, resolution in requested.items())


def build_index(policy: Policy, cluster: Cluster) -> RuntimeIndex:
    components = [c for c in policy.components if c.compared != Compared.NEVER]
    declared: dict[Manifest, dict[str, Resolution]] = {}
    by_declared: dict[str, dict[str | None, set[Manifest]]] = {
        c.name: defaultdict(set) for c in components
    }
    for runtime in cluster.runtimes:
        objects = runtime_objects(policy, cluster, runtime, named=False)
        modes = {c.name: resolve(policy, Purpose.DECLARED, c, objects) for c in components}
        declared[runtime] = modes
        for name, resolution in modes.items():
            by_declared[name][resolution.mode].add(runtime)
    by_namespace: dict[str | None, list[Manifest]] = defaultdict(list)
    for runtime in cluster.runtimes:
        by_namespace[runtime.namespace if runtime.scope == Scope.NAMESPACE else None].append(
            runtime
        )
    return RuntimeIndex(
        policy=policy,
        cluster=cluster,
        compiled=compile_matching(policy),
        declared=declared,
        by_declared={
            name: {mode: frozenset(members) for mode, members in groups.items()}
            for name, groups in by_declared.items()
        },
        by_namespace={key: tuple(members) for key, members in by_namespace.items()},
    )
