"""The runtime side: which runtime an InferenceService names, its inheritance
chain (`ome.io/inherit-from`), and the merges OME performs on specs."""

from __future__ import annotations

from typing import Any

from modetable.errors import ErrorCode, Location, ModetableError
from modetable.inputs.manifests import Cluster, Manifest
from modetable.parsing import paths
from modetable.parsing.yamlio import where
from modetable.rules.policy import Policy
from modetable.rules.words import Scope
from modetable.settled import frozen
from modetable.versions import in_force

__all__ = [
    "Chain",
    "InheritanceError",
    "Reach",
    "RuntimeRefRequest",
    "find_named_runtime",
    "lookup_order",
    "merge_inherited",
    "reach",
    "resolve_chain",
    "runtime_request",
]


class InheritanceError(ModetableError):
    """A broken chain: OME's webhook rejects with exactly this message."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message, location, code=ErrorCode.BROKEN_CHAIN)


@frozen
class RuntimeRefRequest:
    """What the InferenceService's `spec.runtime` asks for."""

    name: str
    kind: str
    auto_sync: bool
    location: Location


def runtime_request(policy: Policy, isvc: Manifest) -> RuntimeRefRequest | None:
    ref = policy.rules.runtime_ref
    name = paths.lookup(isvc.body, paths.split(ref.name))
    if name is paths.MISSING or name in (None, ""):
        return None
    if not isinstance(name, str):
        raise ModetableError(
            "spec.runtime.name must be a string",
            _location(isvc, ref.name),
            code=ErrorCode.WRONG_TYPE,
        )
    kind = paths.lookup(isvc.body, paths.split(ref.kind))
    if kind is paths.MISSING or kind in (None, ""):
        kind = ref.default_kind
    auto_sync = paths.lookup(isvc.body, paths.split(ref.auto_sync))
    return RuntimeRefRequest(
        name=name,
        kind=str(kind),
        auto_sync=auto_sync is not False,
        location=_location(isvc, ref.name),
    )


def _location(obj: Manifest, path: str) -> Location:
    return paths.value_location(obj.body, paths.split(path), obj.location) or obj.location


def lookup_order(policy: Policy, request: RuntimeRefRequest) -> tuple[str, ...]:
    """The kinds a named runtime is looked up as, in order, in force for
    `request`'s kind (none: a kind no lookup takes)."""
    for lookup in policy.rules.runtime_ref.lookups:
        if not in_force(lookup.since, lookup.until, policy.version):
            continue
        if lookup.kind is not None and lookup.kind != request.kind:
            continue
        return lookup.order
    return ()


def find_named_runtime(
    policy: Policy, cluster: Cluster, isvc: Manifest, request: RuntimeRefRequest
) -> Manifest | None:
    """The runtime `request` resolves to, by the lookup order in force."""
    for kind in lookup_order(policy, request):
        scope = _scope(policy, kind)
        found = cluster.get(
            kind, request.name, isvc.namespace if scope == Scope.NAMESPACE else None
        )
        if found is not None:
            return found
    return None


def _scope(policy: Policy, kind: str) -> Scope:
    for ref in policy.rules.manifests.runtimes:
        if ref.kind == kind:
            return ref.scope
    return Scope.CLUSTER


@frozen
class Chain:
    """A runtime and its ancestors, child first, and the spec merged root down."""

    runtimes: tuple[Manifest, ...]
    spec: dict[str, Any]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.runtimes)


def _parent_of(policy: Policy, runtime: Manifest) -> str | None:
    parent = runtime.annotations.get(policy.rules.inheritance.annotation)
    if parent in (None, ""):
        return None
    if not isinstance(parent, str):
        raise ModetableError(
            "annotation values must be strings",
            where(
                runtime.body.get("metadata", {}).get("annotations"),
                policy.rules.inheritance.annotation,
                runtime.location,
            ),
        )
    return parent


def _find_parent(policy: Policy, cluster: Cluster, child: Manifest, name: str) -> Manifest | None:
    """A cluster runtime's parents are cluster runtimes; a namespaced one looks in
    its namespace first, then at cluster scope."""
    candidates = []
    for ref in policy.rules.manifests.runtimes:
        if ref.scope == Scope.NAMESPACE and child.scope == Scope.NAMESPACE:
            candidates.append((ref.kind, child.namespace))
    for ref in policy.rules.manifests.runtimes:
        if ref.scope == Scope.CLUSTER:
            candidates.append((ref.kind, None))
    for kind, namespace in candidates:
        found = cluster.get(kind, name, namespace)
        if found is not None:
            return found
    return None


