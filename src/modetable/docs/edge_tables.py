"""The page of the mode rule's sharp edges (region sharp-edges,
docs/sharp-edges.md): each finding of the rules' `findings.mode_source`, with
its severity, the places of `sources` that give it, what it means and what to
do, and an example: made-up objects with a value at the first of those places,
audited (audit/edges.py) for the message the finding gives. A version whose
rules give an edge nowhere says so."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yaml

from modetable.audit.edges import isvc_edges, running_reads, runtime_edges
from modetable.docs.common import display_path, docs_of, range_note
from modetable.engine.running import effective
from modetable.inputs.api_server import takes_only_listed_values
from modetable.inputs.loading import load_objects
from modetable.output.markdown import code
from modetable.parsing import paths
from modetable.reports.finding import Finding
from modetable.rules.model.sources import Source
from modetable.rules.policy import Policy
from modetable.rules.words import (
    AdmissionCheck,
    Counts,
    FindingGroup,
    ModeSourceFinding,
    Purpose,
    Scope,
    SourceObject,
)
from modetable.text.templates import fill
from modetable.versions import in_force

__all__ = ["sharp_edges"]

_NAME = "example"
_PARENT = "example-parent"


def _sources(policy: Policy) -> list[Source]:
    """Every source in force whose place holds a written mode, in precedence
    order, the InferenceService's side first."""
    rows = (*policy.rules.sources.requested, *policy.rules.sources.declared)
    rows = (*rows, *policy.rules.sources.running)
    return [s for s in rows if s.path is not None and in_force(s.since, s.until, policy.version)]


def _first_reader(policy: Policy, source: Source) -> bool:
    """Whether `source` is the first to read its place (a finding is given once
    per place, by the first source reading it), the API server's schema does
    not refuse what is written there (an `allowed_values` check), and no
    running source reads it from the runtime (`running_reads`)."""
    refused = {r.source for r in policy.admission if r.check == AdmissionCheck.ALLOWED_VALUES}
    if source.id in refused:
        return False
    # A place whose values OME's CRD schema lists: any other is refused there.
    isvc_kind = policy.rules.manifests.inference_service
    if (
        source.object in (SourceObject.ISVC, SourceObject.MERGED)
        and source.path is not None
        and "{" not in source.path
        and takes_only_listed_values(policy, isvc_kind, paths.split(source.path))
    ):
        return False
    values = policy.placeholder_values(policy.components[0])
    if (
        source.object == SourceObject.RUNTIME
        and source.counts == Counts.NEVER
        and source.path is not None
        and paths.expand(source.path, values) in running_reads(policy)
    ):
        return False
    side = source.object == SourceObject.RUNTIME
    earlier = _sources(policy)
    earlier = earlier[: earlier.index(source)]
    return not any(
        s.path == source.path and (s.object == SourceObject.RUNTIME) == side for s in earlier
    )


def _gives(kind: ModeSourceFinding, source: Source) -> bool:
    """Whether a value at `source` can be passed over as `kind` (engine/modes.py's
    verdicts: counts first, then validity, then what the source takes)."""
    if kind == ModeSourceFinding.NOT_VALID:
        return source.counts == Counts.ALWAYS
    if kind == ModeSourceFinding.NOT_ACCEPTED:
        return source.counts == Counts.ALWAYS and source.accepts is not None
    if kind == ModeSourceFinding.DOES_NOT_COUNT:
        return source.counts == Counts.NEVER
    if kind == ModeSourceFinding.WHEN_NAMED:
        return source.counts == Counts.WHEN_NAMED
    # overridden: a mode merged in from the runtime, over one the InferenceService asks for
    return source.object == SourceObject.MERGED


def _object(policy: Policy, kind: str, name: str, **spec: Any) -> dict[str, Any]:
    group = policy.rules.manifests.api_groups[0]
    metadata: dict[str, Any] = {"name": name}
    if kind == policy.rules.manifests.inference_service:
        metadata["namespace"] = _NAME
    return {"apiVersion": f"{group}/v1beta1", "kind": kind, "metadata": metadata, "spec": spec}


