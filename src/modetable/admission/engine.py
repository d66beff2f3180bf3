"""The admission verdict: the checks of the rules' `admission` list run in
order (the API server's schema first, then OME's webhook), the first denial
wins, and the warnings given before it come back with it, as OME returns them.

What each kind of check does is `kinds.CHECKS`; this module only runs them
and records which ran (`checked`), which could not be decided offline
(`not_checked`, with why), and which check gave the denial and each warning.
"""

from __future__ import annotations

import functools

from modetable.admission.fields import FieldValues
from modetable.admission.kinds import CHECKS, Check, Inputs, Shown, undecided
from modetable.inputs.manifests import Cluster, Manifest
from modetable.rules.model.admission import AdmissionRule
from modetable.rules.policy import Policy
from modetable.rules.words import Stage
from modetable.settled import frozen

__all__ = [
    "STAGE_ORDER",
    "Admission",
    "Denial",
    "NotChecked",
    "Shown",
    "admit",
]

STAGE_ORDER = tuple(Stage)


@frozen
class Denial:
    """The denial: the check that gave it (`rule`, an admission check id), its
    stage, its text (`reason`) and what kubectl prints (`message`)."""

    rule: str
    stage: str
    reason: str
    message: str
    # The InferenceService's field that decides it (a path), when the check knows it.
    field: str | None = None


@frozen
class NotChecked:
    """A check modetable did not run for an InferenceService, and why."""

    check: str
    why: str


@frozen
class Admission:
    """The verdict as `kubectl apply` would report it.

    `warnings[i]` comes from the check `warning_checks[i]`; `checked` lists the
    checks run, in order, up to the one that denied; `not_checked` the checks
    that depend on what modetable cannot see (the cluster's configuration).
    """

    allowed: bool
    message: str | None
    warnings: tuple[str, ...] = ()
    denials: tuple[Denial, ...] = ()
    warning_checks: tuple[str, ...] = ()
    checked: tuple[str, ...] = ()
    not_checked: tuple[NotChecked, ...] = ()
    # The field each warning is about (a path, or None), beside `warnings`.
    warning_fields: tuple[str | None, ...] = ()

    @property
    def denied_by(self) -> str | None:
        """The id of the check that denied, or None when allowed."""
        return self.denials[0].rule if self.denials else None


def admit(
    policy: Policy,
    isvc: Manifest,
    cluster: Cluster | None = None,
    selection: tuple[Shown, ...] | None = None,
    result: str | None = None,
    only: frozenset[str] | None = None,
    read: FieldValues | None = None,
) -> Admission:
    """Every admission check in force on `isvc`, in order, until one denies.

    `cluster` gives the checks that look objects up (the model); `selection`
    is what runtime selection shows at admission, for the checks that place it
    in the order (without it they are not run), and `result` selection's
    outcome. `only` runs just those checks. `read`: the InferenceService's
    fields read beforehand (`fields.field_plan(policy).read(isvc)`, for a fleet).
    """
    here = Inputs(policy, isvc, cluster, selection, result, (), read)
    warnings: list[str] = []
    warning_checks: list[str] = []
    warning_fields: list[str | None] = []
    checked: list[str] = []
    not_checked: list[NotChecked] = []
    for rule, check, undecidable, reads_checked in _steps(policy):
        if only is not None and rule.id not in only:
            continue
        if undecidable:
            if reads_checked and len(here.checked) != len(checked):
                here = Inputs(policy, isvc, cluster, selection, result, tuple(checked), read)
            why = undecided(here, rule)
            if why is not None:
                not_checked.append(NotChecked(rule.id, why))
                continue
        verdict = check(here, rule)
        if verdict is None:
            continue
        if verdict.not_checked is not None:
            not_checked.append(NotChecked(rule.id, verdict.not_checked))
            continue
        checked.append(rule.id)
        if verdict.denial is not None:
            # A check that denies returns none of its own warnings (OME drops
            # them with the error); those of the checks before it come along.
            shown = verdict.shown or policy.stage_message(
                rule.stage, kind=isvc.kind, name=isvc.name, message=verdict.denial
            )
            return Admission(
                allowed=False,
                message=shown,
                warnings=tuple(warnings),
                denials=(Denial(rule.id, rule.stage, verdict.denial, shown, verdict.field),),
                warning_checks=tuple(warning_checks),
                checked=tuple(checked),
                not_checked=tuple(not_checked),
                warning_fields=tuple(warning_fields),
            )
        if verdict.warnings:
            warnings.extend(verdict.warnings)
            warning_checks.extend(rule.id for _ in verdict.warnings)
            fields = verdict.warning_fields or (None,) * len(verdict.warnings)
            warning_fields.extend(fields)
    return Admission(
        allowed=True,
        message=None,
        warnings=tuple(warnings),
        warning_checks=tuple(warning_checks),
        checked=tuple(checked),
        not_checked=tuple(not_checked),
        warning_fields=tuple(warning_fields),
    )


@functools.lru_cache(maxsize=16)  # bounded: a long-running program may make many policies
def _steps(policy: Policy) -> tuple[tuple[AdmissionRule, Check, bool, bool], ...]:
    """Each check in force in the order they run (the schema's, then the
    webhook's), with its function, whether it has an `undecided`, and whether
    it reads which checks ran before it (only an `undecided` with checks it
    comes `after` does, in `undecided` and `selection`): the others share one
    `Inputs`, not one made anew after every check that ran (22 per
    InferenceService), nor after every check with an `undecided` (9)."""
    ordered = sorted(policy.admission, key=lambda r: STAGE_ORDER.index(r.stage))
    return tuple(
        (
            rule,
            CHECKS[rule.check],
            rule.undecided is not None,
            rule.undecided is not None and bool(rule.undecided.after),
        )
        for rule in ordered
    )
