"""What is wrong with an InferenceService, graded: one finding per thing to fix.

Each finding has the severity and meaning the rules give its id (the
`findings:` section; the id is `GROUP/KEY`, the key being the id or name of the
rule behind it), the message OME (or modetable) gives, where it is written, and
the object to fix: the InferenceService, or the model or runtime that is the
cause. Plain functions over an audited outcome; no output concerns here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from modetable.audit.edges import isvc_edges
from modetable.engine.modes import Resolution, Verdict
from modetable.engine.running import failures_with_rules, logged
from modetable.errors import ErrorCode, Location, ModetableError
from modetable.inputs.api_server import refusal
from modetable.inputs.manifests import Manifest, Refused, duplicate_message
from modetable.parsing import paths
from modetable.reports.finding import SEVERITIES, Finding, ObjectRef, Related
from modetable.rules.model.findings import FindingKind, Findings, ModeFinding
from modetable.rules.policy import Policy
from modetable.rules.words import (
    AdmissionCheck,
    FindingGroup,
    ManifestFinding,
    SchemaError,
    Status,
)
from modetable.selection import Outcome
from modetable.settled import frozen

__all__ = [
    "Grading",
    "counts",
    "deprecated",
    "described",
    "duplicate_finding",
    "field_place",
    "grading",
    "invalid_finding",
    "move_targets",
    "outcome_findings",
    "pending_count",
    "pending_finding",
    "related",
    "schema_findings",
]


def _findings_rules(policy: Policy) -> Findings:
    findings = policy.rules.findings
    if findings is None:
        raise ModetableError(
            "the rules have no `findings:` section, which grades what the audit finds",
            Location(policy.file),
        )
    return findings


def _kind_of(policy: Policy, group: str, key: str) -> FindingKind | ModeFinding:
    """The severity and description the rules give finding `group/key`."""
    findings = _findings_rules(policy)
    if group == FindingGroup.MANIFEST:
        return getattr(findings.manifest, key)
    if group == FindingGroup.SCHEMA:
        return findings.schema[SchemaError(key)]
    return getattr(findings, group)[key]


def _make(
    policy: Policy,
    group: str,
    key: str,
    message: str,
    location: Location,
    obj: ObjectRef,
    hint: str | None = None,
    related: tuple[Related, ...] = (),
) -> Finding:
    kind = _kind_of(policy, group, key)
    return Finding(str(kind.severity), f"{group}/{key}", message, location, obj, hint, related)


# --- one InferenceService ------------------------------------------------------


def _holder(location: Location | None, objects: Sequence[Manifest | None]) -> Manifest:
    """Which of `objects` (the first is the default) `location` is written in:
    the one starting last before it in its file."""
    default = objects[0]
    assert default is not None
    if location is None:
        return default
    before = [
        m
        for m in objects
        if m is not None
        and m.location.file == location.file
        and (m.location.line or 0) <= (location.line or 0)
    ]
    return max(before, key=lambda m: m.location.line or 0) if before else default


def _mode_place(outcome: Outcome, resolution: Resolution) -> tuple[Location | None, Manifest]:
    """Where a component's running mode is set, and in which object."""
    used = next((r for r in resolution.readings if r.verdict == Verdict.USED), None)
    where = used.location if used is not None else None
    if where is None and used is not None and used.origin == "runtime" and outcome.runtime:
        # A value merged in from the runtime (its inheritance resolved) keeps no
        # place of its own: the runtime is the object to fix.
        return None, outcome.runtime
    return where, _holder(where, (outcome.isvc, outcome.runtime))


def field_place(outcome: Outcome) -> Location:
    """Where the InferenceService names what its outcome turns on (the model's
    or the runtime's name: `Outcome.field`), else where it begins."""
    return _at(outcome.isvc, outcome.field)


def _at(isvc: Manifest, field: str | None) -> Location:
    """Where the InferenceService writes `field` (a path): a value where it is
    written, a mapping or a list at its key, a field it lacks at the key of
    the nearest one holding it; where it begins when no field is known."""
    if field is None:
        return isvc.location
    segments = paths.split(field)
    while len(segments) > 1 and paths.lookup(isvc.body, segments) is paths.MISSING:
        segments = segments[:-1]
    value = paths.lookup(isvc.body, segments)
    if value is paths.MISSING:
        return isvc.location
    key = isinstance(value, dict | list)
    return paths.value_location(isvc.body, segments, isvc.location, key=key) or isvc.location


