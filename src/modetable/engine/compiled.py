"""The matching table compiled into lookups, once per version.

`matching.decide` interprets the rows (conditions, hit policy) on every call;
it stays the reference. Here every input combination the table can be asked
about is decided once, by that same interpreter, and kept in nested
dictionaries: deciding is then `rows[requested][declared]`. A combination the
interpreter refuses (no row, or rows that overlap) keeps its error, raised
when that combination is asked for, so the two paths agree on errors too.

The domain is "no mode" plus every mode the rules file names, in any version;
a value outside it (which mode resolution never gives) is handed to the
interpreter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import attrs

from modetable.engine.matching import decide as interpret
from modetable.errors import ModetableError
from modetable.settled import frozen

__all__ = ["CompiledMatching", "Decision", "T", "compile_matching"]

T = TypeVar("T")

if TYPE_CHECKING:
    from modetable.rules.model.matching import Row
    from modetable.rules.policy import Policy


# The outcome key a passing row gives (rules/modes.yaml, matching.outcomes).
_PASS = "pass"


@frozen
class Decision:
    """The row that decides one component, its outcome, and the rejection reason."""

    row: str
    outcome: str
    reason: str | None

    @property
    def passes(self) -> bool:
        return self.outcome == _PASS


@frozen(eq=False)
class CompiledMatching:
    """One version's matching table as lookups."""

    policy: Policy = attrs.field(repr=False)
    domain: tuple[str | None, ...]
    # requested → declared → the row the interpreter gives.
    rows: dict[str | None, dict[str | None, Row]] = attrs.field(repr=False)
    # component → requested → declared → the decision with its rendered reason.
    decisions: dict[str, dict[str | None, dict[str | None, Decision]]] = attrs.field(repr=False)
    # (requested, declared) → the interpreter's error, for combinations it refuses;
    # kept apart so the lookups above hold only answers.
    errors: dict[tuple[str | None, str | None], ModetableError] = attrs.field(repr=False)
    # decide(requested, declared) → the row that decides, as `matching.decide` gives
    # it: a closure over `rows`, so a decision costs one call and two lookups.
    decide: Callable[[str | None, str | None], Row] = attrs.field(repr=False)

    def decision(self, component: str, requested: str | None, declared: str | None) -> Decision:
        """One component's decision, with the reason the rules' message gives."""
        try:
            return self.decisions[component][requested][declared]
        except KeyError:
            return self._miss(
                requested, declared, lambda: _decision(self.policy, component, requested, declared)
            )

    def _miss(
        self, requested: str | None, declared: str | None, interpreting: Callable[[], T]
    ) -> T:
        error = self.errors.get((requested, declared))
        if error is not None:
            raise error
        return interpreting()

    def passing_declared(self, component: str, requested: str | None) -> frozenset[str | None]:
        """The declared modes (None for no mode) that let `requested` pass for `component`.

        A combination the table refuses is left out; deciding it raises the error.
        """
        return frozenset(
            declared
            for declared, decision in self.decisions[component].get(requested, {}).items()
            if decision.passes
        )


def _decision(
    policy: Policy, component: str, requested: str | None, declared: str | None
) -> Decision:
    row = interpret(policy, requested, declared)
    reason = None
    if row.message is not None:
        reason = policy.message(
            row.message,
            component=component,
            runtime_mode=declared or "",
            isvc_mode=requested or "",
        )
    return Decision(row=row.id, outcome=row.outcome, reason=reason)


def compile_matching(policy: Policy) -> CompiledMatching:
    """Decide every combination of the domain once, with the interpreter."""
    domain: tuple[str | None, ...] = (None, *policy.all_modes)
    rows: dict[str | None, dict[str | None, Row]] = {requested: {} for requested in domain}
    errors: dict[tuple[str | None, str | None], ModetableError] = {}
    for requested in domain:
        for declared in domain:
            try:
                rows[requested][declared] = interpret(policy, requested, declared)
            except ModetableError as exc:
                errors[requested, declared] = exc
    decisions = {
        component.name: {
            requested: {
                declared: _decision(policy, component.name, requested, declared)
                for declared in rows[requested]
            }
            for requested in domain
        }
        for component in policy.components
    }

    def miss(requested: str | None, declared: str | None) -> Row:
        error = errors.get((requested, declared))
        if error is not None:
            raise error
        return interpret(policy, requested, declared)

    def decide(requested: str | None, declared: str | None) -> Row:
        try:
            return rows[requested][declared]
        except KeyError:
            return miss(requested, declared)

    return CompiledMatching(
        policy=policy,
        domain=domain,
        rows=rows,
        decisions=decisions,
        errors=errors,
        decide=decide,
    )
