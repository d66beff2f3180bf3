"""The mode rule's sharp edges as findings: a deployment-mode value written
where a source of the rules reads it and OME passes it over (no mode of the
version, a mode the place does not take, a place that does not count for
matching, an annotation a runtime inherits), and a runtime's mode overriding
the one an InferenceService asks for.

Nothing here names a place or a mode: the findings come from the rules'
`sources` rows and the verdicts the engine gives them (engine/modes.py), the
same that decide the modes, so a new version's rules bring their own edges;
`findings.mode_source` grades them and gives their words.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from modetable.engine.matching import requested_modes, runtime_objects
from modetable.engine.modes import Reading, Resolution, Verdict, resolve
from modetable.engine.runtimes import InheritanceError, resolve_chain
from modetable.errors import Location
from modetable.inputs.manifests import Cluster, Manifest
from modetable.parsing import paths
from modetable.reports.finding import Finding, ObjectRef, Related
from modetable.rules.model.findings import ModeSourceKind
from modetable.rules.policy import Policy
from modetable.rules.words import (
    AdmissionCheck,
    Compared,
    FindingGroup,
    ModeSourceFinding,
    Purpose,
    SourceObject,
)
from modetable.selection import did_you_mean
from modetable.versions import describe_range

__all__ = ["EDGES", "isvc_edges", "running_reads", "runtime_edges"]

# Each finding of `mode_source` by the verdict that gives it (None: not a
# verdict, the override, found by comparing the running mode with what was asked).
EDGES: dict[ModeSourceFinding, Verdict | None] = {
    ModeSourceFinding.NOT_VALID: Verdict.NOT_VALID,
    ModeSourceFinding.NOT_ACCEPTED: Verdict.NOT_ACCEPTED,
    ModeSourceFinding.DOES_NOT_COUNT: Verdict.DOES_NOT_COUNT,
    ModeSourceFinding.WHEN_NAMED: Verdict.WHEN_NAMED,
    ModeSourceFinding.OVERRIDDEN: None,
}
_BY_VERDICT = {verdict: kind for kind, verdict in EDGES.items() if verdict is not None}


def _graded(policy: Policy) -> dict[ModeSourceFinding, ModeSourceKind]:
    findings = policy.rules.findings
    return findings.mode_source if findings is not None else {}


def _quoted(value: object) -> str:
    """A value as written, in quotes (a space or a control character shows)."""
    return json.dumps(value, ensure_ascii=False)


def _suggestion(policy: Policy, value: str, accepts: Iterable[str]) -> str:
    """A mode of another version (with the versions it is one in), else a
    "did you mean" among the modes the place takes, else ""."""
    other = next((m for m in policy.rules.modes if m.name == value), None)
    if other is not None and value not in policy.modes_in_force:
        return policy.message("mode_other_version", range=describe_range(other.since, other.until))
    close = did_you_mean(value, list(accepts))
    return policy.message("mode_suggestion", suggestion=close) if close else ""


def _instead(policy: Policy, purpose: str, resolution: Resolution) -> str:
    """What decides the component's mode, the value passed over aside."""
    used = next((r for r in resolution.readings if r.verdict == Verdict.USED), None)
    component = resolution.component
    if used is not None:
        return policy.message(
            "mode_next_place", component=component, path=used.path, mode=resolution.mode or ""
        )
    if purpose == Purpose.REQUESTED:
        return policy.message("mode_no_place_requested", component=component)
    return policy.message("mode_no_place_declared", component=component)


def _message(
    policy: Policy,
    entry: ModeSourceKind,
    reading: Reading,
    component: str,
    **values: str,
) -> str:
    source = policy.sources_by_id[reading.source_id]
    accepts = source.accepts if source.accepts is not None else tuple(policy.modes_in_force)
    filled = {
        "path": reading.path,
        "value": _quoted(reading.value),
        "component": component,
        "version": policy.release,
        "accepts": ", ".join(accepts),
        "suggestion": "",
        "instead": "",
        "note": policy.message(source.note) if source.note else "",
        "runtime": "",
        "parent": "",
        "mode": "",
        "asked": "",
    }
    filled.update(values)
    if reading.verdict in (Verdict.NOT_VALID, Verdict.NOT_ACCEPTED):
        filled["suggestion"] = _suggestion(policy, str(reading.value), accepts)
    return policy.message(entry.message, **filled)


