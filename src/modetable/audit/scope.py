"""Which objects an audit `-n NAMESPACE` concerns: the namespace's own, and the
cluster-scoped objects its InferenceServices use. A finding about anything
else (another namespace's object, a cluster runtime no InferenceService of the
namespace uses or could be given) is someone else's, and is left out.

A cluster-scoped object is used by the namespace when one of its
InferenceServices:
- runs on it: the runtime picked or named, and every runtime that runtime's
  inheritance chain reaches (a parent named but not found too, by its name);
- could be given it: a runtime that passes every selection check for an
  InferenceService that names none (one auto-selection ranks below the winner,
  and picks once the winner goes), with its chain;
- names it: the runtime `spec.runtime` names (each kind its lookup tries) and
  the model `spec.model` names, found or not (a malformed or denied object of
  that name is why it is not found);
- uses it as its model, or is told to fix it: the model found, the object an
  outcome blames (`cause`), the objects its own findings name.
Of two copies of one object, the one applied (the later) is judged; a copy
that would have qualified where the applied one does not is not seen.
"""

from __future__ import annotations

from collections.abc import Iterable

from modetable.audit.fleet import Audited
from modetable.engine.runtimes import find_named_runtime, lookup_order, reach, runtime_request
from modetable.errors import ModetableError
from modetable.inputs.fields import read
from modetable.inputs.manifests import Cluster, Manifest, Rejected
from modetable.reports.finding import ObjectRef
from modetable.rules.policy import Policy
from modetable.rules.words import Scope
from modetable.selection import selection_rules

__all__ = ["NamespaceScope", "namespaces_of"]


class NamespaceScope:
    """What an audit of `namespace` covers (everything when it is None),
    learnt from its InferenceServices as they are audited (`add`)."""

    def __init__(self, namespace: str | None) -> None:
        self.namespace = namespace
        self._used: set[tuple[str, str]] = set()  # (kind, name) of cluster-scoped objects

    @property
    def everything(self) -> bool:
        return self.namespace is None

    def covers(self, obj: ObjectRef) -> bool:
        """Whether a finding about `obj` is the namespace's: an object of the
        namespace, a cluster-scoped one it uses, or one whose namespace cannot be
        read (a file that is not YAML, an object without a name: it may be the
        namespace's own)."""
        if self.namespace is None or obj.name is None or obj.kind is None:
            return True
        if obj.namespace is not None:
            return obj.namespace == self.namespace
        return (obj.kind, obj.name) in self._used

    def covers_manifest(self, manifest: Manifest) -> bool:
        return self.covers(ObjectRef.of(manifest))

    def waits_for_use(self, objects: Iterable[ObjectRef]) -> bool:
        """Whether `covers` decides a finding about any of `objects` by what the
        namespace uses (a cluster-scoped object): then every InferenceService of
        the namespace must be added first, its candidates assessed."""
        return not self.everything and any(_cluster_scoped(obj) for obj in objects)

    def add(self, policy: Policy, cluster: Cluster, audited: Audited) -> None:
        """What one InferenceService of the namespace uses, under `policy`."""
        if self.everything:
            return
        outcome = audited.outcome
        named, references = _named(policy, cluster, audited.isvc)
        # The runtime named is reached even where its chain breaks (no runtime used).
        runtimes = [outcome.runtime, named]
        if not outcome.named:  # a named runtime's candidates are hypothetical
            runtimes += [c.runtime for c in outcome.candidates if c.compatible]
        for runtime in runtimes:
            if runtime is not None:
                self._reach(policy, cluster, runtime)
        for found in (outcome.model, outcome.cause):
            if found is not None:
                self._used.add((found.kind, found.name))
        self._used.update(references)
        for finding in audited.findings:
            if _cluster_scoped(finding.object):
                self._used.add((finding.object.kind or "", finding.object.name or ""))

    def _reach(self, policy: Policy, cluster: Cluster, runtime: Manifest) -> None:
        reached = reach(policy, cluster, runtime)
        self._used.update((r.kind, r.name) for r in reached.runtimes)
        if reached.missing is not None:
            # Looked for among the cluster's runtimes (a namespace's own are its).
            for ref in policy.rules.manifests.runtimes:
                if ref.scope == Scope.CLUSTER:
                    self._used.add((ref.kind, reached.missing))


def _cluster_scoped(obj: ObjectRef) -> bool:
    return obj.namespace is None and obj.kind is not None and obj.name is not None


def _named(
    policy: Policy, cluster: Cluster, isvc: Manifest
) -> tuple[Manifest | None, list[tuple[str, str]]]:
    """The runtime `isvc` names, if found; and (kind, name) of the runtime (each
    kind its lookup tries) and the model it names, whether found or not."""
    runtime = None
    found = []
    try:
        request = runtime_request(policy, isvc)
        if request is not None:
            runtime = find_named_runtime(policy, cluster, isvc, request)
            for kind in (request.kind, *lookup_order(policy, request)):
                found.append((kind, request.name))
        rules = selection_rules(policy).model_ref
        ref = read(isvc.body, rules.path, dict, isvc.location)
        name = read(ref, rules.name, str, isvc.location) if ref is not None else None
        if name:
            found.append((read(ref, rules.kind, str, isvc.location) or rules.default_kind, name))
    except ModetableError:  # a field of the wrong type names nothing
        pass
    return runtime, found


def namespaces_of(cluster: Cluster, rejected: Iterable[Rejected] = ()) -> list[str]:
    """The namespace of every namespaced object of the manifests, rejected ones
    included, in the order read (repeats kept)."""
    objects = (*cluster.isvcs, *cluster.runtimes, *cluster.models)
    found = [m.namespace for m in objects if m.namespace is not None]
    return found + [r.namespace for r in rejected if r.namespace is not None]