def related(manifest: Manifest, where: Location | None = None) -> Related:
    """`manifest` (at `where` in it, else where it begins) as a related place."""
    return Related(where or manifest.location, f"{manifest.kind} {manifest.ref}")


def _placed(
    outcome: Outcome, where: Location | None, holder: Manifest
) -> tuple[Location, tuple[Related, ...]]:
    """Where a finding about `where` in `holder` stands: there, in the
    InferenceService; in another object (the model, the runtime), at the
    InferenceService's field that names it, with the place as related (a pull
    request's annotations land on the file it changes)."""
    if holder is outcome.isvc:
        return where or outcome.isvc.location, ()
    return field_place(outcome), (related(holder, where),)


def _on_cause(
    policy: Policy, outcome: Outcome, group: str, key: str, message: str, location: Location
) -> Finding:
    """A finding on the object the outcome says to fix (its `cause`, else the
    InferenceService), with the outcome's hint; another object than the
    InferenceService is its related place."""
    cause = outcome.cause or outcome.isvc
    _, also = _placed(outcome, None, cause)
    return _make(policy, group, key, message, location, ObjectRef.of(cause), outcome.hint, also)


def _shown(outcome: Outcome, selection_checks: set[str]) -> str | None:
    """What a user sees first of a selection outcome: its denial at admission,
    else its warning, else its first event."""
    admission = outcome.admission
    denial = next((d for d in admission.denials if d.rule in selection_checks), None)
    if denial is not None:
        return denial.message
    warned = [
        text
        for text, check in zip(admission.warnings, admission.warning_checks, strict=True)
        if check in selection_checks
    ]
    if warned:
        return warned[-1]
    return next((e.message for e in outcome.events if e.message), None)


@frozen(eq=False)
class Grading:
    """What grading reads of a policy, worked out once for a fleet."""

    policy: Policy
    rules: Findings
    # Admission checks of kind selection show selection's outcome (reported as it).
    selection_checks: frozenset[str]
    # The modes in force whose components are a finding, with their entry.
    asking: dict[str, ModeFinding]
    # Admission checks of kind crd_schema: their denial is each schema problem.
    schema_checks: frozenset[str] = frozenset()


def grading(policy: Policy) -> Grading:
    rules = _findings_rules(policy)
    return Grading(
        policy=policy,
        rules=rules,
        # The kind of admission check that shows runtime selection's own denials
        # and warnings (admission/kinds.py CHECKS); its findings are selection's outcome.
        selection_checks=frozenset(
            r.id for r in policy.admission if r.check == AdmissionCheck.SELECTION
        ),
        asking={name: entry for name, entry in rules.mode.items() if _asks(policy, name)},
        schema_checks=frozenset(
            r.id for r in policy.admission if r.check == AdmissionCheck.CRD_SCHEMA
        ),
    )