def _finding(
    policy: Policy,
    kind: ModeSourceFinding,
    message: str,
    location: Location,
    holder: Manifest,
    related: tuple[Related, ...] = (),
) -> Finding:
    entry = _graded(policy)[kind]
    finding_id = f"{FindingGroup.MODE_SOURCE}/{kind}"
    return Finding(
        str(entry.severity), finding_id, message, location, ObjectRef.of(holder), None, related
    )


def _written(policy: Policy, reading: Reading) -> bool:
    """Whether `reading` is of a mode value written at a path (a source that
    only sees a `leader` or `worker` there writes none)."""
    return policy.sources_by_id[reading.source_id].path is not None


def _in_isvc(policy: Policy, reading: Reading) -> bool:
    """Whether the InferenceService itself holds what `reading` read."""
    source = policy.sources_by_id[reading.source_id]
    return source.object == SourceObject.ISVC or reading.origin == "isvc"


def isvc_edges(
    policy: Policy, isvc: Manifest, running: dict[str, Resolution], runtime: Manifest | None
) -> list[Finding]:
    """The InferenceService's own mode values OME passes over, each once, at
    its value (what it asks for first, then how it runs); and each component
    whose runtime's mode overrides the one it asks for (`running`: the
    components' running modes; `runtime`: the runtime used)."""
    graded = _graded(policy)
    if not graded:
        return []
    # A value the API server's schema checks is refused there, not passed over.
    refused = {r.source for r in policy.admission if r.check == AdmissionCheck.ALLOWED_VALUES}
    refused_places = {
        paths.split(policy.sources_by_id[s].path or "") for s in refused if s is not None
    }
    found: list[Finding] = []
    sides = ((Purpose.REQUESTED, requested_modes(policy, isvc)), (Purpose.RUNNING, running))
    # A value another source uses where it is written counts there
    # (VirtualDeployment in metadata.annotations): not passed over.
    seen: set[Location] = {
        r.location
        for _purpose, resolutions in sides
        for resolution in resolutions.values()
        for r in resolution.readings
        if r.verdict == Verdict.USED and r.location is not None
    }
    for purpose, resolutions in sides:
        for component, resolution in resolutions.items():
            for reading in resolution.readings:
                where = reading.location
                if where is None or where in seen or not _in_isvc(policy, reading):
                    continue
                if not _written(policy, reading):
                    continue
                seen.add(where)
                kind = _BY_VERDICT.get(reading.verdict)
                if kind not in graded or paths.split(reading.path) in refused_places:
                    continue
                instead = _instead(policy, purpose, resolution)
                message = _message(policy, graded[kind], reading, component, instead=instead)
                found.append(_finding(policy, kind, message, where, isvc))
    if ModeSourceFinding.OVERRIDDEN in graded and runtime is not None:
        found.extend(_overridden(policy, isvc, running, runtime, graded))
    return found


def _overridden(
    policy: Policy,
    isvc: Manifest,
    running: dict[str, Resolution],
    runtime: Manifest,
    graded: dict[ModeSourceFinding, ModeSourceKind],
) -> list[Finding]:
    """A component running in the runtime's mode, though a place of the
    InferenceService asks for another, valid one: at what it asks."""
    entry = graded[ModeSourceFinding.OVERRIDDEN]
    found = []
    for component, resolution in running.items():
        used = next((r for r in resolution.readings if r.verdict == Verdict.USED), None)
        if used is None or used.origin != "runtime":
            continue
        asked = next(
            (
                r
                for r in resolution.readings
                if r.verdict == Verdict.SHADOWED
                and _in_isvc(policy, r)
                and r.location is not None
                and policy.is_mode(r.value)
                and r.value != resolution.mode
            ),
            None,
        )
        if asked is None or asked.location is None:
            continue
        message = _message(
            policy,
            entry,
            asked,
            component,
            runtime=f"{runtime.kind} {runtime.ref}",
            mode=resolution.mode or "",
            asked=asked.path,
            path=_runtime_path(policy, component, used),
            value=str(asked.value),
        )
        related = (Related(used.location or runtime.location, f"{runtime.kind} {runtime.ref}"),)
        found.append(
            _finding(policy, ModeSourceFinding.OVERRIDDEN, message, asked.location, isvc, related)
        )
    return found


