"""The generated regions, each rendered from the rules in force in one version.

Every renderer takes a `Policy` and returns Markdown. What they say comes from
the rules (modes, sources, the matching table, messages); how it reads comes
from the rules' `docs` section. A region's text changes when, and only when,
the data behind it changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from modetable import paths
from modetable.docs.markdown import bullets, code, table, words
from modetable.errors import Location, ModetableError
from modetable.matching import NONE, decide
from modetable.rules.model import Component, Docs, Effect, Selection, Source, SourceDocs
from modetable.rules.policy import Policy
from modetable.templates import fill
from modetable.versions import describe_range, in_force, parse_version

Renderer = Callable[[Policy], str]

# What each hit policy promises, in the words of decision tables (DMN).
HIT_POLICIES = {
    "UNIQUE": "exactly one row matches any pair of inputs",
    "FIRST": "the first row that matches decides",
    "ANY": "every row that matches gives the same result",
}
# When a component is compared, by its `compared` value ({path}: where it is declared).
COMPARED = {
    "always": "always",
    "when_declared": "only when the InferenceService declares it ({path})",
    "never": "never",
}
# What a running-mode source's effect does beyond giving a mode.
EFFECTS = {"no_workload": "(then no component gets a workload)"}


def docs_of(policy: Policy) -> Docs:
    if policy.rules.docs is None:
        raise ModetableError("the rules file has no docs: section to render from", _where(policy))
    return policy.rules.docs


def _where(policy: Policy) -> Location:
    return Location(policy.file)


def gate(policy: Policy, since: str | None, until: str | None) -> str | None:
    """`since v1.3` for a gate worth saying; None when it holds in every listed version."""
    oldest = min(policy.rules.versions, key=parse_version)
    if since is not None and parse_version(since) <= parse_version(oldest):
        since = None
    if since is None and until is None:
        return None
    return describe_range(since, until)


class Modes:
    """Mode values as table cells: a status note follows a mode's first mention."""

    def __init__(self, policy: Policy, *, notes: bool = True) -> None:
        self.policy = policy
        self.docs = docs_of(policy)
        self.notes = notes
        self.seen: set[str] = set()

    def __call__(self, name: str | None) -> str:
        if name is None:
            return self.docs.none
        text = fill(self.docs.mode, {"mode": name})
        if self.notes and name not in self.seen:
            self.seen.add(name)
            mode = self.policy.all_modes.get(name)
            note = self.docs.status_notes.get(mode.status) if mode else None
            if note:
                text = f"{text} {note}"
        return text


def _display_values(policy: Policy) -> dict[str, str]:
    """Placeholders as the docs write them when speaking of any component."""
    return {**docs_of(policy).placeholders, "annotation_key": policy.rules.annotation_key}


def _display_path(policy: Policy, template: str) -> str:
    return code(paths.render(paths.split(fill(template, _display_values(policy)))))


def _range_note(policy: Policy, since: str | None, until: str | None) -> str:
    said = gate(policy, since, until)
    return f" {fill(docs_of(policy).range_note, {'range': said})}" if said else ""


# --- the matching table (the page's examples) ------------------------------------------


def _input(value: str) -> str | None:
    return None if value == NONE else value


def matching_table(policy: Policy) -> str:
    """The examples of the rule (`matching.examples`), each decided by the rows in force."""
    docs = docs_of(policy)
    component = _component(policy, docs.matching_table.component)
    values = policy.placeholder_values(component)
    inputs = policy.rules.matching.inputs
    headers = [
        fill(inputs["requested"], values),
        fill(inputs["declared"], values),
        docs.matching_table.result,
    ]
    mode = Modes(policy)
    rows = []
    for example in policy.rules.matching.examples:
        requested, declared = _input(example.requested), _input(example.declared)
        if not in_force(example.since, example.until, policy.version):
            continue
        if any(v is not None and v not in policy.modes for v in (requested, declared)):
            continue  # a value that is no mode in this version: the example did not exist
        row = decide(policy, requested, declared)
        outcome = policy.rules.matching.outcomes[row.outcome]
        rows.append([mode(requested), mode(declared), outcome])
    return table(headers, rows)


def _component(policy: Policy, name: str) -> Component:
    try:
        return policy.component[name]
    except KeyError:
        raise ModetableError(
            f"docs names the component {name!r}, which the rules do not define", _where(policy)
        ) from None


def compared_components(policy: Policy) -> str:
    """Which components the rule compares, and when."""
    items = []
    for component in policy.components:
        declared_at = policy.component_path(component, policy.rules.running_merge.into)
        when = COMPARED[component.compared].format(path=code(paths.render(declared_at)))
        items.append(f"{code(component.name)}: {when}")
    return bullets(items)


