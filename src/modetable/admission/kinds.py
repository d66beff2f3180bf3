"""The kinds of admission check, each keyed by the word the rules use
(`check:` of an `admission` entry) beside the function that gives it meaning.
The words are `rules.words.AdmissionCheck`; tests/test_vocabulary.py holds
`CHECKS` to cover every one.
"""

from __future__ import annotations

from collections.abc import Callable

from modetable.admission.fields import (
    READS_VALUES,
    FieldValues,
    Reader,
    all_hold,
    case_values,
)
from modetable.admission.rollout import (
    budget_problem,
    canary_problem,
    coordination_problem,
    ordering_problem,
    soak_problem,
    tolerance_problem,
    zero_budget_problem,
)
from modetable.inputs.api_server import refusal, schema_check_rule
from modetable.inputs.manifests import Cluster, Manifest
from modetable.parsing import paths
from modetable.rules.model.admission import AdmissionRule, FieldTest
from modetable.rules.policy import Policy
from modetable.rules.words import AdmissionCheck, AdmissionEmit, Emit, Scope
from modetable.settled import frozen

__all__ = [
    "CHECKS",
    "PASS",
    "Check",
    "Inputs",
    "Shown",
    "Verdict",
    "agree_when_any",
    "allowed_values",
    "canary",
    "coordination",
    "crd_schema",
    "fields",
    "model_exists",
    "ratio_tolerance",
    "rolling_update_budgets",
    "rollout_ordering",
    "selection",
    "soak",
    "undecided",
    "zero_budget",
]


@frozen
class Shown:
    """What a selection outcome shows at admission: a warning or a denial."""

    outcome: str
    emit: Emit
    text: str


@frozen(eq=False)
class Inputs:
    """What a check may read: the InferenceService, the objects read with it,
    and what selection shows at admission (None: selection did not run)."""

    policy: Policy
    isvc: Manifest
    cluster: Cluster | None = None
    selection: tuple[Shown, ...] | None = None
    result: str | None = None  # selection's outcome (a key of selection.outcomes)
    checked: tuple[str, ...] = ()  # the checks run before this one
    # The InferenceService's values read beforehand (a fleet's audit), or None.
    read: FieldValues | None = None

    def reader(self, component: str | None = None) -> Reader:
        """A reader of the InferenceService's fields, for one component (or none)."""
        if self.read is not None:
            return self.read.reader(component)
        return Reader(self.policy, self.isvc, component)


@frozen
class Verdict:
    """One check's answer: its warnings, its denial (None: it passes), or why
    it was not decided (then neither). `shown`: the denial as kubectl prints
    it, when it is not the stage's wrapper around `denial` (the API server's
    own refusal)."""

    warnings: tuple[str, ...] = ()
    denial: str | None = None
    not_checked: str | None = None
    shown: str | None = None
    # The field of the InferenceService that decides the denial, and each
    # warning (a path, placeholders filled), where the check knows it.
    field: str | None = None
    warning_fields: tuple[str | None, ...] = ()


PASS = Verdict()

# A check's function: its verdict, or None when it cannot run here at all
# (what it reads was not given), so it is neither checked nor noted.
Check = Callable[[Inputs, AdmissionRule], Verdict | None]


def allowed_values(inputs: Inputs, rule: AdmissionRule) -> Verdict:
    """A source's raw value must be one of `values`."""
    policy, isvc = inputs.policy, inputs.isvc
    source = policy.sources_by_id[rule.source or ""]
    value = paths.lookup(isvc.body, paths.split(source.path or ""))
    if value in (paths.MISSING, None) or value in rule.values:
        return PASS
    supported = ", ".join(f'"{v}"' for v in rule.values)
    return Verdict(
        denial=policy.message(rule.message or "", value=value, supported=supported),
        field=source.path,
    )


def agree_when_any(inputs: Inputs, rule: AdmissionRule) -> Verdict:
    """The components' modes, read raw from `mode_sources` (as written, an
    invalid value included), must be equal when any of them is one of
    `values`; applies only when all of them are declared."""
    policy = inputs.policy
    reader = inputs.reader()
    if not all(reader.declares(name) for name in rule.components):
        return PASS
    modes = {name: inputs.reader(name).first_filled(rule.mode_sources) for name in rule.components}
    if not any(m in rule.values for m in modes.values()) or len(set(modes.values())) == 1:
        return PASS
    return Verdict(denial=policy.message(rule.message or "", **modes))