def outcome_findings(
    policy: Policy | Grading, outcome: Outcome, changes: Sequence[Any] = ()
) -> tuple[Finding, ...]:
    """Everything wrong with one InferenceService's outcome, in the order OME
    meets it: admission, selection, run time; then the modes its components run
    in, and `changes` (what a mode move breaks in the specs, see `move_changes`).
    A fleet passes its `grading` instead of the policy."""
    graded = policy if isinstance(policy, Grading) else grading(policy)
    policy = graded.policy
    rules = graded.rules
    isvc = outcome.isvc
    here = ObjectRef.of(isvc)
    found: list[Finding] = []
    selection_checks = graded.selection_checks
    admission = outcome.admission
    # A check that is the webhook's side of the outcome (its `outcomes`)
    # reports it, with the outcome's object to fix and hint: not twice.
    covers = {r.id for r in policy.admission if outcome.result in r.outcomes}
    covered = False
    for denial in admission.denials:
        if denial.rule in selection_checks:
            continue
        if denial.rule in graded.schema_checks:
            # The API server refuses it (an InferenceService checked against
            # another version's schema than the loader's): each problem.
            refused = refusal(policy, isvc)
            found.extend(schema_findings(policy, refused) if refused is not None else ())
            continue
        if denial.rule in covers:
            covered = True
            where = _at(isvc, outcome.field or denial.field)
            found.append(
                _on_cause(
                    policy, outcome, FindingGroup.ADMISSION, denial.rule, denial.message, where
                )
            )
        else:
            where = _at(isvc, denial.field)
            found.append(
                _make(policy, FindingGroup.ADMISSION, denial.rule, denial.message, where, here)
            )
    warned = zip(
        admission.warnings, admission.warning_checks, admission.warning_fields, strict=True
    )
    for text, check, field in warned:
        if check not in selection_checks:
            where = _at(isvc, field)
            found.append(_make(policy, FindingGroup.ADMISSION, check, text, where, here))
    for checks, why in _undecided_runs(admission.not_checked):
        if checks[0] in rules.not_checked:  # rules without the group grade none
            message = policy.message("admission_not_checked", check=", ".join(checks), why=why)
            found.append(
                _make(policy, FindingGroup.NOT_CHECKED, checks[0], message, isvc.location, here)
            )
    # A virtual InferenceService's controller resolves nothing: selection's
    # outcome is a finding only where the webhook's resolution denies it.
    webhook_denied = any(d.rule in selection_checks for d in admission.denials)
    if outcome.result in rules.outcome and not covered and (outcome.resolved or webhook_denied):
        message = _shown(outcome, selection_checks) or outcome.message or outcome.result
        found.append(
            _on_cause(
                policy, outcome, FindingGroup.OUTCOME, outcome.result, message, field_place(outcome)
            )
        )
    if outcome.pending is not None:
        found.append(pending_finding(policy, outcome))
    check = outcome.named_check
    # A named runtime that fails a check is used anyway (named_unsupported).
    if outcome.named and check is not None and check.failed_check:
        runtime = outcome.cause or outcome.runtime or isvc
        message = _shown(outcome, selection_checks) or check.reason or outcome.result
        where, also = _placed(outcome, None, runtime)
        # modetable's words beside OME's (an ordering operator's comparison).
        failed = next(r for r in check.checks if r.check == check.failed_check)
        hint = "; ".join(note for _what, note in failed.notes) or None
        found.append(
            _make(
                policy,
                FindingGroup.CHECK,
                check.failed_check,
                message,
                where,
                ObjectRef.of(runtime),
                hint,
                related=also,
            )
        )
    if outcome.reconcile:
        for component, (error, rule) in failures_with_rules(policy, outcome.components).items():
            where, holder = _mode_place(outcome, outcome.components[component])
            group, key = (
                (FindingGroup.RUN_FAILURE, rule)
                if rule is not None
                else (FindingGroup.COMPONENT, component)
            )
            message = f"{component}: {logged(error, outcome.reconcile_logs.get(component))}"
            at, also = _placed(outcome, where, holder)
            found.append(_make(policy, group, key, message, at, ObjectRef.of(holder), related=also))
    for component, resolution in outcome.components.items():
        entry = graded.asking.get(resolution.mode or "")
        if entry is None:
            continue
        mode = policy.modes_in_force[resolution.mode or ""]
        message = policy.message(
            entry.message, component=component, mode=mode.name, replacement=mode.replacement or ""
        )
        where, holder = _mode_place(outcome, resolution)
        at, also = _placed(outcome, where, holder)
        found.append(
            _make(
                policy,
                FindingGroup.MODE,
                mode.name,
                message,
                at,
                ObjectRef.of(holder),
                related=also,
            )
        )
    # The mode values OME passes over, or the runtime's overriding (audit/edges.py).
    found.extend(isvc_edges(policy, isvc, outcome.components, outcome.runtime))
    for move_id, change in changes:
        holder = change.holder or isvc
        at, also = _placed(outcome, change.hit.location, holder)
        found.append(
            _make(
                policy,
                FindingGroup.MODE_MOVE,
                move_id,
                change.message,
                at,
                ObjectRef.of(holder),
                related=also,
            )
        )
    return tuple(found)


def pending_finding(policy: Policy, outcome: Outcome) -> Finding:
    """The model that waits for OME's model agent: what it lacks, who fills it
    in, and what OME answers the InferenceService until then; at the
    InferenceService's field naming the model, the model's place related."""
    pending = outcome.pending
    selection = policy.rules.selection
    agent = selection.model_agent if selection else None
    assert pending is not None and selection is not None and agent is not None
    model = pending.model
    values = {
        "kind": model.kind,
        "name": model.ref,
        "fields": ", ".join(pending.fields),
        "who": agent.who,
    }
    if pending.answer is None:
        message = policy.message(agent.message_quiet, **values)
    else:
        message = policy.message(agent.message, **values, answer=pending.answer)
    kind = _kind_of(policy, FindingGroup.PENDING, agent.id)
    return Finding(
        str(kind.severity),
        f"{FindingGroup.PENDING}/{agent.id}",
        message,
        _at(outcome.isvc, f"{selection.model_ref.path}.{selection.model_ref.name}"),
        ObjectRef.of(model),
        related=(related(model),),
        pending=True,
    )