def _runtime_path(policy: Policy, component: str, used: Reading) -> str:
    """Where the runtime writes the mode a source of the merged
    InferenceService read (`running_merge`)."""
    plan = next(
        p for p in policy.plans(Purpose.RUNNING, component) if p.source.id == used.source_id
    )
    return paths.render(plan.runtime_path) if plan.runtime_path is not None else used.path


def running_reads(policy: Policy) -> set[paths.Segments]:
    """The runtime's places a running source reads, merged into a component
    (`running_merge`): a mode written there that matching does not read (a
    router's) still sets that component's running mode, so it is no
    `does_not_count`; where it matters, the component's run failure or mode
    says so."""
    return {
        plan.runtime_path
        for component in policy.components
        for plan in policy.plans(Purpose.RUNNING, component.name)
        if plan.runtime_path is not None
    }


def runtime_edges(policy: Policy, cluster: Cluster, runtime: Manifest) -> list[Finding]:
    """The runtime's mode values OME passes over when it matches the runtime
    (what it declares for each compared component), each once, at its value;
    a mode it inherits, at the annotation naming its parent."""
    graded = _graded(policy)
    if not graded:
        return []
    objects = runtime_objects(policy, cluster, runtime, named=False)
    found: list[Finding] = []
    seen: set[Location] = set()
    running = running_reads(policy)
    for component in policy.components:
        if component.compared == Compared.NEVER:
            continue
        resolution = resolve(policy, Purpose.DECLARED, component, objects)
        for reading in resolution.readings:
            where = reading.location
            kind = _BY_VERDICT.get(reading.verdict)
            if where is None or where in seen or kind not in graded:
                continue
            if not _written(policy, reading):
                continue
            if kind == ModeSourceFinding.DOES_NOT_COUNT and paths.split(reading.path) in running:
                continue
            seen.add(where)
            if kind == ModeSourceFinding.WHEN_NAMED:
                found.extend(_inherited(policy, cluster, runtime, reading, component.name))
                continue
            instead = _instead(policy, Purpose.DECLARED, resolution)
            message = _message(policy, graded[kind], reading, component.name, instead=instead)
            found.append(_finding(policy, kind, message, where, runtime))
    return found


def _inherited(
    policy: Policy, cluster: Cluster, runtime: Manifest, reading: Reading, component: str
) -> list[Finding]:
    """A mode the runtime inherits: at its annotation naming its parent, the
    parent's value as the related place."""
    try:
        chain = resolve_chain(policy, cluster, runtime)
    except InheritanceError:
        return []
    segments = paths.split(reading.path)
    parent = next(
        (r for r in chain.runtimes[1:] if paths.lookup(r.body, segments) == reading.value),
        chain.runtimes[1] if len(chain.runtimes) > 1 else None,
    )
    if parent is None:
        return []
    names = ("metadata", "annotations", policy.rules.inheritance.annotation)
    at = paths.value_location(runtime.body, names, runtime.location) or runtime.location
    there = paths.value_location(parent.body, segments, parent.location) or parent.location
    label = f"{parent.kind} {parent.ref}"
    entry = _graded(policy)[ModeSourceFinding.WHEN_NAMED]
    message = _message(policy, entry, reading, component, parent=label, runtime=runtime.name)
    related = (Related(there, label),)
    return [_finding(policy, ModeSourceFinding.WHEN_NAMED, message, at, runtime, related)]
