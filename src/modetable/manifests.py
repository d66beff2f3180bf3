"""Reading Kubernetes YAML (files, folders, stdin, `kind: List`) into a Cluster.

Only the kinds the rules name are kept; anything else is counted and skipped.
Every object keeps its YAML tree, so later errors can name their place.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from functools import cached_property
from pathlib import Path
from typing import Any, BinaryIO

import attrs

from modetable.errors import Location, ModetableError
from modetable.rules.model import Manifests
from modetable.yamlio import YamlMap, decode, load_documents, where

YAML_SUFFIXES = (".yaml", ".yml", ".json")
DEFAULT_NAMESPACE = "default"


@attrs.frozen(eq=False)
class Manifest:
    """One object of a kind modetable reads."""

    kind: str
    name: str
    namespace: str | None
    scope: str
    body: YamlMap = attrs.field(repr=False)
    where: Location

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


@attrs.frozen(eq=False)
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

    @cached_property
    def _by_key(self) -> dict[tuple[str, str | None, str], Manifest]:
        return {
            (m.kind, m.namespace, m.name): m for m in (*self.isvcs, *self.runtimes, *self.models)
        }

    def get(self, kind: str, name: str, namespace: str | None = None) -> Manifest | None:
        return self._by_key.get((kind, namespace, name))

    def runtimes_for(self, namespace: str | None) -> list[Manifest]:
        """Candidates for an InferenceService in `namespace`: that namespace's and the cluster's."""
        return [r for r in self.runtimes if r.scope == "cluster" or r.namespace == namespace]

    def find_isvc(self, ref: str) -> Manifest:
        """The InferenceService `NAME` or `NAMESPACE/NAME` names."""
        namespace, _, name = ref.rpartition("/")
        found = [
            m for m in self.isvcs if m.name == name and (not namespace or m.namespace == namespace)
        ]
        if not found:
            known = ", ".join(m.ref for m in self.isvcs[:10]) or "none"
            raise ModetableError(
                f"no InferenceService {ref!r} among the manifests (found: {known})"
            )
        if len(found) > 1:
            places = ", ".join(m.ref for m in found)
            raise ModetableError(
                f"InferenceService {ref!r} is ambiguous: {places}; write NAMESPACE/NAME"
            )
        return found[0]


def _kinds(spec: Manifests) -> dict[str, tuple[str, str]]:
    """kind → (role, scope)."""
    kinds = {spec.inference_service: ("isvc", "namespace")}
    kinds.update({k.kind: ("runtime", k.scope) for k in spec.runtimes})
    kinds.update({k.kind: ("model", k.scope) for k in spec.models})
    return kinds


def _text_field(node: dict[str, Any], key: str, context: str, fallback: Location) -> str | None:
    value = node.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ModetableError(
            f"{context}.{key} must be a string, got {type(value).__name__} {value!r}",
            where(node, key, fallback),
        )
    return value


def _objects(document: Any, start: Location, list_kind: str) -> Iterator[tuple[Any, Location]]:
    """The objects of one document, with `kind: List` unwrapped."""
    if isinstance(document, dict) and document.get("kind") == list_kind:
        items = document.get("items") or []
        if not isinstance(items, list):
            raise ModetableError("items of a List must be a list", where(document, "items", start))
        for index, item in enumerate(items):
            yield item, where(items, index, start)
        return
    yield document, start


def parse_objects(
    documents: Iterable[tuple[Any, Location]], spec: Manifests
) -> tuple[list[Manifest], int]:
    kinds = _kinds(spec)
    kept: list[Manifest] = []
    skipped = 0
    for document, start in documents:
        for obj, location in _objects(document, start, spec.list_kind):
            if not isinstance(obj, dict):
                shape = "a list" if isinstance(obj, list) else f"a {type(obj).__name__}"
                raise ModetableError(f"a manifest must be a mapping, got {shape}", location)
            kind = obj.get("kind")
            if kind is None:
                raise ModetableError("manifest has no kind", location)
            if not isinstance(kind, str):
                raise ModetableError("kind must be a string", where(obj, "kind", location))
            if kind not in kinds:
                skipped += 1
                continue
            scope = kinds[kind][1]
            metadata = obj.get("metadata")
            if not isinstance(metadata, dict):
                raise ModetableError(f"{kind} has no metadata", where(obj, "metadata", location))
            name = _text_field(metadata, "name", "metadata", location)
            if not name:
                raise ModetableError(
                    f"{kind} has no metadata.name", where(obj, "metadata", location)
                )
            namespace = _text_field(metadata, "namespace", "metadata", location)
            namespace = (namespace or DEFAULT_NAMESPACE) if scope == "namespace" else None
            kept.append(Manifest(kind, name, namespace, scope, obj, location))
    return kept, skipped


def _files(argument: str) -> list[Path]:
    path = Path(argument)
    if path.is_dir():
        found = sorted(p for p in path.rglob("*") if p.suffix in YAML_SUFFIXES and p.is_file())
        if not found:
            raise ModetableError("directory holds no YAML files", Location(argument))
        return found
    if not path.exists():
        raise ModetableError("no such file or directory", Location(argument))
    return [path]


def read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ModetableError(f"cannot read: {exc.strerror}", Location(str(path))) from None


def read_documents(
    arguments: Iterable[str], stdin: BinaryIO | None = None
) -> Iterator[tuple[Any, Location]]:
    """The YAML documents of every input: files, folders (recursively) and `-`."""
    for argument in arguments:
        if argument == "-":
            stream = stdin if stdin is not None else sys.stdin.buffer
            named = [("<stdin>", stream.read(), True)]
        else:
            explicit = not Path(argument).is_dir()
            named = [(str(p), read_bytes(p), explicit) for p in _files(argument)]
        for file_name, data, explicit in named:
            documents = load_documents(decode(data, file_name), file_name)
            if not documents and explicit:
                raise ModetableError("holds no YAML document", Location(file_name))
            yield from documents


def read_cluster(
    arguments: Iterable[str], spec: Manifests, stdin: BinaryIO | None = None
) -> Cluster:
    """Everything modetable reads from `arguments`; of duplicates, the later one."""
    return build_cluster(*parse_objects(read_documents(arguments, stdin), spec), spec)


def build_cluster(objects: list[Manifest], skipped: int, spec: Manifests) -> Cluster:
    seen: dict[tuple[str, str | None, str], Manifest] = {}
    duplicates = []
    for obj in objects:
        key = (obj.kind, obj.namespace, obj.name)
        first = seen.pop(key, None)
        if first is not None and first.where != obj.where:
            duplicates.append((first, obj))
        seen[key] = obj
    unique = list(seen.values())
    kinds = _kinds(spec)
    return Cluster(
        isvcs=tuple(m for m in unique if kinds[m.kind][0] == "isvc"),
        runtimes=tuple(m for m in unique if kinds[m.kind][0] == "runtime"),
        models=tuple(m for m in unique if kinds[m.kind][0] == "model"),
        skipped=skipped,
        duplicates=tuple(duplicates),
        read=len(objects),
    )


def duplicate_warning(earlier: Manifest, later: Manifest) -> str:
    return (
        f"{later.where}: {later.kind} {later.ref} is defined twice (first at {earlier.where}); "
        "the later one is used, as kubectl apply would leave it"
    )
