"""The one loader of a cluster's objects, behind every command and the Python API.

Files, folders and standard input (`load_paths`), or objects already in memory
(`load_objects`), become a `manifests.Cluster` of the kinds the rules name,
every object checked the same way: its shape, then every field the rules and
selection read holding what they expect (`check_cluster`), so that every
command, and every caller of the API, refuses the same inputs. Given a
`rejected` list, an object that does not read is left out and recorded there
instead (the audit goes on with the rest). Warnings go to the caller's `warn`
(the CLI writes them to stderr, the API gives them to the `warnings` module).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any, BinaryIO

from modetable.admission import check_fields as check_admission_fields
from modetable.admission.runtimes import runtime_denial
from modetable.errors import ErrorCode, Location, ModetableError
from modetable.inputs.manifests import (
    STRING,
    Cluster,
    Manifest,
    Rejected,
    build_cluster,
    check_fields,
    check_object_fields,
    check_path,
    duplicate_warning,
    kind_scopes,
    other_groups_warning,
    parse_objects,
    read_documents,
)
from modetable.parsing.yamlio import one_run, where
from modetable.rules.policy import Policy

__all__ = ["Warn", "check_cluster", "check_object", "load_objects", "load_paths"]

# Where a warning goes (one line of text, without `modetable: warning: `).
Warn = Callable[[str], None]


def load_paths(
    policy: Policy,
    paths: Sequence[str | os.PathLike[str]],
    stdin: BinaryIO | None = None,
    *,
    warn: Warn | None = None,
    rejected: list[Rejected] | None = None,
) -> Cluster:
    """The objects of files and folders (read recursively); `-` reads `stdin`
    (the process's standard input when None). With `rejected`, an object that
    does not read is left out and recorded there, and so is a file that is not
    YAML (none of its objects read); a limit or a file that cannot be read
    still stops the load."""
    inputs = [os.fspath(p) for p in paths]
    if not inputs:
        raise ModetableError("no manifests given (pass files, folders or -)")
    # One budget of alias nodes for all the files (the command's, when in one).
    with one_run():
        return _checked(policy, read_documents(inputs, stdin, rejected), warn, rejected)


def load_objects(
    policy: Policy,
    objects: Iterable[tuple[str, Any]],
    *,
    warn: Warn | None = None,
    rejected: list[Rejected] | None = None,
) -> Cluster:
    """Objects already in memory (dicts, as `json.load` or `yaml.safe_load_all`
    give them; a List's items one by one), each with where it stood among those
    given (`objects[3]`), read as files are (`objects.py`)."""
    from modetable.inputs.objects import object_documents

    spec = policy.rules.manifests
    documents = object_documents(objects, spec.list_kind, kind_scopes(spec))
    return _checked(policy, documents, warn, rejected)


def _checked(
    policy: Policy,
    documents: Iterable[tuple[Any, Location]],
    warn: Warn | None,
    rejected: list[Rejected] | None,
) -> Cluster:
    spec = policy.rules.manifests
    other_groups: dict[str, int] = {}
    objects, skipped = parse_objects(documents, spec, rejected, other_groups)
    if other_groups and warn is not None:
        warn(other_groups_warning(other_groups, spec))
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
    cluster = build_cluster(objects, skipped, spec)
    if cluster.duplicates and warn is not None:
        # Once, with a count: a tree with many duplicates would bury everything else.
        earlier, later = cluster.duplicates[0]
        more = len(cluster.duplicates) - 1
        extra = f" (and {more} more defined twice: `modetable audit` lists each)" if more else ""
        warn(duplicate_warning(earlier, later) + extra)
    if rejected is None:
        check_cluster(policy, cluster)
    return cluster


def check_cluster(policy: Policy, cluster: Cluster) -> None:
    """Every field the rules and selection read holds what they expect, on every
    object (a one-line error at the first that does not)."""
    check_fields(policy, cluster)
    # Read, once, every field selection reads, on every object: `select` reads
    # them lazily and the audit's fast path skips some, so without this the same
    # input could be refused by one command and answered by another.
    for objects in (cluster.models, cluster.runtimes, cluster.isvcs):
        for manifest in objects:
            _check_selection_object(policy, manifest)
    # A runtime OME's webhook denies on apply cannot be in the cluster.
    for runtime in cluster.runtimes:
        _check_runtime_admitted(policy, runtime)
    # And every field the admission checks read, on every InferenceService.
    for isvc in cluster.isvcs:
        check_admission_fields(policy, isvc)


def check_object(policy: Policy, manifest: Manifest) -> None:
    """`check_cluster` on one object."""
    check_object_fields(policy, manifest)
    _check_selection_object(policy, manifest)
    if manifest.kind == policy.rules.manifests.inference_service:
        check_admission_fields(policy, manifest)
    elif manifest.kind in {k.kind for k in policy.rules.manifests.runtimes}:
        _check_runtime_admitted(policy, manifest)


def _check_runtime_admitted(policy: Policy, runtime: Manifest) -> None:
    """The runtime is one OME's ServingRuntime webhook admits (`runtime_admission`)."""
    denial = runtime_denial(policy, runtime)
    if denial is not None:
        raise ModetableError(denial, runtime.location, code=ErrorCode.DENIED)


def _check_selection_object(policy: Policy, manifest: Manifest) -> None:
    """Every field selection reads on one object holds what it expects."""
    selection = policy.rules.selection
    if selection is None:
        return
    from modetable.inputs.fields import read
    from modetable.inputs.formats import entries_of, model_facts

    manifests = policy.rules.manifests
    body, at = manifest.body, manifest.location
    if manifest.kind in {k.kind for k in manifests.models}:
        model_facts(selection, manifest)
    elif manifest.kind in {k.kind for k in manifests.runtimes}:
        runtime = selection.runtime
        entries_of(selection, body, at)
        read(body, runtime.disabled, bool, at)
        listed = read(body, runtime.accelerator_classes, list, at) or []
        for index, item in enumerate(listed):
            if not isinstance(item, str):
                raise ModetableError(
                    f"{runtime.accelerator_classes}[{index}] must be a string",
                    where(listed, index, at),
                    code=ErrorCode.WRONG_TYPE,
                )
        if read(body, runtime.size_range, dict, at) is not None:
            read(body, runtime.size_min, str, at)
            read(body, runtime.size_max, str, at)
    else:
        ref = selection.model_ref
        node = read(body, ref.path, dict, at)
        if node is not None:
            read(node, ref.name, str, at, f"{ref.path}.")
            read(node, ref.kind, str, at, f"{ref.path}.")
        for path in selection.accelerator_classes:
            read(body, path, str, at)
        # Whether the webhook selects reads them: a value of another type, or
        # one under something that is not a mapping, is no image the API takes.
        for path in (*selection.webhook.own_image_any, *selection.webhook.own_image_all):
            check_path(manifest, path, STRING)
