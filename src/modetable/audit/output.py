"""The audit and the upgrade impact for people: a table, then what needs a look."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO

from modetable.audit.findings import counts
from modetable.audit.fleet import DENIED, NO_RUNTIME, RUN_FAILURE, Audited, AuditSummary
from modetable.audit.triage import Suppressed
from modetable.audit.upgrade import Impact
from modetable.engine.modes import Resolution
from modetable.engine.running import logged
from modetable.inputs.baseline import BaselineEntry
from modetable.output.render import counted, line, table, yaml_dumper
from modetable.reports import KNOWN
from modetable.reports.finding import Finding
from modetable.rules.policy import Policy
from modetable.rules.words import Severity

__all__ = [
    "KNOWN_NOTE",
    "PROBLEM_WORDS",
    "WRITERS",
    "audit_summary_line",
    "finding_lines",
    "severity_counts",
    "suppressed_note",
    "write_audit",
    "write_json",
    "write_upgrade",
    "write_yaml",
]


def write_json(
    out: TextIO, items: Iterable[dict[str, Any]], trailer: Callable[[], dict[str, Any]]
) -> None:
    """`{"items": [...], ...trailer}`, an item per line as it comes, so a fleet's
    items are never all held at once; `trailer` (the summary...) is asked for last."""
    out.write('{\n  "items": [')
    separator = "\n    "
    for item in items:
        out.write(separator + json.dumps(item, ensure_ascii=False))
        separator = ",\n    "
    out.write("]" if separator == "\n    " else "\n  ]")
    for key, value in trailer().items():
        text = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
        out.write(f",\n  {json.dumps(key)}: {text}")
    out.write("\n}\n")


def write_yaml(
    out: TextIO, items: Iterable[dict[str, Any]], trailer: Callable[[], dict[str, Any]]
) -> None:
    """The same document as YAML, item by item: the text `render.dump` gives for
    `{"items": [...], ...trailer}`, without holding every item."""
    import yaml

    options = {
        "Dumper": yaml_dumper(),
        "sort_keys": False,
        "allow_unicode": True,
        "width": 1_000_000,
    }
    empty = True
    for item in items:
        if empty:
            out.write("items:\n")
            empty = False
        out.write(yaml.dump([item], **options))
    if empty:
        out.write(yaml.dump({"items": []}, **options))
    out.write(yaml.dump(trailer(), **options))


WRITERS = {"json": write_json, "yaml": write_yaml}


# What the table says after a finding the baseline knows.
KNOWN_NOTE = KNOWN
PROBLEM_WORDS = {DENIED: "denied", NO_RUNTIME: "no runtime", RUN_FAILURE: "fails at run time"}
_NOTHING = "-"


def _mode(resolution: Resolution | None) -> str:
    if resolution is None:
        return _NOTHING
    return f"{resolution.mode} ({resolution.source_label})"


def _runtime(item: Audited) -> str:
    runtime = item.outcome.runtime
    if runtime is None:
        return _NOTHING
    return runtime.name + (" (named)" if item.outcome.named else "")


def _components(policy: Policy, outcomes: list[Any]) -> list[str]:
    """The components any InferenceService declares, in reconcile order."""
    seen = {name for outcome in outcomes for name in outcome.components}
    return [c.name for c in policy.components if c.name in seen]


def _problem_lines(item: Audited) -> list[str]:
    """What OME says about each problem; a denial already quotes the no-runtime
    message, so that is said once."""
    outcome = item.outcome
    lines = []
    if DENIED in item.problems:
        lines.append(f"{PROBLEM_WORDS[DENIED]}: {outcome.admission.message}")
    elif NO_RUNTIME in item.problems:
        lines.append(f"{PROBLEM_WORDS[NO_RUNTIME]}: {outcome.message or outcome.result}")
    word = PROBLEM_WORDS[RUN_FAILURE]
    lines.extend(
        f"{word}: {name}: {logged(error, outcome.reconcile_logs.get(name))}"
        for name, error in outcome.reconcile.items()
    )
    return lines


def write_audit(
    policy: Policy,
    items: list[Audited],
    summary: AuditSummary,
    out: TextIO,
    *,
    manifest_known: Sequence[Finding] = (),
    manifest_suppressed: Sequence[Suppressed] = (),
    fixed: Sequence[BaselineEntry] = (),
    headers: bool = True,
    verbose: bool = False,
) -> None:
    """The table (one row per InferenceService), then each finding at its place
    (those the baseline knows marked so; `verbose`: those suppressed too, with
    why), then the baseline's fixed entries (`verbose`), then the summary line."""
    components = _components(policy, [i.outcome for i in items])
    rows = []
    for item in items:
        rows.append(
            [
                item.isvc.namespace,
                item.isvc.name,
                _runtime(item),
                *(_mode(item.outcome.components.get(c)) for c in components),
                _findings_cell(item) or _NOTHING,
            ]
        )
    names = ["NAMESPACE", "NAME", "RUNTIME", *(c.upper() for c in components), "FINDINGS"]
    if rows:
        out.write(table(names, rows, headers_shown=headers))
    troubled = [i for i in items if i.findings or i.known or (verbose and i.suppressed)]
    if troubled:
        out.write("\nFindings:\n")
        for item in troubled:
            out.write(line(f"  {item.isvc.ref}:"))
            changes = {d.message: d.changes for d in item.deprecations}
            for finding, note in _listed(item.findings, item.known, item.suppressed, verbose):
                out.writelines(line(f"    {text}") for text in finding_lines(finding, note))
                # What the move to the replacement changes, under the deprecation.
                for change in changes.get(finding.message, ()):
                    out.write(line(f"        {change.message}"))
    listed = _listed(summary.manifest_findings, manifest_known, manifest_suppressed, verbose)
    if listed:
        out.write("\nManifests:\n")
        for finding, note in listed:
            out.writelines(line(f"  {text}") for text in finding_lines(finding, note))
    if verbose and fixed:
        out.write("\nFixed (in the baseline, no longer found):\n")
        for entry in fixed:
            about = entry.subject or entry.object
            out.write(line(f"  {about}: {entry.severity}: {entry.message} [{entry.id}]"))
    out.write("\n" + audit_summary_line(summary) + "\n")


