"""The audit and the upgrade impact for people: a table, then what needs a look."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from modetable.audit.fleet import DENIED, NO_RUNTIME, RUN_FAILURE, Audited
from modetable.audit.upgrade import Impact
from modetable.modes import Resolution
from modetable.render import table
from modetable.rules.policy import Policy

__all__ = [
    "DEPRECATED_WORD",
    "PROBLEM_WORDS",
    "WRITERS",
    "write_audit",
    "write_json",
    "write_upgrade",
    "write_yaml",
]


def write_json(
    out: TextIO,
    items: Iterable[dict[str, Any]],
    summary: Callable[[], dict[str, Any]],
    rules: dict[str, Any] | None = None,
) -> None:
    """`{"items": [...], "summary": {...}, "rules": {...}}`, an item per line as it
    comes, so a fleet's items are never all held at once; `summary` is asked for last."""
    out.write('{\n  "items": [')
    separator = "\n    "
    for item in items:
        out.write(separator + json.dumps(item, ensure_ascii=False))
        separator = ",\n    "
    out.write("]" if separator == "\n    " else "\n  ]")
    text = json.dumps(summary(), indent=2, ensure_ascii=False).replace("\n", "\n  ")
    out.write(f',\n  "summary": {text}')
    if rules is not None:
        out.write(f',\n  "rules": {json.dumps(rules, ensure_ascii=False)}')
    out.write("\n}\n")


def write_yaml(
    out: TextIO,
    items: Iterable[dict[str, Any]],
    summary: Callable[[], dict[str, Any]],
    rules: dict[str, Any] | None = None,
) -> None:
    """The same document as YAML, item by item: the text `render.dump` gives for
    `{"items": [...], "summary": {...}}`, without holding every item."""
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    options = {"Dumper": dumper, "sort_keys": False, "allow_unicode": True, "width": 1_000_000}
    empty = True
    for item in items:
        if empty:
            out.write("items:\n")
            empty = False
        out.write(yaml.dump([item], **options))
    if empty:
        out.write(yaml.dump({"items": []}, **options))
    out.write(yaml.dump({"summary": summary()}, **options))
    if rules is not None:
        out.write(yaml.dump({"rules": rules}, **options))


WRITERS = {"json": write_json, "yaml": write_yaml}


PROBLEM_WORDS = {DENIED: "denied", NO_RUNTIME: "no runtime", RUN_FAILURE: "fails at run time"}
DEPRECATED_WORD = "deprecated"
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
    lines.extend(f"{word}: {name}: {error}" for name, error in outcome.reconcile.items())
    return lines


def write_audit(policy: Policy, items: list[Audited], summary: dict[str, Any], out: TextIO) -> None:
    components = _components(policy, [i.outcome for i in items])
    rows = []
    for item in items:
        flags = [PROBLEM_WORDS[p] for p in item.problems]
        if item.deprecations:
            flags.append(DEPRECATED_WORD)
        rows.append(
            [
                item.isvc.namespace,
                item.isvc.name,
                _runtime(item),
                *(_mode(item.outcome.components.get(c)) for c in components),
                ", ".join(flags) or _NOTHING,
            ]
        )
    headers = ["NAMESPACE", "NAME", "RUNTIME", *(c.upper() for c in components), "PROBLEMS"]
    if rows:
        out.write(table(headers, rows))
    troubled = [i for i in items if i.problems]
    if troubled:
        out.write("\nProblems:\n")
        for item in troubled:
            for line in _problem_lines(item):
                out.write(f"  {item.isvc.ref}: {line}\n")
    deprecated = [i for i in items if i.deprecations]
    if deprecated:
        out.write("\nDeprecations:\n")
        for item in deprecated:
            for deprecation in item.deprecations:
                out.write(f"  {item.isvc.ref}: {deprecation.message}\n")
                for change in deprecation.changes:
                    out.write(f"    {change.message}\n")
    out.write("\n" + _audit_summary_line(summary) + "\n")


def _audit_summary_line(summary: dict[str, Any]) -> str:
    parts = [f"{summary['ok']} ok"]
    parts += [f"{summary[p]} {PROBLEM_WORDS[p]}" for p in (DENIED, NO_RUNTIME, RUN_FAILURE)]
    return (
        f"{summary['isvcs']} InferenceServices ({summary['version']}): "
        + ", ".join(parts)
        + f"; {summary['deprecated']} run a {DEPRECATED_WORD} mode"
    )


def write_upgrade(
    policy: Policy, impacts: list[Impact], summary: dict[str, Any], out: TextIO
) -> None:
    changed = [i for i in impacts if i.changed]
    components = _components(
        policy, [o for i in impacts for o in (i.before.outcome, i.after.outcome)]
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
    out.write(
        f"Upgrade {summary['from']} -> {summary['to']}: {summary['isvcs']} InferenceServices, "
        f"{summary['changed']} change ({summary['breaking']} breaking), "
        f"{summary['unchanged']} stay as they are.\n"
    )
    if rows:
        out.write("\n" + table(headers, rows))
    for impact in changed:
        lines = _impact_lines(impact)
        if lines:
            out.write(f"\n{impact.isvc.ref}:\n")
            out.writelines(f"  {line}\n" for line in lines)


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