def fields(inputs: Inputs, rule: AdmissionRule) -> Verdict:
    """Tests on the InferenceService's fields: when every `guard` test holds,
    for each component of `each` the InferenceService declares (or once, with
    no `each`), the first case whose tests all hold gives its message. A
    denial check stops at the first; a warning check gives one per component.
    In a fleet's audit, kept per what it reads (`FieldValues.memo_key`)."""
    read = inputs.read
    if read is None:
        return _fields(inputs, rule)
    return read.kept("fields", rule.id, lambda: _fields(inputs, rule))


def _fields(inputs: Inputs, rule: AdmissionRule) -> Verdict:
    policy = inputs.policy
    reader = inputs.reader()
    if not all_hold(rule.guard, reader):
        return PASS
    components: list[str | None] = [name for name in rule.each if reader.declares(name)] or (
        [] if rule.each else [None]
    )
    given: list[str] = []
    at: list[str | None] = []
    for component in components:
        here = inputs.reader(component)
        for case in rule.cases:
            # The case's values are read first only where a test reads them.
            if any(test.test in READS_VALUES for test in case.when):
                values = case_values(case, here)
                if not all_hold(case.when, here.with_values(values)):
                    continue
            elif all_hold(case.when, here):
                values = case_values(case, here)
            else:
                continue
            given.append(policy.message(case.message, **values))
            # The case's first field read is what to change.
            read = next((t.field for t in (*case.when, *rule.guard) if t.field), None)
            at.append(paths.render(here.segments(read)) if read else None)
            break
        if given and rule.emit == AdmissionEmit.DENIAL:
            return Verdict(denial=given[0], field=at[0])
    return Verdict(warnings=tuple(given), warning_fields=tuple(at))


def model_exists(inputs: Inputs, rule: AdmissionRule) -> Verdict | None:
    """The model spec.model names must be found, trying the kinds of `lookup`
    in order whatever spec.model.kind says (a namespaced kind in the
    InferenceService's namespace)."""
    if inputs.cluster is None:
        return None
    policy, isvc = inputs.policy, inputs.isvc
    selection_rules = policy.rules.selection
    if selection_rules is None:
        return None
    ref = selection_rules.model_ref
    name = inputs.reader().field(f"{ref.path}.{ref.name}")
    if not isinstance(name, str) or name == "":
        return PASS
    namespace = isvc.namespace or ""
    scopes = {m.kind: m.scope for m in policy.rules.manifests.models}
    for kind in rule.lookup:
        where = namespace if scopes.get(kind) == Scope.NAMESPACE else None
        if inputs.cluster.get(kind, name, where) is not None:
            return PASS
    return Verdict(
        denial=policy.message(rule.message or "", model=name, namespace=namespace),
        field=f"{ref.path}.{ref.name}",
    )


def _rollout(rule: AdmissionRule, denial: str | None) -> Verdict:
    """A rollout check's denial, at the rollout groups (`rollout.groups`)."""
    if denial is None:
        return PASS
    return Verdict(denial=denial, field=rule.rollout.groups if rule.rollout else None)


def canary(inputs: Inputs, rule: AdmissionRule) -> Verdict:
    """OME's ValidateCanary over the rollout groups whose progression is a
    canary (admission/rollout.py): its first error."""
    return _rollout(rule, canary_problem(inputs.policy, rule, inputs.isvc))


def coordination(inputs: Inputs, rule: AdmissionRule) -> Verdict:
    """OME's ValidateCoordination up to its mode check, over every rollout
    group (admission/rollout.py): its first error."""
    return _rollout(rule, coordination_problem(inputs.policy, rule, inputs.isvc))


def rolling_update_budgets(inputs: Inputs, rule: AdmissionRule) -> Verdict:
    """ValidateCoordination's budgets (admission/rollout.py): a rollingUpdate
    group's maxSurge and maxUnavailable, counts or percentages."""
    return _rollout(rule, budget_problem(inputs.policy, rule, inputs.isvc))


def ratio_tolerance(inputs: Inputs, rule: AdmissionRule) -> Verdict:
    """The first group whose maintainRatio tolerance is outside `bounds`
    (admission/rollout.py) gives `message`: a denial, or a warning."""
    text = tolerance_problem(inputs.policy, rule, inputs.isvc)
    if text is None:
        return PASS
    if rule.emit == AdmissionEmit.WARNING:
        groups = rule.rollout.groups if rule.rollout else None
        return Verdict(warnings=(text,), warning_fields=(groups,))
    return _rollout(rule, text)