def _undecided_runs(not_checked: Sequence[Any]) -> list[tuple[list[str], str]]:
    """The checks left undecided, a run of them undecided for the same reason
    together (the rollout checks after a policyRef): (check ids, why)."""
    runs: list[tuple[list[str], str]] = []
    for entry in not_checked:
        if runs and runs[-1][1] == entry.why:
            runs[-1][0].append(entry.check)
        else:
            runs.append(([entry.check], entry.why))
    return runs


def deprecated(policy: Policy, name: str | None) -> bool:
    """Whether mode `name` is deprecated in `policy`'s version, with somewhere to
    move to (a version without the replacement has nothing to move to)."""
    mode = policy.modes_in_force.get(name or "")
    if mode is None or mode.status != Status.DEPRECATED:
        return False
    return mode.replacement is None or mode.replacement in policy.modes_in_force


def _asks(policy: Policy, name: str | None) -> bool:
    """Whether a component running in mode `name` is a finding: a mode in force
    whose status in this version the rules grade (a mode current in this version,
    as MultiNode in v1.2.2, asks nothing), and (deprecated) with somewhere to
    move to."""
    mode = policy.modes_in_force.get(name or "")
    if mode is None or mode.status == Status.CURRENT:
        return False
    return deprecated(policy, name) if mode.status == Status.DEPRECATED else True


def move_targets(policy: Policy, outcome: Outcome) -> list[tuple[str, Any]]:
    """(component, move) for each component that runs, in the mode a move of the
    rules goes to: what that move breaks is broken now."""
    if outcome.no_workload:
        return []
    found = []
    for component, resolution in outcome.components.items():
        if component in outcome.reconcile or resolution.mode is None:
            continue
        for move in policy.rules.mode_moves:
            if move.to_mode == resolution.mode:
                found.append((component, move))
    return found


# --- the manifests ---------------------------------------------------------------


def invalid_finding(policy: Policy, error: ModetableError, obj: ObjectRef) -> Finding:
    """An object modetable cannot read, or one OME's webhook denies on apply
    (where the rules grade that apart), with the error `select` gives for it."""
    denied = error.code == ErrorCode.DENIED and _findings_rules(policy).manifest.denied
    return _make(
        policy,
        FindingGroup.MANIFEST,
        ManifestFinding.DENIED if denied else ManifestFinding.INVALID,
        error.message,
        error.location or Location("<input>"),
        obj,
    )


def schema_findings(policy: Policy, refused: Refused) -> list[Finding]:
    """An object the API server refuses by OME's CRD schema: one finding per
    problem (`schema/KIND`), at the field, with the server's text (and for an
    unknown field what kubectl's default makes of it), and the schema's
    closest names as the hint."""
    found = []
    obj = ObjectRef.of(refused.manifest)
    for problem in refused.problems:
        message = problem.text
        if problem.error == SchemaError.UNKNOWN_FIELD:
            message = policy.message("schema_unknown_field", error=problem.text)
        hint = None
        if problem.suggestions:
            names = " or ".join(f'"{name}"' for name in problem.suggestions)
            hint = policy.message("schema_did_you_mean", names=names)
        found.append(
            _make(policy, FindingGroup.SCHEMA, problem.error, message, problem.location, obj, hint)
        )
    return found


def duplicate_finding(policy: Policy, earlier: Manifest, later: Manifest) -> Finding:
    message = duplicate_message(earlier, later)
    return _make(
        policy,
        FindingGroup.MANIFEST,
        ManifestFinding.DUPLICATE,
        message,
        later.location,
        ObjectRef.of(later),
    )


def described(policy: Policy) -> list[tuple[str, str, str, str | None]]:
    """(id, description, severity, help) of every finding the rules grade, in file order."""
    return [
        (finding_id, kind.description, kind.severity, kind.help)
        for finding_id, kind in _findings_rules(policy).entries()
    ]


def pending_count(findings: Iterable[Finding]) -> int:
    """How many of `findings` wait for OME's model agent."""
    return sum(1 for f in findings if f.pending)


def counts(findings: Iterable[Finding]) -> dict[str, int]:
    """Findings counted by severity, every severity listed; the pending are
    counted apart (`pending_count`)."""
    tally = dict.fromkeys(SEVERITIES, 0)
    for finding in findings:
        if not finding.pending:
            tally[finding.severity] += 1
    return tally
