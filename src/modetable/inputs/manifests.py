"""The cluster's value types: a `Manifest` (one object of a kind the rules
name, its YAML tree kept so later errors can name their place), the `Cluster`
the objects make (indexed for lookup, duplicates resolved as `kubectl apply`
would), a `Rejected` object (one that does not read, for the lenient audit) and
a `Refused` one (one the API server refuses by OME's CRD schema, which never
exists in the cluster).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import attrs

from modetable.errors import Location, ModetableError
from modetable.parsing.yamlio import YamlMap
from modetable.rules.model.manifests import Manifests
from modetable.rules.words import ReadFrom, Scope
from modetable.settled import frozen, settled

__all__ = [
    "DEFAULT_NAMESPACE",
    "Cluster",
    "Manifest",
    "Refused",
    "Rejected",
    "build_cluster",
    "duplicate_message",
    "duplicate_warning",
    "kind_roles",
    "kind_scopes",
]

DEFAULT_NAMESPACE = "default"


@frozen(eq=False)
class Manifest:
    """One object of a kind modetable reads."""

    kind: str
    name: str
    namespace: str | None
    scope: str
    body: YamlMap = attrs.field(repr=False)
    location: Location
    # Where it was read from (`--live`): the manifests, the live dump, or both
    # (then `location` is the manifest's, `live_location` the live copy's).
    read_from: ReadFrom = ReadFrom.MANIFEST
    live_location: Location | None = None

    @property
    def ref(self) -> str:
        return f"{self.namespace}/{self.name}" if self.namespace else self.name

    @property
    def spec(self) -> dict[str, Any]:
        spec = self.body.get("spec")
        return spec if isinstance(spec, dict) else {}

    @property
    def annotations(self) -> dict[str, Any]:
        metadata = self.body.get("metadata")
        annotations = metadata.get("annotations") if isinstance(metadata, dict) else None
        return annotations if isinstance(annotations, dict) else {}


@frozen(eq=False)
@settled  # shared across threads: nothing filled on first use
class Cluster:
    """The objects read from the inputs, indexed for lookup."""

    isvcs: tuple[Manifest, ...]
    runtimes: tuple[Manifest, ...]
    models: tuple[Manifest, ...]
    skipped: int = 0
    # (earlier, later) pairs of one kind, namespace and name; the later is kept,
    # as `kubectl apply` in file order would leave it.
    duplicates: tuple[tuple[Manifest, Manifest], ...] = ()
    read: int = 0
    # The objects the API server refuses (inputs/api_server.py), left out
    # above, and the OME version whose CRD schema checked them (None: unchecked).
    refused: tuple[Refused, ...] = ()
    schema_version: str | None = None

    @cached_property
    def _by_key(self) -> dict[tuple[str, str | None, str], Manifest]:
        return {
            (m.kind, m.namespace, m.name): m for m in (*self.isvcs, *self.runtimes, *self.models)
        }

    @cached_property
    def named(self) -> dict[str, tuple[Manifest, ...]]:
        """Name → every object of that name, whatever its kind and namespace."""
        found: dict[str, list[Manifest]] = {}
        for m in (*self.isvcs, *self.runtimes, *self.models):
            found.setdefault(m.name, []).append(m)
        return {name: tuple(objects) for name, objects in found.items()}

    @cached_property
    def _isvcs_named(self) -> dict[str, tuple[Manifest, ...]]:
        """Name → the InferenceServices of that name, in the order read: the
        API's `select` looks one up per call, and scanning every one each time
        made selecting for a whole fleet quadratic."""
        found: dict[str, list[Manifest]] = {}
        for m in self.isvcs:
            found.setdefault(m.name, []).append(m)
        return {name: tuple(isvcs) for name, isvcs in found.items()}

    def _isvcs_of(self, namespace: str, name: str) -> list[Manifest]:
        """The InferenceServices named `name` (of `namespace` when not empty), in order."""
        return [
            m for m in self._isvcs_named.get(name, ()) if not namespace or m.namespace == namespace
        ]

    def get(self, kind: str, name: str, namespace: str | None = None) -> Manifest | None:
        return self._by_key.get((kind, namespace, name))

    def runtimes_for(self, namespace: str | None) -> list[Manifest]:
        """Candidates for an InferenceService in `namespace`: that namespace's and the cluster's."""
        return [r for r in self.runtimes if r.scope == Scope.CLUSTER or r.namespace == namespace]

    def refused_isvc(self, ref: str) -> Refused | None:
        """The refused InferenceService `NAME` or `NAMESPACE/NAME` names, when
        the cluster holds none of that name (one it holds is what exists)."""
        namespace, _, name = ref.rpartition("/")

        def named(m: Manifest) -> bool:
            return m.name == name and (not namespace or m.namespace == namespace)

        if self._isvcs_of(namespace, name):
            return None
        found = [r for r in self.refused if r.role == "isvc" and named(r.manifest)]
        # The last copy is what `kubectl apply` in file order answers with.
        return found[-1] if len({r.manifest.ref for r in found}) == 1 else None

    def find_isvc(self, ref: str) -> Manifest:
        """The InferenceService `NAME` or `NAMESPACE/NAME` names."""
        namespace, _, name = ref.rpartition("/")
        found = self._isvcs_of(namespace, name)
        if not found:
            import difflib  # only when a name is not found

            refs = [m.ref for m in self.isvcs] if namespace else [m.name for m in self.isvcs]
            close = difflib.get_close_matches(ref, dict.fromkeys(refs), n=3)
            known = (
                "did you mean " + " or ".join(f'"{c}"' for c in close) + "?"
                if close
                else f"found: {_listing(self.isvcs)}"
            )
            raise ModetableError(f"no InferenceService {ref!r} among the manifests ({known})")
        if len(found) > 1:
            places = ", ".join(m.ref for m in found)
            raise ModetableError(
                f"InferenceService {ref!r} is ambiguous: {places}; write NAMESPACE/NAME"
            )
        return found[0]


def _listing(objects: tuple[Manifest, ...], shown: int = 10) -> str:
    """`a, b, c`, or the first `shown` and how many more; `none` when empty."""
    names = ", ".join(m.ref for m in objects[:shown]) or "none"
    more = len(objects) - shown
    return f"{names} and {more} more" if more > 0 else names


def kind_roles(spec: Manifests) -> dict[str, tuple[str, str]]:
    """kind → (role, scope)."""
    kinds = {spec.inference_service: ("isvc", "namespace")}
    kinds.update({k.kind: ("runtime", k.scope) for k in spec.runtimes})
    kinds.update({k.kind: ("model", k.scope) for k in spec.models})
    return kinds


def kind_scopes(spec: Manifests) -> dict[str, str]:
    """Kind → scope (`namespace`, `cluster`) of every kind the rules read."""
    return {kind: scope for kind, (_role, scope) in kind_roles(spec).items()}


@frozen(eq=False)
class Refused:
    """An object the API server refuses before any webhook (OME's CRD schema):
    the object, its role (`isvc`, `runtime`, `model`), every problem in the
    manifest's order (`inputs.schema_check.SchemaProblem`s), and the messages
    of the refusal: the API server's (`server`) and what `kubectl apply`
    prints (`kubectl`, under its default field validation, Strict)."""

    manifest: Manifest
    role: str
    problems: tuple[Any, ...]
    server: str
    kubectl: str


@frozen
class Rejected:
    """An object modetable cannot read (the API server would refuse it): the
    error, and as much of its identity as could be read."""

    error: ModetableError
    kind: str | None = None
    namespace: str | None = None
    name: str | None = None


def build_cluster(
    objects: list[Manifest],
    skipped: int,
    spec: Manifests,
    refused: tuple[Refused, ...] = (),
    schema_version: str | None = None,
) -> Cluster:
    seen: dict[tuple[str, str | None, str], Manifest] = {}
    duplicates = []
    for obj in objects:
        key = (obj.kind, obj.namespace, obj.name)
        first = seen.pop(key, None)
        if first is not None and first.location != obj.location:
            duplicates.append((first, obj))
        seen[key] = obj
    unique = list(seen.values())
    kinds = kind_roles(spec)
    return Cluster(
        isvcs=tuple(m for m in unique if kinds[m.kind][0] == "isvc"),
        runtimes=tuple(m for m in unique if kinds[m.kind][0] == "runtime"),
        models=tuple(m for m in unique if kinds[m.kind][0] == "model"),
        skipped=skipped,
        duplicates=tuple(duplicates),
        read=len(objects) + len(refused),
        refused=refused,
        schema_version=schema_version,
    )


def duplicate_message(earlier: Manifest, later: Manifest) -> str:
    return (
        f"{later.kind} {later.ref} is defined twice (first at {earlier.location}); "
        "the later one is used, as kubectl apply would leave it"
    )


def duplicate_warning(earlier: Manifest, later: Manifest) -> str:
    return f"{later.location}: {duplicate_message(earlier, later)}"
