"""The rules file's examples, run as tests against the engine.

Each example names the outcome and the rule that must give it (a row of the
matching table, or the source that decides a mode), so the right answer from
the wrong rule fails.
"""

from __future__ import annotations

from modetable.authoring.scenarios import NAMED, PRESENT, resolve_values, source_slot
from modetable.engine.matching import decide
from modetable.errors import Location, ModetableError
from modetable.rules.model.matching import Example
from modetable.rules.model.sources import SourceExample
from modetable.rules.policy import Policy, RuleSet
from modetable.rules.words import ConditionWord
from modetable.settled import frozen
from modetable.versions import in_force

__all__ = ["ExampleRun", "run_examples"]


@frozen
class ExampleRun:
    """One example in one version (`version` is None when it ran in none)."""

    section: str
    index: int
    version: str | None
    case: str
    failure: str | None
    location: Location

    @property
    def passed(self) -> bool:
        return self.failure is None


def run_examples(ruleset: RuleSet) -> list[ExampleRun]:
    """Every example of the file in every version it runs in."""
    policies = [ruleset.at(v) for v in ruleset.versions]
    runs: list[ExampleRun] = []
    for index, example in enumerate(ruleset.rules.matching.examples):
        where = ruleset.locate("matching", "examples", index)
        case = _matching_case(example)
        ran = False
        for policy in policies:
            if not _matching_runs_in(example, policy):
                continue
            ran = True
            runs.append(
                ExampleRun(
                    "matching", index, policy.version, case, _matching(example, policy), where
                )
            )
        if not ran:
            runs.append(
                ExampleRun(
                    "matching",
                    index,
                    None,
                    case,
                    "runs in no listed version (in none is it in force with all its modes valid)",
                    where,
                )
            )
    for index, source_example in enumerate(ruleset.rules.sources.examples):
        where = ruleset.locate("sources", "examples", index)
        case = _source_case(source_example)
        ran = False
        for policy in policies:
            if not in_force(source_example.since, source_example.until, policy.version):
                continue
            ran = True
            failure = _sources(source_example, policy)
            runs.append(ExampleRun("sources", index, policy.version, case, failure, where))
        if not ran:
            runs.append(
                ExampleRun("sources", index, None, case, "is in force in no listed version", where)
            )
    return runs


def _mode(value: str) -> str | None:
    return None if value == ConditionWord.NONE else value


def _matching_case(example: Example) -> str:
    return f"requested={example.requested}, declared={example.declared}"


def _matching_runs_in(example: Example, policy: Policy) -> bool:
    """In force, and every mode it names is a mode in this version."""
    if not in_force(example.since, example.until, policy.version):
        return False
    named = (_mode(example.requested), _mode(example.declared))
    return all(value is None or value in policy.modes_in_force for value in named)


def _matching(example: Example, policy: Policy) -> str | None:
    """Why the example fails in this version, or None."""
    expected = f"{example.outcome} from row {example.row}"
    try:
        row = decide(policy, _mode(example.requested), _mode(example.declared))
    except ModetableError as exc:
        return f"expected {expected}, but {exc.message}"
    if (row.outcome, row.id) == (example.outcome, example.row):
        return None
    return f"expected {expected}, got {row.outcome} from row {row.id}"


def _source_case(example: SourceExample) -> str:
    held = ", ".join(f"{source}={value}" for source, value in example.values.items())
    named = ", named" if example.named else ""
    return f"{example.purpose} {example.component}: {held or 'nothing set'}{named}"


def _sources(example: SourceExample, policy: Policy) -> str | None:
    """Why the example fails in this version, or None."""
    values = {}
    for source_id, value in example.values.items():
        slot = source_slot(policy, example.purpose, example.component, source_id)
        if slot is None:
            return (
                f"source {source_id} is not a {example.purpose} source for the {example.component}"
            )
        values[slot] = PRESENT if slot.path is None else value
    if example.named:
        values[NAMED] = True
    resolution = resolve_values(policy, example.purpose, example.component, values)
    got_mode = resolution.mode or ConditionWord.NONE
    got_source = resolution.source_id or ConditionWord.NONE
    if (got_mode, got_source) == (example.mode, example.source):
        return None
    return f"expected {example.mode} from {example.source}, got {got_mode} from {got_source}"
