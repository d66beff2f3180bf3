"""The one loader of a cluster's objects, behind every command and the Python API.

Files, folders and standard input (`load_paths`), or objects already in memory
(`load_objects`), become a `manifests.Cluster` of the kinds the rules name,
every object checked the same way: its shape, then OME's CRD schema as the API
server checks it (`api_server`: an object it refuses never exists, so it is
left out and kept in `Cluster.refused`, for the command to deny or report),
then the registry of field checks (`checks.CHECKS`), so that every command,
and every caller of the API, refuses the same inputs. Given a `rejected`
list, an object that does not read is left out and recorded there instead
(the audit goes on with the rest). Warnings go to the caller's `warn` (the
CLI writes them to stderr, the API gives them to the `warnings` module).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any, BinaryIO, TextIO

from modetable.errors import ErrorCode, Location, ModetableError
from modetable.inputs.api_server import refusal, schema_check_rule
from modetable.inputs.checks import check_cluster, check_object
from modetable.inputs.live import join_live, one_stdin
from modetable.inputs.manifests import (
    Cluster,
    Manifest,
    Refused,
    Rejected,
    build_cluster,
    duplicate_warning,
    kind_scopes,
)
from modetable.inputs.sources import other_groups_warning, parse_objects, read_documents
from modetable.parsing.yamlio import one_run
from modetable.rules.policy import Policy

__all__ = ["Warn", "duplicates_warning", "load_objects", "load_paths", "stdin_bytes"]

# Where a warning goes (one line of text, without `modetable: warning: `).
Warn = Callable[[str], None]


def load_paths(
    policy: Policy,
    paths: Sequence[str | os.PathLike[str]],
    stdin: BinaryIO | None = None,
    *,
    warn: Warn | None = None,
    rejected: list[Rejected] | None = None,
    warn_duplicates: bool = True,
    live: Sequence[str | os.PathLike[str]] = (),
    schema_policy: Policy | None = None,
) -> Cluster:
    """The objects of files and folders (read recursively); `-` reads `stdin`
    (the process's standard input when None). With `rejected`, an object that
    does not read is left out and recorded there, and so is a file that is not
    YAML (none of its objects read); a limit or a file that cannot be read
    still stops the load. `warn_duplicates` False leaves the objects defined
    twice unsaid (an audit of one namespace says those that concern it).
    `live`: files, folders or `-` of objects as the cluster holds them
    (`inputs/live.py`), read strictly: a bad live dump is an error.
    `schema_policy`: the rules whose version's CRD schema the objects are
    checked against, when not `policy`'s (an upgrade: the version it goes to)."""
    inputs = [os.fspath(p) for p in paths]
    dumps = [os.fspath(p) for p in live]
    if not inputs and not dumps:
        raise ModetableError("no manifests given (pass files, folders or -)")
    one_stdin(inputs, dumps)
    # One budget of alias nodes for all the files (the command's, when in one).
    with one_run():
        documents = read_documents(inputs, stdin, rejected) if inputs else []
        live_documents = read_documents(dumps, stdin, None) if dumps else None
        return _checked(
            policy,
            documents,
            warn,
            rejected,
            warn_duplicates,
            schema_policy,
            live_documents=live_documents,
        )


def stdin_bytes(stream: TextIO | BinaryIO | None) -> Any:
    """What `-` reads: `stream`'s bytes (its binary buffer, or a text stream
    with none, such as io.StringIO or a notebook's, as UTF-8). None, standard
    input closed (`<&-`, or a process started without one), is an error."""
    if stream is None:
        raise ModetableError(
            "cannot read: standard input is closed",
            Location("<stdin>"),
            code=ErrorCode.CANNOT_READ,
        )
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        return buffer
    return stream if isinstance(stream.read(0), bytes) else _EncodedText(stream)


class _EncodedText:
    """A text stream read as UTF-8 bytes."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def read(self, size: int = -1) -> bytes:
        # `size` counts characters here, so the byte limit is checked on the result.
        # A lone surrogate is written as UTF-8 would spell it, which decoding
        # then refuses (`not UTF-8`), never an exception of its own.
        return self.stream.read(size).encode("utf-8", "surrogatepass")


def load_objects(
    policy: Policy,
    objects: Iterable[tuple[str, Any]],
    *,
    warn: Warn | None = None,
    rejected: list[Rejected] | None = None,
    live: Iterable[tuple[str, Any]] | None = None,
) -> Cluster:
    """Objects already in memory (dicts, as `json.load` or `yaml.safe_load_all`
    give them; a List's items one by one), each with where it stood among those
    given (`objects[3]`), read as files are (`objects.py`); `live`, objects as
    the cluster holds them, the same way (`inputs/live.py`)."""
    from modetable.inputs.objects import object_documents

    spec = policy.rules.manifests
    documents = object_documents(objects, spec.list_kind, kind_scopes(spec))
    live_documents = (
        None if live is None else object_documents(live, spec.list_kind, kind_scopes(spec))
    )
    return _checked(policy, documents, warn, rejected, live_documents=live_documents)


def _checked(
    policy: Policy,
    documents: Iterable[tuple[Any, Location]],
    warn: Warn | None,
    rejected: list[Rejected] | None,
    warn_duplicates: bool = True,
    schema_policy: Policy | None = None,
    *,
    live_documents: Iterable[tuple[Any, Location]] | None = None,
) -> Cluster:
    spec = policy.rules.manifests
    other_groups: dict[str, int] = {}
    objects, skipped = parse_objects(documents, spec, rejected, other_groups)
    if live_documents is not None:
        # A live dump is read strictly: what the cluster holds has no bad object.
        live, live_skipped = parse_objects(live_documents, spec, None, other_groups)
        objects, skipped = join_live(policy.rules, objects, live), skipped + live_skipped
    if other_groups and warn is not None:
        warn(other_groups_warning(other_groups, spec))
    schema_policy = schema_policy or policy
    objects, refused = _refused(schema_policy, objects)
    if rejected is not None:
        # Each object checked before duplicates are resolved: a malformed later
        # copy leaves the earlier one in place.
        kept = []
        for manifest in objects:
            try:
                check_object(policy, manifest)
            except ModetableError as exc:
                rejected.append(Rejected(exc, manifest.kind, manifest.namespace, manifest.name))
                continue
            kept.append(manifest)
        objects = kept
    checked = schema_policy.version if schema_check_rule(schema_policy) is not None else None
    cluster = build_cluster(objects, skipped, spec, refused, checked)
    said = duplicates_warning(cluster.duplicates) if warn_duplicates else None
    if said is not None and warn is not None:
        warn(said)
    if rejected is None:
        check_cluster(policy, cluster)
    return cluster


def _refused(policy: Policy, objects: list[Manifest]) -> tuple[list[Manifest], tuple[Refused, ...]]:
    """The objects the API server accepts, and those it refuses (each copy
    checked before duplicates are resolved: a refused later copy leaves the
    earlier one in place, as `kubectl apply` would)."""
    if schema_check_rule(policy) is None:
        return objects, ()
    kept, refused = [], []
    for manifest in objects:
        found = refusal(policy, manifest)
        if found is None:
            kept.append(manifest)
        else:
            refused.append(found)
    return kept, tuple(refused)


def duplicates_warning(duplicates: Sequence[tuple[Manifest, Manifest]]) -> str | None:
    """The one warning about objects defined twice ((earlier, later) pairs):
    the first, with a count of the rest, since a tree with many would bury
    everything else; None for none."""
    if not duplicates:
        return None
    earlier, later = duplicates[0]
    more = len(duplicates) - 1
    extra = f" (and {more} more defined twice: `modetable audit` lists each)" if more else ""
    return duplicate_warning(earlier, later) + extra
