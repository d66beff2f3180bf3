"""The score of a runtime for a model, what `explain` shows of it, and the
ranking of the runtimes that qualify (their rules in `selection.score` and
`selection.ranking`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from modetable.inputs.formats import Entry
from modetable.rules.model.selection import Weight
from modetable.rules.policy import Policy
from modetable.rules.words import RankKey, Scope
from modetable.selection.rules import selection_rules

__all__ = [
    "RANK_KEYS",
    "entry_score",
    "priority_of",
    "rank_key",
    "scope_order",
    "shown_weight",
]


def _counted(weight: int | None, rule: Weight) -> int:
    """A weight as the score counts it: unset is the default, 0 counts extra."""
    if weight is None:
        return rule.default
    return rule.zero_counts_as if weight == 0 else weight


def priority_of(policy: Policy, entry: Entry) -> int:
    default = selection_rules(policy).score.default_priority
    return default if entry.priority is None else entry.priority


def entry_score(policy: Policy, entry: Entry) -> int:
    rules = selection_rules(policy).score
    weights = _counted(entry.format.weight, rules.format_weight) + _counted(
        entry.framework.weight, rules.framework_weight
    )
    return weights * priority_of(policy, entry)


def shown_weight(policy: Policy, entry: Entry) -> int:
    """explain's WEIGHT: each weight (unset: the default) times the priority,
    leaving out weights of 0 or less."""
    rules = selection_rules(policy).score
    priority = priority_of(policy, entry)
    total = 0
    for weight, rule in (
        (entry.format.weight, rules.format_weight),
        (entry.framework.weight, rules.framework_weight),
    ):
        value = rule.default if weight is None else weight
        if value > 0:
            total += value * priority
    return total


def _namespaced_first(scope: str) -> bool:
    return scope != Scope.NAMESPACE


# The ranking keys the rules may name, each mapping a candidate to a sort key,
# smaller first.
RANK_KEYS: dict[RankKey, Callable[[Any], Any]] = {
    RankKey.NAMESPACE_FIRST: lambda c: _namespaced_first(c.scope),
    RankKey.SCORE: lambda c: -(c.score or 0),
    RankKey.SIZE_DISTANCE: lambda c: c.distance or 0.0,
    RankKey.NAME: lambda c: c.name,
}


def rank_key(policy: Policy) -> Callable[[Any], tuple[Any, ...]]:
    """The sort key of the runtimes that qualify, per `selection.ranking`."""
    keys = [RANK_KEYS[k] for k in selection_rules(policy).ranking]
    return lambda candidate: tuple(key(candidate) for key in keys)


def scope_order(policy: Policy) -> Callable[[str], bool]:
    """The sort key of a runtime's scope wherever runtimes are listed or one is
    picked by name: a namespace's own before the cluster's when the rules'
    ranking puts `namespace_first` (a rules file with no selection section has
    no ranking, and keeps that order), else none (the order they were read in)."""
    found = policy.rules.selection
    if found is None or RankKey.NAMESPACE_FIRST in found.ranking:
        return _namespaced_first
    return lambda scope: False
