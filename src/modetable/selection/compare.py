"""Entries compared with a model: the primitives the format and score checks
and the ranking read.

`Comparisons` compares on every call (the reference). A fleet audit passes a
subclass that compares each distinct (entry, model) pair of values once
(`selection.memo.MemoComparisons`); everything built on the primitives is shared.
"""

from __future__ import annotations

from modetable.inputs.formats import Entry, ModelFacts
from modetable.rules.policy import Policy
from modetable.selection import scoring
from modetable.selection.formats import comparisons, differences, label, sides_match
from modetable.selection.rules import selection_rules

__all__ = ["Comparisons"]


class Comparisons:
    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    # --- the primitives -----------------------------------------------------------

    def differences(self, entry: Entry, model: ModelFacts) -> tuple[str, ...]:
        """Every way `entry` differs from `model`, in the rules' order."""
        return tuple(differences(self.policy, entry, model))

    def comparisons(self, entry: Entry, model: ModelFacts) -> tuple[str, ...]:
        """The version comparisons an ordering operator refused, in words."""
        return tuple(comparisons(self.policy, entry, model))

    def sides_match(self, entry: Entry, model: ModelFacts) -> bool:
        """Format and framework agree, names and versions (what the score counts)."""
        return sides_match(self.policy, entry, model)

    def label(self, model: ModelFacts) -> str:
        return label(self.policy, model)

    def entry_texts(self, entry: Entry, model: ModelFacts) -> tuple[bool, str, str]:
        """Whether `entry` matches `model`; its differences as the format check's
        trace shows them; and as the check's reason lists them."""
        found = self.differences(entry, model)
        separator = selection_rules(self.policy).formats.difference_separator
        return (not found, "; ".join(found) or "matches", separator.join(found))

    # --- built on them --------------------------------------------------------------

    def first_match(self, entries: tuple[Entry, ...], model: ModelFacts) -> Entry | None:
        return next((e for e in entries if not self.differences(e, model)), None)

    def format_reason(
        self, entries: tuple[Entry, ...], model: ModelFacts, parts: list[str] | None = None
    ) -> str:
        """`model format '<label>' not in supported formats: <entries>`; `parts`, when
        given, are the entries' reason parts (`entry_texts`), already looked up."""
        rules = selection_rules(self.policy).formats
        if entries:
            if parts is None:
                parts = [self.entry_texts(e, model)[2] for e in entries]
            listed = rules.entry_separator.join(parts)
        else:
            listed = self.policy.message("no_supported_formats")
        return self.policy.message("format_not_supported", label=self.label(model), entries=listed)

    def score(self, entries: tuple[Entry, ...], model: ModelFacts) -> int:
        """The best entry score over entries matching the model's format and framework
        (names and versions), leaving out `autoSelect: false`; 0 with none."""
        scores = [
            scoring.entry_score(self.policy, e)
            for e in entries
            if e.auto_select is not False and self.sides_match(e, model)
        ]
        return max(scores) if scores else 0
