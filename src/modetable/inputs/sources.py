"""Where objects come from: files, folders (recursively, each file read once),
standard input, and `kind: List` and typed lists unwrapped, read into
`Manifest`s of the kinds the rules name (anything else is counted and
skipped), each object's shape checked. Every object keeps its YAML tree, so
later errors can name their place.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO

from modetable.errors import ErrorCode, Location, ModetableError
from modetable.inputs.manifests import (
    DEFAULT_NAMESPACE,
    Cluster,
    Manifest,
    Rejected,
    build_cluster,
    kind_roles,
)
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

__all__ = [
    "YAML_SUFFIXES",
    "is_list",
    "other_groups_warning",
    "parse_objects",
    "read_bytes",
    "read_cluster",
    "read_documents",
    "same_file",
]

YAML_SUFFIXES = (".yaml", ".yml", ".json")


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
    kinds = kind_roles(spec)
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