def zero_budget(inputs: Inputs, rule: AdmissionRule) -> Verdict:
    """ValidateCoordination's pacing: a rollingUpdate group whose budgets both
    resolve to zero (admission/rollout.py)."""
    return _rollout(rule, zero_budget_problem(inputs.policy, rule, inputs.isvc))


def soak(inputs: Inputs, rule: AdmissionRule) -> Verdict:
    """ValidateCoordination's soak: only on a group of a sequence (admission/rollout.py)."""
    return _rollout(rule, soak_problem(inputs.policy, rule, inputs.isvc))


def rollout_ordering(inputs: Inputs, rule: AdmissionRule) -> Verdict:
    """OME's ValidateRolloutOrderingEnforced (admission/rollout.py): no group's
    `order`, and a list of groups whose order OME enforces unless Concurrent."""
    return _rollout(rule, ordering_problem(inputs.policy, rule, inputs.isvc))


def selection(inputs: Inputs, rule: AdmissionRule) -> Verdict | None:
    """What runtime selection shows at admission for the outcomes in `outcomes`:
    its warnings, and its first denial; not decided when selection's outcome is
    one of `undecided.outcomes`."""
    if inputs.selection is None:
        return None
    undecided = rule.undecided
    if (
        undecided is not None
        and inputs.result in undecided.outcomes
        and _after(inputs, undecided.after)
    ):
        return Verdict(not_checked=inputs.policy.message(undecided.why))
    shown = [s for s in inputs.selection if s.outcome in rule.outcomes]
    warnings = tuple(s.text for s in shown if s.emit == Emit.WARNING)
    denial = next((s.text for s in shown if s.emit == Emit.DENIAL), None)
    return Verdict(warnings=warnings, denial=denial)


def undecided(inputs: Inputs, rule: AdmissionRule) -> str | None:
    """Why `rule` is not decided for this InferenceService (any test of its
    `undecided.when` holds, after the checks of `after`), or None."""
    found = rule.undecided
    if found is None or not found.when or not _after(inputs, found.after):
        return None
    read = inputs.read
    if read is None:
        held = _any_holds(inputs, found.when)
    else:
        held = read.kept("undecided", rule.id, lambda: _any_holds(inputs, found.when))
    return inputs.policy.message(found.why) if held else None


def _any_holds(inputs: Inputs, tests: tuple[FieldTest, ...]) -> bool:
    reader = inputs.reader()
    return any(reader.holds(test) for test in tests)


def _after(inputs: Inputs, checks: tuple[str, ...]) -> bool:
    """Whether every one of `checks` ran before (in this version)."""
    return all(c in inputs.checked for c in checks)


def crd_schema(inputs: Inputs, rule: AdmissionRule) -> Verdict | None:
    """The API server's check of the object against OME's CRD schema: its
    refusal, the server's text and kubectl's. An InferenceService the loader
    kept passed it already (an upgrade's cluster: under the schema of the
    version it goes to, as the objects stored before it are taken as they are)."""
    cluster, isvc = inputs.cluster, inputs.isvc
    if schema_check_rule(inputs.policy) is None:
        return None  # no schema for this version: not run
    checked = cluster is not None and cluster.schema_version is not None
    if checked and not any(r.manifest is isvc for r in cluster.refused):
        return PASS
    refused = refusal(inputs.policy, isvc)
    if refused is None:
        return PASS
    return Verdict(denial=refused.server, shown=refused.kubectl)


CHECKS: dict[AdmissionCheck, Check] = {
    AdmissionCheck.ALLOWED_VALUES: allowed_values,
    AdmissionCheck.AGREE_WHEN_ANY: agree_when_any,
    AdmissionCheck.CANARY: canary,
    AdmissionCheck.COORDINATION: coordination,
    AdmissionCheck.CRD_SCHEMA: crd_schema,
    AdmissionCheck.FIELDS: fields,
    AdmissionCheck.MODEL_EXISTS: model_exists,
    AdmissionCheck.RATIO_TOLERANCE: ratio_tolerance,
    AdmissionCheck.ROLLING_UPDATE_BUDGETS: rolling_update_budgets,
    AdmissionCheck.ROLLOUT_ORDERING: rollout_ordering,
    AdmissionCheck.SELECTION: selection,
    AdmissionCheck.SOAK: soak,
    AdmissionCheck.ZERO_BUDGET: zero_budget,
}