def _listed(
    findings: Sequence[Finding],
    known: Sequence[Finding],
    suppressed: Sequence[Suppressed],
    verbose: bool,
) -> list[tuple[Finding, str | None]]:
    """(finding, what the table says of it) in the order listed: those that
    count, those the baseline knows, and (`verbose`) those suppressed."""
    found: list[tuple[Finding, str | None]] = [(f, None) for f in findings]
    found += [(f, KNOWN_NOTE) for f in known]
    if verbose:
        found += [(s.finding, suppressed_note(s)) for s in suppressed]
    return found


def suppressed_note(suppressed: Suppressed) -> str:
    """`suppressed by FILE:LINE:COL: reason`, or `suppressed by --ignore ID`."""
    return str(suppressed.ignore.waiver)


def _findings_cell(item: Audited) -> str:
    """`1 error, 1 known, 2 suppressed`: those that count by severity, then the others."""
    parts = [severity_counts(item.findings)] if item.findings else []
    parts += [f"{len(item.known)} known"] if item.known else []
    parts += [f"{len(item.suppressed)} suppressed"] if item.suppressed else []
    return ", ".join(parts)


def finding_lines(finding: Finding, note: str | None = None) -> list[str]:
    """`FILE:LINE:COL: SEVERITY: message [id]` (then ` (note)`), then the other
    objects' places it involves and the hint, when there are."""
    said = f" ({note})" if note else ""
    lines = [f"{finding.location}: {finding.severity}: {finding.message} [{finding.id}]{said}"]
    if finding.related:
        lines.append(f"    {finding.see_also}")
    if finding.hint:
        lines.append(f"    {finding.hint}")
    return lines


