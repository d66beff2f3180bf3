"""The regions about sources and modes: where each side declares a mode, the valid
values, and the order in which a component's running mode is resolved."""

from __future__ import annotations

from collections.abc import Sequence

from modetable.docs.common import (
    Modes,
    display_path,
    display_values,
    docs_of,
    range_note,
)
from modetable.output.markdown import code, table, words
from modetable.parsing import paths
from modetable.rules.model.modes import Component
from modetable.rules.model.sources import Source, SourceDocs
from modetable.rules.policy import Policy
from modetable.rules.words import Compared, Counts
from modetable.text.templates import fill
from modetable.versions import describe_range, in_force

__all__ = ["declaration_table", "running_order", "valid_modes"]

_EFFECTS = {"no_workload": "(then no component gets a workload)"}


# --- where each side declares a mode ---------------------------------------------------


def _compared(policy: Policy, source: Source) -> list[Component]:
    return [
        c
        for c in policy.components
        if c.compared != Compared.NEVER
        and (source.components is None or c.name in source.components)
    ]


def _labels(
    policy: Policy, source: Source, components: Sequence[Component], *, notes: bool = True
) -> list[str]:
    """How the table names the source, per component (duplicates removed)."""
    shown = source.docs or SourceDocs()
    labels: list[str] = []
    for component in components or [None]:
        values = policy.placeholder_values(component) if component else display_values(policy)
        if shown.where is not None:
            label = fill(shown.where, values)
        elif source.path is not None:
            label = code(paths.render(paths.expand(source.path, values)))
        else:
            label = words(
                [code(paths.render(paths.expand(p, values))) for p in source.present], "or"
            )
        if notes and shown.range_note:
            label += range_note(policy, source.since, source.until)
        if label not in labels:
            labels.append(label)
    return labels


def _counts(
    policy: Policy, source: Source, later: Sequence[Source], component: Component | None
) -> str:
    docs = docs_of(policy).declaration_table
    shown = source.docs or SourceDocs()
    if shown.counts is not None:
        accepts = words(
            [fill(docs_of(policy).mode, {"mode": m}) for m in source.accepts or ()], "or"
        )
        return fill(shown.counts, {"accepts": accepts})
    if source.counts != Counts.ALWAYS:
        return docs.counts[source.counts]
    parts = [docs.counts["always"]]
    if component is not None:
        parts.append(fill(docs.for_component, {"component": component.name}))
    ahead = [
        label
        for other in later
        if other.counts == Counts.ALWAYS
        for label in _labels(policy, other, _compared(policy, other), notes=False)
    ]
    if ahead:
        parts.append(fill(docs.ahead_of, {"sources": words(ahead, "and")}))
    return ", ".join(parts)


def declaration_table(policy: Policy) -> str:
    """Where each side declares a mode and whether it counts, in precedence order."""
    table_docs = docs_of(policy).declaration_table
    rows: list[list[str]] = []
    for side in table_docs.sides:
        sources = [
            s
            for s in getattr(policy.rules.sources, side.purpose)
            if in_force(s.since, s.until, policy.version)
        ]
        side_rows: list[tuple[list[str], str]] = []
        for index, source in enumerate(sources):
            components = _compared(policy, source)
            later = sources[index + 1 :]
            if source.docs is not None and source.docs.per_component:
                for component in components:
                    labels = _labels(policy, source, [component])
                    side_rows.append((labels, _counts(policy, source, later, component)))
            else:
                side_rows.append(
                    (_labels(policy, source, components), _counts(policy, source, later, None))
                )
        merged: list[tuple[list[str], str]] = []
        for labels, counts in side_rows:
            if merged and merged[-1][1] == counts:
                merged[-1][0].extend(labels)
            else:
                merged.append((list(labels), counts))
        rows.extend([f"{side.label}: {words(labels, 'or')}", counts] for labels, counts in merged)
    return table(table_docs.headers, rows)


# --- valid modes -------------------------------------------------------------------------


def valid_modes(policy: Policy) -> str:
    """The values that count as a mode in this version, with status and versions."""
    mode = Modes(policy, notes=False)
    rows = []
    for name, entry in policy.modes_in_force.items():
        status = entry.status
        if entry.replacement and entry.replacement in policy.modes_in_force:
            status += f", use {mode(entry.replacement)}"
        rows.append([mode(name), status, describe_range(entry.since, entry.until), entry.doc])
    text = table(["Value", "Status", "Valid", "What it is"], rows)
    gone = [
        f"{mode(m.name)} ({describe_range(m.since, m.until)})"
        for m in policy.rules.modes
        if m.name not in policy.modes_in_force
    ]
    if gone:
        text += f"\nNot valid in {policy.version}, so read as no mode: {words(gone, 'and')}.\n"
    return text


# --- the running mode --------------------------------------------------------------------


def _gives(policy: Policy, source: Source) -> str:
    mode = Modes(policy, notes=False)
    if source.gives is not None and source.path is None:
        text = mode(source.gives)
    elif source.accepts is not None:
        text = "its value, if " + words([mode(m) for m in source.accepts], "or")
    else:
        text = "its value, if a valid mode"
    if source.effect is not None:
        text += " " + _EFFECTS.get(source.effect, source.effect)
    return text


def _reads(policy: Policy, source: Source) -> str:
    objects = docs_of(policy).objects
    where = objects.get(source.object, source.object) if source.object else ""
    if source.path is not None:
        return f"{where}: {display_path(policy, source.path)}"
    if source.present:
        shown = words([display_path(policy, p) for p in source.present], "or")
        return f"{where}: {shown} is set"
    return ""


def running_order(policy: Policy) -> str:
    """The order in which a component's running mode is resolved; the first source wins."""
    merge = policy.rules.running_merge
    intro = (
        f"First the runtime's {display_path(policy, merge.source)} is merged into each "
        f"{display_path(policy, merge.into)} the InferenceService declares (its own keys "
        "win; a component it does not declare is not created). Then the first of these "
        "sources that gives a mode decides:\n\n"
    )
    rows = []
    sources = [
        s for s in policy.rules.sources.running if in_force(s.since, s.until, policy.version)
    ]
    for number, source in enumerate(sources, 1):
        components = words(list(source.components), "and") if source.components else "all"
        rows.append(
            [
                str(number),
                code(source.label),
                _reads(policy, source),
                _gives(policy, source),
                components,
            ]
        )
    return intro + table(["#", "Source", "Reads", "Gives", "Components"], rows)