def _isvc(policy: Policy, *, model: bool = True) -> dict[str, Any]:
    """An InferenceService with its first component, naming a model (`model`)."""
    ref = policy.rules.selection.model_ref if policy.rules.selection else None
    isvc = _object(policy, policy.rules.manifests.inference_service, _NAME)
    if ref is not None and model:
        isvc = paths.assign(isvc, paths.split(f"{ref.path}.{ref.name}"), _NAME)
    first = policy.components[0]
    return paths.assign(isvc, paths.split(f"spec.{first.isvc_field}"), {})


def _runtime(policy: Policy, name: str) -> dict[str, Any]:
    kind = next(r.kind for r in policy.rules.manifests.runtimes if r.scope == Scope.CLUSTER)
    return _object(policy, kind, name)


def _at(policy: Policy, obj: dict[str, Any], template: str, value: Any) -> dict[str, Any]:
    values = policy.placeholder_values(policy.components[0])
    return paths.assign(obj, paths.expand(template, values), value)


def _modes(policy: Policy) -> list[str]:
    return list(policy.modes_in_force)


def _example(
    policy: Policy, kind: ModeSourceFinding
) -> tuple[list[dict[str, Any]], Finding] | None:
    """_Made-up objects that give `kind` at the first place that can, and the finding."""
    modes = _modes(policy)
    for source in _sources(policy):
        if not _gives(kind, source):
            continue
        if kind != ModeSourceFinding.OVERRIDDEN and not _first_reader(policy, source):
            continue
        made = _MAKERS[kind](policy, source, modes)
        if made is None:
            continue
        objects, find = made
        cluster = load_objects(policy, [(f"objects[{i}]", o) for i, o in enumerate(objects)])
        found = [f for f in find(cluster) if f.id == f"{FindingGroup.MODE_SOURCE}/{kind}"]
        if found:
            return objects, found[0]
    return None


_Made = tuple[list[dict[str, Any]], Callable[[Any], list[Finding]]] | None


def _value_example(policy: Policy, source: Source, value: str) -> _Made:
    if source.object in (SourceObject.ISVC, SourceObject.MERGED):
        isvc = _at(policy, _isvc(policy), source.path or "", value)

        def find(cluster: Any) -> list[Finding]:
            if not cluster.isvcs:
                return []  # the API server refuses it (a value its schema does not take)
            manifest = cluster.isvcs[0]
            running = effective(policy, cluster, manifest, None, False).components
            return isvc_edges(policy, manifest, running, None)

        return [isvc], find
    if source.object == SourceObject.RUNTIME:
        runtime = _at(policy, _runtime(policy, _NAME), source.path or "", value)
        return (
            [runtime],
            lambda cluster: (
                runtime_edges(policy, cluster, cluster.runtimes[0]) if cluster.runtimes else []
            ),
        )
    return None


def _not_valid(policy: Policy, source: Source, modes: list[str]) -> _Made:
    accepts = list(source.accepts) if source.accepts is not None else modes
    written = next((m.lower() for m in accepts if m.lower() != m), None)
    return _value_example(policy, source, written) if written else None


def _not_accepted(policy: Policy, source: Source, modes: list[str]) -> _Made:
    other = next((m for m in modes if m not in (source.accepts or ())), None)
    return _value_example(policy, source, other) if other else None


def _does_not_count(policy: Policy, source: Source, modes: list[str]) -> _Made:
    return _value_example(policy, source, modes[0]) if modes else None


def _when_named(policy: Policy, source: Source, modes: list[str]) -> _Made:
    if source.object != SourceObject.RUNTIME_RESOLVED or not modes:
        return None
    parent = _at(policy, _runtime(policy, _PARENT), source.path or "", modes[0])
    child = _runtime(policy, _NAME)
    key = policy.rules.inheritance.annotation
    child = paths.assign(child, ("metadata", "annotations", key), _PARENT)
    return [parent, child], lambda cluster: runtime_edges(
        policy, cluster, next(r for r in cluster.runtimes if r.name == _NAME)
    )