def severity_counts(findings: Sequence[Finding]) -> str:
    """`1 error, 2 warnings`: the findings counted by severity, most severe first."""
    tally = counts(findings)
    return ", ".join(_count(n, s) for s, n in tally.items() if n)


def _count(number: int, severity: str) -> str:
    word = severity if number == 1 or severity == Severity.INFO else f"{severity}s"
    return f"{number} {word}"


def audit_summary_line(summary: AuditSummary) -> str:
    """`4 InferenceServices (v1.3): 1 ok, 2 with errors, 1 with warnings; findings: ...`."""
    graded = summary.severity
    parts = [f"{summary.ok} ok"] + [f"{n} with {_plural(s, n)}" for s, n in graded.items()]
    found = ", ".join(_count(n, s) for s, n in summary.findings.items())
    text = (
        f"{counted(summary.isvcs, 'InferenceService')} ({summary.policy.release}): "
        + ", ".join(parts)
        + f"; findings: {found}"
    )
    suppressed = ", ".join(_count(n, s) for s, n in summary.suppressed.items() if n)
    if suppressed:
        text += f"; suppressed: {suppressed}"
    if summary.fixed is not None:  # a baseline was read
        text += f"; baseline: {sum(summary.known.values())} known, {summary.fixed} fixed"
    return text


def _plural(severity: str, number: int) -> str:
    """`errors` (the InferenceServices whose most severe finding is an error)."""
    return severity if severity == Severity.INFO else f"{severity}s"


def write_upgrade(before: Policy, after: Policy, impacts: list[Impact], out: TextIO) -> None:
    """The InferenceServices that change, a row each, then what changes for each;
    first the counts (those of the JSON's `summary`)."""
    changed = [i for i in impacts if i.changed]
    components = _components(
        after, [o for i in impacts for o in (i.before.outcome, i.after.outcome)]
    )
    rows = []
    for impact in changed:
        by_name = {c.component: c for c in impact.components}
        rows.append(
            [
                impact.isvc.namespace,
                impact.isvc.name,
                _arrow(_runtime(impact.before), _runtime(impact.after)),
                *(_component_cell(by_name.get(c)) for c in components),
                "breaking" if impact.breaking else _NOTHING,
            ]
        )
    headers = ["NAMESPACE", "NAME", "RUNTIME", *(c.upper() for c in components), "IMPACT"]
    unchanged = len(impacts) - len(changed)
    stay = "stays as it is" if unchanged == 1 else "stay as they are"
    breaking = sum(i.breaking for i in impacts)
    out.write(
        f"Upgrade {before.release} -> {after.release}: "
        f"{counted(len(impacts), 'InferenceService')}, "
        f"{len(changed)} change ({breaking} breaking), "
        f"{unchanged} {stay}.\n"
    )
    if rows:
        out.write("\n" + table(headers, rows))
    for impact in changed:
        lines = _impact_lines(impact)
        if lines:
            out.write("\n" + line(f"{impact.isvc.ref}:"))
            out.writelines(line(f"  {text}") for text in lines)


def _arrow(before: str, after: str) -> str:
    return before if before == after else f"{before} -> {after}"


def _component_cell(impact: Any) -> str:
    if impact is None:
        return _NOTHING
    before = impact.before.mode if impact.before else _NOTHING
    after = impact.after.mode if impact.after else _NOTHING
    return _arrow(before, after)


def _impact_lines(impact: Impact) -> list[str]:
    lines = list(impact.runtime_why)
    for component in impact.components:
        if not component.changed:
            continue
        lines.append(
            f"{component.component}: {_arrow(_mode(component.before), _mode(component.after))}"
        )
        lines.extend(f"  {text}" for text in (*component.why, *component.notes))
        lines.extend(f"  {change.message}" for change in component.changes)
    if impact.new_problems:
        lines.extend(f"new: {line}" for line in _problem_lines(impact.after))
    for problem in impact.fixed_problems:
        lines.append(f"fixed: {PROBLEM_WORDS[problem]}")
    return lines
