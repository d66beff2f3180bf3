"""Every object's fields checked, by one registry the loader runs (`CHECKS`):
each field the rules, selection and the admission checks read holds the type
OME's API gives it, and a runtime is one OME's ServingRuntime webhook admits.
OME (through the API server) would never see such an object, so modetable
refuses to answer for it rather than read the field as unset; every command,
and every caller of the API, refuses the same inputs.

The registry's order is the order the checks run in, so the first error for
any input is always the same: on a whole cluster (`check_cluster`) each check
runs over its kinds of object, in the order listed; on one object
(`check_object`, the lenient audit's) the checks for its kind run in turn.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from modetable.errors import ErrorCode, ModetableError
from modetable.inputs.admission_fields import check_admission_fields
from modetable.inputs.fields import read
from modetable.inputs.formats import entries_of, model_facts
from modetable.inputs.manifests import Cluster, Manifest, kind_roles
from modetable.inputs.runtime_admission import runtime_denial
from modetable.parsing import paths
from modetable.parsing.yamlio import describe, where
from modetable.rules.words import Purpose, SourceObject
from modetable.settled import frozen

if TYPE_CHECKING:
    from modetable.rules.policy import Policy

__all__ = [
    "ANY",
    "BOOLEAN",
    "CHECKS",
    "MAPPING",
    "STRING",
    "FieldCheck",
    "check_cluster",
    "check_fields",
    "check_object",
    "check_object_fields",
    "check_path",
    "check_runtime_admitted",
    "check_selection_fields",
    "read_fields",
]


@frozen
class FieldCheck:
    """One check of the registry: what it checks, the roles of the objects it
    applies to (`isvc`, `runtime`, `model`: `cluster.kind_roles`) in the order
    a cluster's are checked, and the check (a one-line error at the first
    problem)."""

    name: str
    roles: tuple[str, ...]
    check: Callable[[Policy, Manifest], None]


def check_cluster(policy: Policy, cluster: Cluster) -> None:
    """Every check of the registry on every object it applies to."""
    groups = {"isvc": cluster.isvcs, "runtime": cluster.runtimes, "model": cluster.models}
    for entry in CHECKS:
        for role in entry.roles:
            for manifest in groups[role]:
                entry.check(policy, manifest)


def check_object(policy: Policy, manifest: Manifest) -> None:
    """`check_cluster` on one object: the checks for its kind, in turn."""
    role = kind_roles(policy.rules.manifests)[manifest.kind][0]
    for entry in CHECKS:
        if role in entry.roles:
            entry.check(policy, manifest)


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
    side = kind_roles(policy.rules.manifests)[manifest.kind][0]
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


def check_selection_fields(policy: Policy, manifest: Manifest) -> None:
    """Every field selection reads on one object holds what it expects."""
    selection = policy.rules.selection
    if selection is None:
        return
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


def check_runtime_admitted(policy: Policy, runtime: Manifest) -> None:
    """The runtime is one OME's ServingRuntime webhook admits (`runtime_admission`)."""
    denial = runtime_denial(policy, runtime)
    if denial is not None:
        raise ModetableError(denial, runtime.location, code=ErrorCode.DENIED)


# The registry, in the order the checks run.
CHECKS: tuple[FieldCheck, ...] = (
    FieldCheck("fields the rules read", ("isvc", "runtime"), check_object_fields),
    FieldCheck("fields selection reads", ("model", "runtime", "isvc"), check_selection_fields),
    # A runtime OME's webhook denies on apply cannot be in the cluster.
    FieldCheck("runtimes admitted on apply", ("runtime",), check_runtime_admitted),
    FieldCheck("fields the admission checks read", ("isvc",), check_admission_fields),
)