def matching_rows(policy: Policy) -> str:
    """The decision table itself: the rows in force, their conditions and reasons."""
    docs = docs_of(policy)
    matching = policy.rules.matching
    values = policy.placeholder_values(_component(policy, docs.matching_table.component))
    mode = Modes(policy, notes=False)

    def condition(value: str | tuple[str, ...]) -> str:
        if isinstance(value, tuple):
            return words([mode(v) for v in value], "or")
        return docs.conditions.get(value, mode(value))

    headers = [
        "Row",
        fill(matching.inputs["requested"], values),
        fill(matching.inputs["declared"], values),
        docs.matching_table.result,
        "Reason",
    ]
    rows = [
        [
            code(row.id) + _range_note(policy, row.since, row.until),
            condition(row.requested),
            condition(row.declared),
            matching.outcomes[row.outcome],
            code(policy.rules.messages[row.message].text) if row.message else "",
        ]
        for row in policy.rows
    ]
    meaning = HIT_POLICIES.get(matching.hit_policy, "")
    return table(headers, rows) + f"\nHit policy {code(matching.hit_policy)}: {meaning}.\n"


def mismatch_message(policy: Policy) -> str:
    """A rejection's reason: its format, and the first rejecting example filled in."""
    docs = docs_of(policy)
    component = _component(policy, docs.matching_table.component)
    for example in policy.rules.matching.examples:
        requested, declared = _input(example.requested), _input(example.declared)
        if not in_force(example.since, example.until, policy.version):
            continue
        if any(v is not None and v not in policy.modes for v in (requested, declared)):
            continue
        row = decide(policy, requested, declared)
        if row.message is None:
            continue
        template = policy.rules.messages[row.message].text
        filled = policy.message(
            row.message,
            component=component.name,
            runtime_mode=declared or "",
            isvc_mode=requested or "",
        )
        return f"```text\n{filled}\n```\n\nIts format: {code(template)}.\n"
    return "No example in this version is rejected.\n"


# --- where each side declares a mode ---------------------------------------------------


def _compared(policy: Policy, source: Source) -> list[Component]:
    return [
        c
        for c in policy.components
        if c.compared != "never" and (source.components is None or c.name in source.components)
    ]