def _overridden(policy: Policy, source: Source, modes: list[str]) -> _Made:
    """The runtime's mode at the merged place, and one the InferenceService
    asks for at a later place of its own that takes a mode."""
    component = policy.components[0]
    plans = policy.plans(Purpose.RUNNING, component.name)
    merged = next((p for p in plans if p.source.id == source.id), None)
    if merged is None or merged.runtime_path is None:
        return None
    later = plans[plans.index(merged) + 1 :]
    asking = next((p for p in later if p.source.object == SourceObject.ISVC and p.path), None)
    if asking is None:
        return None
    asked = next(iter(asking.source.accepts or modes), None)
    runs = next((m for m in component.runs_in if m in modes and m != asked), None)
    if asked is None or runs is None:
        return None
    runtime = paths.assign(_runtime(policy, _NAME), merged.runtime_path, runs)
    # Naming the runtime alone (no model to look up), as the audit reads it.
    isvc = paths.assign(_isvc(policy, model=False), asking.path or (), asked)
    isvc = paths.assign(isvc, paths.split(policy.rules.runtime_ref.name), _NAME)

    def find(cluster: Any) -> list[Finding]:
        if not cluster.isvcs or not cluster.runtimes:
            return []  # the API server refuses one (a field its version's CRD lacks)
        manifest, used = cluster.isvcs[0], cluster.runtimes[0]
        running = effective(policy, cluster, manifest, used, True).components
        return isvc_edges(policy, manifest, running, used)

    return [isvc, runtime], find


_MAKERS: dict[ModeSourceFinding, Callable[[Policy, Source, list[str]], _Made]] = {
    ModeSourceFinding.NOT_VALID: _not_valid,
    ModeSourceFinding.NOT_ACCEPTED: _not_accepted,
    ModeSourceFinding.DOES_NOT_COUNT: _does_not_count,
    ModeSourceFinding.WHEN_NAMED: _when_named,
    ModeSourceFinding.OVERRIDDEN: _overridden,
}


def _places(policy: Policy, kind: ModeSourceFinding) -> str:
    """The places that give `kind`; for `overridden`, the runtime's, merged in."""
    merge = policy.rules.running_merge
    shown = []
    for source in _sources(policy):
        if source.path is None or not _gives(kind, source):
            continue
        if kind == ModeSourceFinding.OVERRIDDEN:
            template = source.path.replace(merge.into, merge.source)
        elif _first_reader(policy, source):
            template = source.path
        else:
            continue
        text = display_path(policy, template) + range_note(policy, source.since, source.until)
        if text not in shown:
            shown.append(text)
    return ", ".join(shown) or f"none in {policy.version}"


def sharp_edges(policy: Policy) -> str:
    """The mode rule's sharp edges: each `mode_source` finding, where it comes from, an example."""
    findings = policy.rules.findings
    graded = findings.mode_source if findings is not None else {}
    words = docs_of(policy).finding_ids
    parts = []
    for kind, entry in graded.items():
        finding_id = f"{FindingGroup.MODE_SOURCE}/{kind}"
        lines = [f"### {code(finding_id)}", ""]
        if words is not None:
            lines.append(fill(words.severity, {"severity": str(entry.severity), "range": ""}))
        lines += ["", entry.description, "", f"Where: {_places(policy, kind)}."]
        example = _example(policy, kind)
        if example is None:
            lines += ["", f"No place gives it in {policy.version}."]
        else:
            objects, finding = example
            text = yaml.safe_dump_all(objects, sort_keys=False)
            holder = finding.object
            lines += [
                "",
                "For example:",
                "",
                "```yaml",
                text.rstrip("\n"),
                "```",
                "",
                f"gives, on the {holder.kind} {code(holder.name or '')}:",
                "",
                "```text",
                f"{finding.severity}: {finding.message} [{finding.id}]",
                "```",
            ]
            if finding.related:
                see = finding.see_also
                lines += ["", f"{see[0].upper()}{see[1:]}."]
        if entry.help:
            lines += ["", f"What to do: {entry.help}"]
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"
