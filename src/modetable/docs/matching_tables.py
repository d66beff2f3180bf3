"""The regions about the matching rule: compared components, examples, rows, reason."""

from __future__ import annotations

from modetable.docs.common import (
    Modes,
    component_named,
    docs_of,
    range_note,
)
from modetable.engine.matching import decide
from modetable.html.matrix import matrix_html, policies_by_version
from modetable.output.markdown import bullets, code, table, words
from modetable.parsing import paths
from modetable.rules.policy import Policy
from modetable.rules.words import Compared, ConditionWord, HitPolicy, MatchInput
from modetable.text.templates import fill
from modetable.versions import in_force

__all__ = [
    "compared_components",
    "matching_matrix",
    "matching_rows",
    "matching_table",
    "mismatch_message",
]

_HIT_POLICIES = {
    HitPolicy.UNIQUE: "exactly one row matches any pair of inputs",
    HitPolicy.FIRST: "the first row that matches decides",
    HitPolicy.ANY: "every row that matches gives the same result",
}
# When a component is compared, by its `compared` value ({path}: where it is declared).
_COMPARED = {
    Compared.ALWAYS: "always",
    Compared.WHEN_DECLARED: "only when the InferenceService declares it ({path})",
    Compared.NEVER: "never",
}
# What a running-mode source's effect does beyond giving a mode.

# --- the matching table (the page's examples) ------------------------------------------


def _input(value: str) -> str | None:
    return None if value == ConditionWord.NONE else value


def matching_table(policy: Policy) -> str:
    """The examples of the rule (`matching.examples`, but those kept off the docs with
    `docs: false`), each decided by the rows in force."""
    docs = docs_of(policy)
    component = component_named(policy, docs.matching_table.component)
    values = policy.placeholder_values(component)
    inputs = policy.rules.matching.inputs
    headers = [
        fill(inputs[MatchInput.REQUESTED], values),
        fill(inputs[MatchInput.DECLARED], values),
        docs.matching_table.result,
    ]
    mode = Modes(policy)
    rows = []
    for example in policy.rules.matching.examples:
        requested, declared = _input(example.requested), _input(example.declared)
        if not example.docs or not in_force(example.since, example.until, policy.version):
            continue
        if any(v is not None and v not in policy.modes_in_force for v in (requested, declared)):
            continue  # a value that is no mode in this version: the example did not exist
        row = decide(policy, requested, declared)
        outcome = policy.rules.matching.outcomes[row.outcome]
        rows.append([mode(requested), mode(declared), outcome])
    return table(headers, rows)


def compared_components(policy: Policy) -> str:
    """Which components the rule compares, and when."""
    items = []
    for component in policy.components:
        declared_at = policy.component_path(component, policy.rules.running_merge.into)
        when = _COMPARED[component.compared].format(path=code(paths.render(declared_at)))
        items.append(f"{code(component.name)}: {when}")
    return bullets(items)


def matching_rows(policy: Policy) -> str:
    """The decision table itself: the rows in force, their words, conditions and reasons."""
    docs = docs_of(policy)
    matching = policy.rules.matching
    values = policy.placeholder_values(component_named(policy, docs.matching_table.component))
    mode = Modes(policy, notes=False)

    def condition(value: str | tuple[str, ...]) -> str:
        if isinstance(value, tuple):
            return words([mode(v) for v in value], "or")
        return docs.conditions.get(value, mode(value))

    # The rows' words, what the commands' text says decided, beside their ids.
    said = any(row.words for row in policy.rows)
    headers = [
        "Row",
        *(["In words"] if said else []),
        fill(matching.inputs["requested"], values),
        fill(matching.inputs["declared"], values),
        docs.matching_table.result,
        "Reason",
    ]
    rows = [
        [
            code(row.id) + range_note(policy, row.since, row.until),
            *([row.words or ""] if said else []),
            condition(row.requested),
            condition(row.declared),
            matching.outcomes[row.outcome],
            code(policy.rules.messages[row.message].text) if row.message else "",
        ]
        for row in policy.rows
    ]
    meaning = _HIT_POLICIES.get(matching.hit_policy, "")
    return table(headers, rows) + f"\nHit policy {code(matching.hit_policy)}: {meaning}.\n"


def matching_matrix(policy: Policy) -> str:
    """The table as a picture (HTML): every pair of modes decided, a matrix per version."""
    docs_of(policy)  # the words around the rules are the docs section's
    return "\n".join(matrix_html(each, inline_style=True) for each in policies_by_version(policy))


def mismatch_message(policy: Policy) -> str:
    """A rejection's reason: its format, and the first rejecting example filled in."""
    docs = docs_of(policy)
    component = component_named(policy, docs.matching_table.component)
    for example in policy.rules.matching.examples:
        requested, declared = _input(example.requested), _input(example.declared)
        if not example.docs or not in_force(example.since, example.until, policy.version):
            continue
        if any(v is not None and v not in policy.modes_in_force for v in (requested, declared)):
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