def resolve_chain(policy: Policy, cluster: Cluster, runtime: Manifest) -> Chain:
    """The runtime's inheritance chain and merged spec; InheritanceError when broken.

    Before inheritance exists (v1.2.2) the chain is the runtime alone.
    """
    rule = policy.rules.inheritance
    chain = [runtime]
    if policy.inheritance_in_force:
        current = runtime
        while (parent_name := _parent_of(policy, current)) is not None:
            names = [r.name for r in chain]
            location = where(
                current.body.get("metadata", {}).get("annotations"),
                rule.annotation,
                current.location,
            )
            if parent_name in names:
                raise InheritanceError(
                    policy.message(rule.messages.cycle, chain=" ".join([*names, parent_name])),
                    location,
                )
            parent = _find_parent(policy, cluster, current, parent_name)
            if parent is None:
                raise InheritanceError(
                    policy.message(
                        rule.messages.parent_missing, parent=parent_name, chain=" ".join(names)
                    ),
                    location,
                )
            if len(chain) >= rule.max_chain:
                raise InheritanceError(
                    policy.message(
                        rule.messages.too_deep,
                        max=rule.max_chain,
                        chain=" ".join([*names, parent_name]),
                    ),
                    location,
                )
            chain.append(parent)
            current = parent
    spec: dict[str, Any] = {}
    for member in reversed(chain):
        spec = merge_inherited(spec, member.spec, rule.list_key, frozenset(rule.replace))
    return Chain(runtimes=tuple(chain), spec=spec)


@frozen
class Reach:
    """What a runtime's inheritance chain reaches, whole or broken: the runtimes
    found (the runtime first), and the parent named but not found, if any."""

    runtimes: tuple[Manifest, ...]
    missing: str | None = None


def reach(policy: Policy, cluster: Cluster, runtime: Manifest) -> Reach:
    """The runtimes `runtime`'s chain reaches, walked as `resolve_chain` walks it
    but never refused: a cycle, or an annotation that does not read, ends it
    where it stands (the audit's `-n` asks what a namespace's runtimes touch,
    not whether their chains hold)."""
    chain = [runtime]
    if not policy.inheritance_in_force:
        return Reach(tuple(chain))
    current = runtime
    while True:
        try:
            name = _parent_of(policy, current)
        except ModetableError:
            break
        if name is None or any(r.name == name for r in chain):
            break
        parent = _find_parent(policy, cluster, current, name)
        if parent is None:
            return Reach(tuple(chain), name)
        chain.append(parent)
        current = parent
    return Reach(tuple(chain))


def _unset(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def merge_inherited(
    parent: Any,
    child: Any,
    list_key: str,
    replace: frozenset[str],
    memo: dict[tuple[int, int], tuple[Any, Any, Any]] | None = None,
) -> Any:
    """A child spec over its parent's: maps merge, keyed lists merge by key,
    `replace` fields are replaced, and empty values count as unset.

    A pair of nodes met again (aliases share nodes, and can repeat one pair
    millions of times) is merged once: `memo` keeps each pair's result.
    """
    if _unset(child):
        return parent
    if not isinstance(child, dict | list) or not isinstance(parent, dict | list):
        return child
    memo = {} if memo is None else memo
    pair = (id(parent), id(child))
    known = memo.get(pair)
    if known is not None:
        return known[2]
    merged: Any = child
    if isinstance(parent, dict) and isinstance(child, dict):
        merged = dict(parent)
        for key, value in child.items():
            if key in replace:
                merged[key] = parent.get(key) if _unset(value) else value
            else:
                merged[key] = merge_inherited(parent.get(key), value, list_key, replace, memo)
    elif _keyed(parent, list_key) and _keyed(child, list_key):
        merged_items = {item[list_key]: item for item in parent}
        for item in child:
            previous = merged_items.get(item[list_key])
            merged_items[item[list_key]] = (
                merge_inherited(previous, item, list_key, replace, memo) if previous else item
            )
        merged = list(merged_items.values())
    # The nodes are kept with the result, so their ids stay theirs while memo lives.
    memo[pair] = (parent, child, merged)
    return merged


def _keyed(value: Any, key: str) -> bool:
    # Only string keys merge by key (Kubernetes names are strings); any other
    # list is replaced whole, so a hand-written `name: [a]` cannot break the merge.
    return isinstance(value, list) and all(
        isinstance(i, dict) and isinstance(i.get(key), str) for i in value
    )
