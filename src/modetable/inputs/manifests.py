"""Reading Kubernetes YAML (files, folders, stdin, `kind: List`) into a Cluster.

Only the kinds the rules name are kept; anything else is counted and skipped.
Every object keeps its YAML tree, so later errors can name their place.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import attrs

from modetable.errors import ErrorCode, Location, ModetableError
from modetable.parsing import paths
from modetable.parsing.jsonio import load_json
from modetable.parsing.yamlio import (
    YamlMap,
    decode,
    describe,
    load_documents,
    path_problem,
    read_file,
    read_limited,
    where,
)
from modetable.rules.model.manifests import Manifests
from modetable.rules.words import Purpose, Scope, SourceObject
from modetable.settled import settled

if TYPE_CHECKING:
    from modetable.rules.policy import Policy

__all__ = [
    "ANY",
    "BOOLEAN",
    "DEFAULT_NAMESPACE",
    "MAPPING",
    "STRING",
    "YAML_SUFFIXES",
    "Cluster",
    "Manifest",
    "Rejected",
    "build_cluster",
    "check_fields",
    "check_object_fields",
    "check_path",
    "duplicate_message",
    "duplicate_warning",
    "is_list",
    "kind_scopes",
    "object_json",
    "other_groups_warning",
    "parse_objects",
    "read_bytes",
    "read_cluster",
    "read_documents",
    "read_fields",
    "runtime_json",
    "same_file",
]

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
    location: Location

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

    def get(self, kind: str, name: str, namespace: str | None = None) -> Manifest | None:
        return self._by_key.get((kind, namespace, name))

    def runtimes_for(self, namespace: str | None) -> list[Manifest]:
        """Candidates for an InferenceService in `namespace`: that namespace's and the cluster's."""
        return [r for r in self.runtimes if r.scope == Scope.CLUSTER or r.namespace == namespace]

    def find_isvc(self, ref: str) -> Manifest:
        """The InferenceService `NAME` or `NAMESPACE/NAME` names."""
        namespace, _, name = ref.rpartition("/")
        found = [
            m for m in self.isvcs if m.name == name and (not namespace or m.namespace == namespace)
        ]
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


def _kinds(spec: Manifests) -> dict[str, tuple[str, str]]:
    """kind → (role, scope)."""
    kinds = {spec.inference_service: ("isvc", "namespace")}
    kinds.update({k.kind: ("runtime", k.scope) for k in spec.runtimes})
    kinds.update({k.kind: ("model", k.scope) for k in spec.models})
    return kinds


def kind_scopes(spec: Manifests) -> dict[str, str]:
    """Kind → scope (`namespace`, `cluster`) of every kind the rules read."""
    return {kind: scope for kind, (_role, scope) in _kinds(spec).items()}


def _text_field(
    node: dict[str, Any], key: str, context: str | None, fallback: Location
) -> str | None:
    """`node[key]` when it is a string, None when unset; anything else is refused
    at its place (`context` names the mapping it sits in, None at the top)."""
    value = node.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        field = key if context is None else f"{context}.{key}"
        raise ModetableError(
            f"{field} must be a string, got {describe(value)}",
            where(node, key, fallback),
            code=ErrorCode.WRONG_TYPE,
        )
    return value


def _plain_name(name: str) -> bool:
    """No spaces or control characters: every line modetable prints stays one line."""
    return all(c.isprintable() and not c.isspace() for c in name)


def _string_map(node: dict[str, Any], key: str, context: str, fallback: Location) -> None:
    """`node[key]`, when set, must map strings to strings, as Kubernetes' annotations
    and labels do (kubectl refuses anything else); a null value counts as unset."""
    value = node.get(key)
    if value is None:
        return
    if not isinstance(value, dict):
        raise ModetableError(
            f"{context}.{key} must be a mapping of strings, got {describe(value)}",
            where(node, key, fallback),
            code=ErrorCode.WRONG_TYPE,
        )
    for name, item in value.items():
        if not isinstance(name, str):
            raise ModetableError(
                f"{context}.{key} keys must be strings, got {describe(name)}",
                _key_where(value, name, fallback),
                code=ErrorCode.WRONG_TYPE,
            )
        if item is not None and not isinstance(item, str):
            raise ModetableError(
                f"{context}.{key}[{name}] must be a string, got {describe(item)}"
                " (quote it in YAML)",
                where(value, name, fallback),
                code=ErrorCode.WRONG_TYPE,
            )


def _key_where(node: Any, key: Any, fallback: Location) -> Location:
    return node.key_where(key) if isinstance(node, YamlMap) else fallback


def is_list(document: Any, list_kind: str) -> bool:
    """Whether a document is a list of objects: `kind: List`, or a typed list such
    as `ServingRuntimeList` (a kind ending in List, with `items`)."""
    kind = document.get("kind") if isinstance(document, Mapping) else None
    return kind == list_kind or (
        isinstance(kind, str) and kind.endswith(list_kind) and "items" in document
    )


def _objects(document: Any, start: Location, list_kind: str) -> Iterator[tuple[Any, Location]]:
    """The objects of one document, with a list unwrapped (`is_list`)."""
    if is_list(document, list_kind):
        items = document.get("items") or []
        if not isinstance(items, list):
            raise ModetableError(
                "items of a List must be a list",
                where(document, "items", start),
                code=ErrorCode.WRONG_TYPE,
            )
        for index, item in enumerate(items):
            yield item, where(items, index, start)
        return
    yield document, start


@attrs.frozen
class Rejected:
    """An object modetable cannot read (the API server would refuse it): the
    error, and as much of its identity as could be read."""

    error: ModetableError
    kind: str | None = None
    namespace: str | None = None
    name: str | None = None


def parse_objects(
    documents: Iterable[tuple[Any, Location]],
    spec: Manifests,
    rejected: list[Rejected] | None = None,
    other_groups: dict[str, int] | None = None,
) -> tuple[list[Manifest], int]:
    """The objects of the kinds the rules name, and how many others were skipped.
    A malformed object is an error; with `rejected`, it is recorded there and
    left out instead (the audit goes on with the rest). An object of a kind the
    rules name in an API group they do not read (KServe's InferenceService) is
    skipped, and counted by group in `other_groups`."""
    kinds = _kinds(spec)
    kept: list[Manifest] = []
    skipped = 0
    for document, start in documents:
        for obj, location in _objects(document, start, spec.list_kind):
            group = _other_group(obj, kinds, spec.api_groups)
            if group is not None:
                skipped += 1
                if other_groups is not None:
                    other_groups[group] = other_groups.get(group, 0) + 1
                continue
            try:
                manifest = _parse_object(obj, location, kinds)
            except ModetableError as exc:
                if rejected is None:
                    raise
                rejected.append(Rejected(exc, *_identity(obj, kinds)))
                continue
            if manifest is None:
                skipped += 1
            else:
                kept.append(manifest)
    return kept, skipped


def _other_group(
    obj: Any, kinds: dict[str, tuple[str, str]], groups: tuple[str, ...]
) -> str | None:
    """The API group of an object of a kind the rules name, when the rules do not
    read that group (None otherwise). An object without an apiVersion is read:
    the kind is all modetable has to go by (one of another type is refused)."""
    if not groups or not isinstance(obj, dict):
        return None
    kind = obj.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        return None
    version = obj.get("apiVersion")
    if not isinstance(version, str):
        return None
    group = version.rpartition("/")[0]
    return None if group in groups else group


def other_groups_warning(other_groups: dict[str, int], spec: Manifests) -> str:
    """One warning for every object skipped for its API group, with the counts."""
    count = sum(other_groups.values())
    counts = ", ".join(f"{group or 'core'}: {n}" for group, n in sorted(other_groups.items()))
    return (
        f"skipped {count} object{'' if count == 1 else 's'} of API groups the rules do not "
        f"read ({counts}); only {', '.join(spec.api_groups)} objects are read"
    )


def _identity(obj: Any, kinds: dict[str, tuple[str, str]]) -> tuple[Any, Any, Any]:
    """(kind, namespace, name) of a malformed object, each None when unreadable."""
    if not isinstance(obj, dict) or not isinstance(obj.get("kind"), str):
        return None, None, None
    kind = obj["kind"]
    metadata = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    name = metadata.get("name") if isinstance(metadata.get("name"), str) else None
    namespace = metadata.get("namespace")
    namespace = namespace if isinstance(namespace, str) else None
    if kinds.get(kind, ("", "namespace"))[1] == "namespace" and name is not None:
        namespace = namespace or DEFAULT_NAMESPACE
    return kind, namespace, name


def _parse_object(
    obj: Any, location: Location, kinds: dict[str, tuple[str, str]]
) -> Manifest | None:
    """One object as a Manifest; None for a kind the rules do not name."""
    if not isinstance(obj, dict):
        raise ModetableError(
            f"a manifest must be a mapping, got {describe(obj)}",
            location,
            code=ErrorCode.WRONG_TYPE,
        )
    kind = _text_field(obj, "kind", None, location)
    if not kind:
        raise ModetableError("manifest has no kind", location)
    if kind not in kinds:
        return None
    # The API server refuses an apiVersion that is not a string; read by its
    # kind alone, such an object would pass for OME's.
    _text_field(obj, "apiVersion", None, location)
    scope = kinds[kind][1]
    metadata = obj.get("metadata")
    if not isinstance(metadata, dict):
        raise ModetableError(f"{kind} has no metadata", where(obj, "metadata", location))
    name = _text_field(metadata, "name", "metadata", location)
    if not name:
        raise ModetableError(f"{kind} has no metadata.name", where(obj, "metadata", location))
    namespace = _text_field(metadata, "namespace", "metadata", location)
    for field, value in (("name", name), ("namespace", namespace)):
        if value is not None and not _plain_name(value):
            raise ModetableError(
                f"metadata.{field} {value!r} is not a Kubernetes name "
                "(it holds spaces or control characters)",
                where(metadata, field, location),
            )
    namespace = (namespace or DEFAULT_NAMESPACE) if scope == "namespace" else None
    for field in ("annotations", "labels"):
        _string_map(metadata, field, "metadata", location)
    spec_value = obj.get("spec")
    if spec_value is not None and not isinstance(spec_value, dict):
        raise ModetableError(
            f"spec must be a mapping, got {describe(spec_value)}",
            where(obj, "spec", location),
            code=ErrorCode.WRONG_TYPE,
        )
    return Manifest(kind, name, namespace, scope, obj, location)


def _folder_files(folder: str) -> list[Path]:
    """A folder's YAML files, recursively, folders linked into it included: each
    folder is read once, so a link to a folder above it cannot loop. Every
    other entry with a YAML suffix is read as if named (as kubectl does): a
    broken link or a link loop is an error, never skipped in silence."""
    seen: set[tuple[int, int]] = set()
    found: list[Path] = []

    def failed(exc: OSError) -> None:
        raise ModetableError(
            f"cannot read the directory: {exc.strerror or exc}",
            Location(exc.filename or folder),
            code=ErrorCode.CANNOT_READ,
        )

    for root, folders, files in os.walk(folder, onerror=failed, followlinks=True):
        status = os.stat(root)
        if (status.st_dev, status.st_ino) in seen:
            folders[:] = []  # reached again through a link
            continue
        seen.add((status.st_dev, status.st_ino))
        folders.sort()
        for name in files:
            path = Path(root, name)
            if path.suffix in YAML_SUFFIXES:
                found.append(path)
    return sorted(found)


def _files(argument: str) -> list[Path]:
    """The files an argument names: itself, or a folder's YAML files, recursively."""
    if os.path.isdir(argument):
        found = _folder_files(argument)
        if not found:
            raise ModetableError("directory holds no YAML files", Location(argument))
        return found
    problem = path_problem(argument)
    if problem is not None:
        raise ModetableError(problem, Location(argument), code=ErrorCode.CANNOT_READ)
    return [Path(argument)]


def same_file(path: str | os.PathLike[str]) -> tuple[int, int] | str:
    """What identifies the file at `path`: its device and inode (links, `./a` and
    `a` alike), or its name when it cannot be looked at."""
    try:
        status = os.stat(path)
    except OSError:
        return os.path.abspath(path)
    return status.st_dev, status.st_ino


def read_bytes(path: Path) -> bytes:
    """The bytes of `path`, within the byte limit."""
    return read_file(path, str(path))


def _inputs(arguments: Iterable[str]) -> Iterator[tuple[str, Path | None, bool]]:
    """(name, path or None for stdin, named explicitly) for every file to read, each once."""
    seen: set[tuple[int, int] | str] = set()
    stdin_read = False
    for argument in arguments:
        if argument == "-":
            if not stdin_read:  # a second `-` would read an exhausted stream
                stdin_read = True
                yield "<stdin>", None, True
            continue
        explicit = not os.path.isdir(argument)
        for path in _files(argument):
            identity = same_file(path)
            if identity in seen:
                continue  # the same file through two arguments is read once
            seen.add(identity)
            yield str(path), path, explicit


# Errors about a file's text that leave the other files readable: with a
# `rejected` list, such a file is recorded there and the read goes on. A limit
# (the run's alias budget is shared) or a file that cannot be read still stops it.
_FILE_STOPS = frozenset({ErrorCode.OVER_LIMIT, ErrorCode.CANNOT_READ})


def read_documents(
    arguments: Iterable[str],
    stdin: BinaryIO | None = None,
    rejected: list[Rejected] | None = None,
) -> Iterator[tuple[Any, Location]]:
    """The YAML documents of every input: files, folders (recursively) and `-`.

    Files are read one at a time; an empty file is an error when named, and
    skipped when found in a folder. With `rejected`, a file that is not YAML
    (or not UTF-8) is recorded there, none of its documents given, and the
    others are read.
    """
    for file_name, path, explicit in _inputs(arguments):
        if path is None:
            stream = stdin if stdin is not None else sys.stdin.buffer
            data = read_limited(stream, file_name)
        else:
            data = read_bytes(path)
        try:
            text = decode(data, file_name)
            del data
            # JSON (`kubectl get -o json`) is read by the json module when that
            # gives exactly what yamlio would (jsonio.py); anything else by yamlio.
            documents = load_json(text, file_name)
            if documents is None:
                documents = load_documents(text, file_name)
        except ModetableError as exc:
            if rejected is None or exc.code in _FILE_STOPS:
                raise
            rejected.append(Rejected(exc))
            continue
        del text
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
        if first is not None and first.location != obj.location:
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


def duplicate_message(earlier: Manifest, later: Manifest) -> str:
    return (
        f"{later.kind} {later.ref} is defined twice (first at {earlier.location}); "
        "the later one is used, as kubectl apply would leave it"
    )


def duplicate_warning(earlier: Manifest, later: Manifest) -> str:
    return f"{later.location}: {duplicate_message(earlier, later)}"


# What a field the rules read must hold when it is set (null counts as unset).
MAPPING = "a mapping"
STRING = "a string"
BOOLEAN = "true or false"
ANY = "anything"
_HOLDS = {
    MAPPING: lambda v: isinstance(v, dict),
    STRING: lambda v: isinstance(v, str),
    BOOLEAN: lambda v: isinstance(v, bool),
    ANY: lambda v: True,
}
# The objects each source reads: the InferenceService's side or the runtime's.
_SIDE_OF_OBJECT = {
    SourceObject.ISVC: "isvc",
    SourceObject.MERGED: "isvc",
    SourceObject.RUNTIME: "runtime",
    SourceObject.RUNTIME_RESOLVED: "runtime",
}


# Bounded: a long-running program may make a Policy per request.
@functools.lru_cache(maxsize=16)
def read_fields(policy: Policy) -> dict[str, tuple[tuple[paths.Segments, str], ...]]:
    """Side (`isvc`, `runtime`) → the fields the rules read there, each with what it holds.

    Every field on the way to one of them must be a mapping.
    """
    fields: dict[str, dict[paths.Segments, str]] = {"isvc": {}, "runtime": {}}
    for purpose in Purpose:
        for component in policy.components:
            for plan in policy.plans(purpose, component.name):
                side = _SIDE_OF_OBJECT.get(plan.source.object or "")
                if side is None:
                    continue
                if plan.path is not None:
                    fields[side].setdefault(plan.path, STRING)
                for present in plan.present:
                    fields[side].setdefault(present, ANY)
    ref = policy.rules.runtime_ref
    fields["isvc"][paths.split(ref.name)] = STRING
    fields["isvc"][paths.split(ref.kind)] = STRING
    fields["isvc"][paths.split(ref.auto_sync)] = BOOLEAN
    merge = policy.rules.running_merge
    for component in policy.components:
        fields["runtime"][policy.component_path(component, merge.source)] = MAPPING
        fields["isvc"][policy.component_path(component, merge.into)] = MAPPING
    return {side: tuple(found.items()) for side, found in fields.items()}


def check_fields(policy: Policy, cluster: Cluster) -> None:
    """Every field the rules read holds what they expect, on every object read.

    OME (through the API server) would never see such an object, so modetable
    refuses to answer for it rather than read the field as unset.
    """
    for objects in (cluster.isvcs, cluster.runtimes):
        for manifest in objects:
            check_object_fields(policy, manifest)


def check_object_fields(policy: Policy, manifest: Manifest) -> None:
    """`check_fields` on one object (models: the rules read none of their fields)."""
    side = _kinds(policy.rules.manifests)[manifest.kind][0]
    for segments, holds in read_fields(policy).get(side, ()):
        _check_field(manifest, segments, holds)


def check_path(manifest: Manifest, path: str, holds: str) -> None:
    """The value at `path` (when set) holds `holds` (STRING, BOOLEAN, ...), and
    every value on the way to it is a mapping: a one-line error otherwise."""
    _check_field(manifest, paths.split(path), holds)


def _check_field(manifest: Manifest, segments: paths.Segments, holds: str) -> None:
    node: Any = manifest.body
    for depth, segment in enumerate(segments):
        value = node.get(segment)
        if value is None:
            return
        expected = holds if depth == len(segments) - 1 else MAPPING
        if not _HOLDS[expected](value):
            raise ModetableError(
                f"{paths.render(segments[: depth + 1])} must be {expected}, got {describe(value)}",
                where(node, segment, manifest.location),
                code=ErrorCode.WRONG_TYPE,
            )
        node = value


def runtime_json(runtime: Manifest | None) -> dict[str, str] | None:
    """A runtime as the JSON contracts name it: `{"name", "kind"}`, or null."""
    if runtime is None:
        return None
    return {"name": runtime.name, "kind": runtime.kind}


def object_json(manifest: Manifest | None) -> dict[str, Any] | None:
    """An object to fix, as the JSON contracts name it: its kind, namespace
    (null for a cluster-scoped one), name and where it is written; or null."""
    if manifest is None:
        return None
    return {
        "kind": manifest.kind,
        "namespace": manifest.namespace,
        "name": manifest.name,
        "at": str(manifest.location),
    }
