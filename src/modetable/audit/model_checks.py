"""The checks that read the model, for a fleet: `selection.checks`' model-format
and score checks and its ranking facts, with each comparison of an entry and a
model computed once per distinct value.

A thousand runtimes copy a few hundred distinct entries, and a fleet's models
repeat a few dozen distinct formats, so `selection.formats.differences` and
`sides_match` (which parse versions on every call) run once per (entry, model)
value pair here. The texts come from the same functions and rules;
tests/test_audit_fast.py holds every result to `selection.checks.assess`.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any

from modetable.rules.model import SelectionCheck
from modetable.rules.policy import Policy
from modetable.selection import scoring
from modetable.selection.checks import (
    FAILED,
    PASSED,
    CheckResult,
    Context,
    RuntimeView,
    check_reason,
    size_range,
)
from modetable.selection.formats import Entry, ModelFacts, differences, label, sides_match
from modetable.selection.rules import selection_rules
from modetable.selection.sizes import distance, parse_size

# The words checks.check_model_format shows: the model's row, and an entry
# with no difference.
MODEL_INPUT = "model"
MATCHES = "matches"
SCORE_INPUT = "score"


def _frozen(value: Any) -> Hashable:
    """A hashable stand-in for a pipeline mapping (rare, small)."""
    return None if value is None else json.dumps(value, sort_keys=True, default=str)


def entry_key(entry: Entry) -> Hashable:
    """What `differences` reads of an entry (not its index)."""
    return (
        entry.format,
        entry.framework,
        entry.architecture,
        entry.quantization,
        _frozen(entry.pipeline),
    )


def model_key(model: ModelFacts) -> Hashable:
    """What `differences` reads of a model (not its size)."""
    return (
        model.format,
        model.framework,
        model.architecture,
        model.quantization,
        _frozen(model.pipeline),
    )


def _result(check: SelectionCheck, failed: bool, reason: str | None, **extra: Any) -> CheckResult:
    return CheckResult(
        check=check.id,
        step=check.check,
        state=FAILED if failed else PASSED,
        reason=reason if failed else None,
        **extra,
    )


class ModelChecks:
    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.rules = selection_rules(policy)
        self._differences: dict[tuple[Hashable, Hashable], tuple[str, ...]] = {}
        self._sides: dict[tuple[Hashable, ...], bool] = {}
        self._labels: dict[Hashable, str] = {}

    # --- one entry against one model, once per value ---------------------------

    def differences(self, entry: Entry, model: ModelFacts, key: Hashable) -> tuple[str, ...]:
        pair = (entry_key(entry), key)
        found = self._differences.get(pair)
        if found is None:
            found = self._differences[pair] = tuple(differences(self.policy, entry, model))
        return found

    def sides_match(self, entry: Entry, model: ModelFacts) -> bool:
        key = (entry.format, entry.framework, model.format, model.framework)
        found = self._sides.get(key)
        if found is None:
            found = self._sides[key] = sides_match(self.policy, entry, model)
        return found

    def label(self, model: ModelFacts, key: Hashable) -> str:
        found = self._labels.get(key)
        if found is None:
            found = self._labels[key] = label(self.policy, model)
        return found

    # --- formats.first_match and scoring.score, on the memo ----------------------

    def first_match(self, entries: tuple[Entry, ...], model: ModelFacts) -> Entry | None:
        key = model_key(model)
        return next((e for e in entries if not self.differences(e, model, key)), None)

    def score(self, entries: tuple[Entry, ...], model: ModelFacts) -> int:
        scores = [
            scoring.entry_score(self.policy, e)
            for e in entries
            if e.auto_select is not False and self.sides_match(e, model)
        ]
        return max(scores) if scores else 0

    # --- the checks ---------------------------------------------------------------

    def format_check(
        self, model: ModelFacts, view: RuntimeView, check: SelectionCheck
    ) -> CheckResult:
        """What checks.check_model_format gives."""
        key = model_key(model)
        rules = self.rules
        found = [self.differences(entry, model, key) for entry in view.entries]
        inputs = [(MODEL_INPUT, self.label(model, key))]
        inputs += [
            (f"{rules.runtime.entries}[{entry.index}]", "; ".join(parts) or MATCHES)
            for entry, parts in zip(view.entries, found, strict=True)
        ]
        matched = any(not parts for parts in found)
        reason = None
        if not matched:
            formats = rules.formats
            if view.entries:
                listed = formats.entry_separator.join(
                    formats.difference_separator.join(parts) for parts in found
                )
            else:
                listed = self.policy.message("no_supported_formats")
            reason = self.policy.message(
                "format_not_supported", label=self.label(model, key), entries=listed
            )
        return _result(check, not matched, reason, inputs=tuple(inputs))

    def score_check(
        self, model: ModelFacts, view: RuntimeView, check: SelectionCheck
    ) -> CheckResult:
        """What checks.check_score gives."""
        value = self.score(view.entries, model)
        matched = self.first_match(view.entries, model)
        if matched is not None and matched.auto_select is not True:
            reason = self.policy.message("matching_entry_not_auto_select", format=model.format_name)
        else:
            reason = check_reason(self.policy, check)
        return _result(check, value <= 0, reason, inputs=((SCORE_INPUT, str(value)),))

    def ranking_facts(self, ctx: Context, view: RuntimeView) -> dict[str, Any]:
        """What checks._ranking_facts gives: score, size distance, priority, weight."""
        model = ctx.model
        facts: dict[str, Any] = {"score": self.score(view.entries, model)}
        matched = self.first_match(view.entries, model)
        if matched is not None:
            facts["priority"] = scoring.priority_of(self.policy, matched)
            facts["weight"] = scoring.shown_weight(self.policy, matched)
        if model.size is not None:
            found = size_range(ctx, view)
            if found is None:
                facts["distance"] = 0.0
            else:
                low, high = found.bounds(self.rules.sizes, self.policy.version)
                facts["distance"] = distance(parse_size(model.size, self.rules.sizes), low, high)
        return facts

    def matches(self, entries: tuple[Entry, ...], model: ModelFacts) -> bool:
        """Whether some entry matches the model (formats.first_match is not None)."""
        return self.first_match(entries, model) is not None