def _labels(
    policy: Policy, source: Source, components: Sequence[Component], *, notes: bool = True
) -> list[str]:
    """How the table names the source, per component (duplicates removed)."""
    shown = source.docs or SourceDocs()
    labels: list[str] = []
    for component in components or [None]:
        values = policy.placeholder_values(component) if component else _display_values(policy)
        if shown.where is not None:
            label = fill(shown.where, values)
        elif source.path is not None:
            label = code(paths.render(paths.expand(source.path, values)))
        else:
            label = words(
                [code(paths.render(paths.expand(p, values))) for p in source.present], "or"
            )
        if notes and shown.range_note:
            label += _range_note(policy, source.since, source.until)
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
    if source.counts != "always":
        return docs.counts[source.counts]
    parts = [docs.counts["always"]]
    if component is not None:
        parts.append(fill(docs.for_component, {"component": component.name}))
    ahead = [
        label
        for other in later
        if other.counts == "always"
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
    for name, entry in policy.modes.items():
        status = entry.status
        if entry.replacement and entry.replacement in policy.modes:
            status += f", use {mode(entry.replacement)}"
        rows.append([mode(name), status, describe_range(entry.since, entry.until), entry.doc])
    text = table(["Value", "Status", "Valid", "What it is"], rows)
    gone = [
        f"{mode(m.name)} ({describe_range(m.since, m.until)})"
        for m in policy.rules.modes
        if m.name not in policy.modes
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
        text += " " + EFFECTS.get(source.effect, source.effect)
    return text


def _reads(policy: Policy, source: Source) -> str:
    objects = docs_of(policy).objects
    where = objects.get(source.object, source.object) if source.object else ""
    if source.path is not None:
        return f"{where}: {_display_path(policy, source.path)}"
    if source.present:
        shown = words([_display_path(policy, p) for p in source.present], "or")
        return f"{where}: {shown} is set"
    return ""


def running_order(policy: Policy) -> str:
    """The order in which a component's running mode is resolved; the first source wins."""
    merge = policy.rules.running_merge
    intro = (
        f"First the runtime's {_display_path(policy, merge.source)} is merged into each "
        f"{_display_path(policy, merge.into)} the InferenceService declares (its own keys "
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


# --- where a rejection shows up ----------------------------------------------------------


def rejection_table(policy: Policy) -> str:
    """Where a rejection shows up: what the owner of an InferenceService sees."""
    rejection = docs_of(policy).rejection_table
    rows = []
    for row in rejection.rows:
        if not in_force(row.since, row.until, policy.version):
            continue
        sentences = []
        for sentence in row.shows:
            if not in_force(sentence.since, sentence.until, policy.version):
                continue
            said = describe_range(sentence.since, sentence.until)
            sentences.append(
                fill(sentence.text, {"range": said, "Range": said[:1].upper() + said[1:]})
            )
        rows.append([row.when, " ".join(sentences)])
    return table(rejection.headers, rows)


# --- the selection checks ----------------------------------------------------------------

# What a check's flags mean for where its failure shows (see `selection.checks`).
CHECK_NOTES = {
    "unlisted": "counted in the no-runtime message, not listed there",
    "auto_only": "auto-selection only; a named runtime is not checked",
    "empty_slot": "a named runtime's warning leaves the model's format out (`model : ...`)",
}


def _selection(policy: Policy) -> Selection:
    selection = policy.rules.selection
    if selection is None:
        raise ModetableError("the rules file has no selection: section to render", _where(policy))
    return selection


def selection_checks(policy: Policy) -> str:
    """The checks OME runs on each runtime, in order, with the reason each failure gives."""
    docs = docs_of(policy)
    rows = []
    checks = [c for c in _selection(policy).checks if in_force(c.since, c.until, policy.version)]
    for number, check in enumerate(checks, 1):
        label = docs.selection_checks.get(check.id, code(check.id))
        if check.message is not None:
            reasons = [policy.rules.messages[check.message].text]
        else:  # the deployment-mode check: the reasons of the matching table's rows
            reasons = [policy.rules.messages[r.message].text for r in policy.rows if r.message]
        notes = []
        if not check.listed:
            notes.append(CHECK_NOTES["unlisted"])
        if check.auto_only:
            notes.append(CHECK_NOTES["auto_only"])
        if check.model_slot == "empty":
            notes.append(CHECK_NOTES["empty_slot"])
        rows.append(
            [
                str(number),
                label + _range_note(policy, check.since, check.until),
                "\n".join(code(reason) for reason in reasons),
                "; ".join(notes),
            ]
        )
    intro = "The first check a runtime fails gives its reason.\n\n"
    return intro + table(["#", "Check", "Reason when it fails", "Notes"], rows)


def _effect(policy: Policy, effect: Effect) -> str:
    docs = docs_of(policy)
    text = policy.rules.messages[effect.message].text if effect.message else None
    if effect.emit == "condition":
        shown = f"condition {code(effect.type or '')} {code(effect.status or '')}"
        shown += f", reason {code(effect.reason or '')}"
    elif effect.emit == "event":
        shown = f"{effect.type} event, reason {code(effect.reason or '')}"
    elif effect.emit == "denial":
        shown = f"denied ({effect.stage})"
    else:
        shown = effect.emit
    if text is not None:
        shown += f": {code(text)}"
    if effect.when:
        conditions = [docs.effect_conditions.get(w, code(w)) for w in effect.when]
        shown += f", when {words(conditions, 'and')}"
    return shown + _range_note(policy, effect.since, effect.until)


def selection_outcomes(policy: Policy) -> str:
    """What OME shows for each outcome of selection, in this version."""
    docs = docs_of(policy)
    outcomes = _selection(policy).outcomes
    rows = []
    for outcome, label in docs.selection_outcomes.items():
        effects = [
            _effect(policy, e)
            for e in outcomes.get(outcome, ())
            if in_force(e.since, e.until, policy.version)
        ]
        rows.append([label, "\n".join(effects) if effects else "nothing"])
    return table(["Outcome", "What OME shows"], rows)


def region_list(policy: Policy) -> str:
    """The regions a page can hold, each with what it renders."""
    items = []
    for name, renderer in REGIONS.items():
        summary = (renderer.__doc__ or "").strip().splitlines()[0]
        items.append(f"{code(name)}: {summary}")
    return bullets(items)


REGIONS: dict[str, Renderer] = {
    "compared-components": compared_components,
    "matching-table": matching_table,
    "matching-rows": matching_rows,
    "mismatch-message": mismatch_message,
    "declaration-table": declaration_table,
    "valid-modes": valid_modes,
    "running-order": running_order,
    "rejection-table": rejection_table,
    "selection-checks": selection_checks,
    "selection-outcomes": selection_outcomes,
    "regions": region_list,
}
