"""Every InferenceService of a cluster, audited: the outcome OME reaches (`select`
through the fleet's memoising, pruning strategy), what is wrong with it, and the
deprecated modes its components run in, with what moving them to the
replacement changes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs

from modetable.audit.findings import (
    Grading,
    counts,
    deprecated,
    grading,
    move_targets,
    outcome_findings,
)
from modetable.audit.moves import Hit, find_move, hit_message, scan
from modetable.audit.triage import Sorted, Suppressed
from modetable.inputs.manifests import Cluster, Manifest
from modetable.reports.finding import Finding, worst
from modetable.rules.model.modes import ModeMove
from modetable.rules.policy import Policy
from modetable.rules.words import OUTCOMES_PENDING
from modetable.selection import Evaluator, Memoised, Outcome, select
from modetable.settled import frozen

__all__ = [
    "DENIED",
    "NO_RUNTIME",
    "PROBLEMS",
    "RUN_FAILURE",
    "AuditSummary",
    "Audited",
    "Change",
    "Deprecation",
    "MoveScanner",
    "audit_fleet",
    "audit_one",
    "broken_now",
    "deprecations",
    "distinct_changes",
]

# What can be wrong with an InferenceService; any of these makes `audit` exit 1.
DENIED = "denied"
NO_RUNTIME = "no_runtime"
RUN_FAILURE = "run_failure"
PROBLEMS = (DENIED, NO_RUNTIME, RUN_FAILURE)


@frozen
class Change:
    """One thing in a spec that a mode move breaks, and what to do about it."""

    owner: str  # "KIND NAME" of the object holding it
    hit: Hit
    message: str
    holder: Manifest | None = attrs.field(default=None, eq=False)  # that object


@frozen
class Deprecation:
    """A component running in a deprecated mode, and the move to its replacement."""

    component: str
    mode: str
    source: str | None
    replacement: str | None
    message: str
    changes: tuple[Change, ...] = ()


@frozen(eq=False)
class Audited:
    """One InferenceService audited: its `findings` (those that count, once
    sorted by `triage.Triage`), those the baseline `known`s and those `suppressed`."""

    isvc: Manifest
    outcome: Outcome
    deprecations: tuple[Deprecation, ...]
    findings: tuple[Finding, ...] = ()
    known: tuple[Finding, ...] = ()
    suppressed: tuple[Suppressed, ...] = ()

    @property
    def ok(self) -> bool:
        """No finding that counts, of any severity."""
        return not self.findings

    def sorted_as(self, found: Sorted) -> Audited:
        """This item with its findings sorted as `found` says."""
        return attrs.evolve(
            self, findings=found.new, known=found.known, suppressed=found.suppressed
        )

    @property
    def pending(self) -> bool:
        """Nothing found but what waits for OME's model agent."""
        return bool(self.findings) and all(f.pending for f in self.findings)

    @property
    def problems(self) -> tuple[str, ...]:
        """What OME would refuse or fail at, in the order of PROBLEMS."""
        return _problems_of(self.outcome)


def _problems_of(outcome: Outcome) -> tuple[str, ...]:
    found = []
    if not outcome.admission.allowed:
        found.append(DENIED)
    # A virtual one needs none; a pending one has runtimes that could be picked.
    if outcome.runtime is None and outcome.resolved and outcome.result not in OUTCOMES_PENDING:
        found.append(NO_RUNTIME)
    if outcome.reconcile:
        found.append(RUN_FAILURE)
    return tuple(found)


def _owner_of(manifest: Manifest) -> str:
    return f"{manifest.kind} {manifest.ref}"


class MoveScanner:
    """What a move breaks in a spec; a runtime's spec is scanned once per move."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self._runtimes: dict[tuple[str, Manifest], tuple[Change, ...]] = {}

    def changes(self, move: ModeMove, manifest: Manifest) -> tuple[Change, ...]:
        owner = _owner_of(manifest)
        return tuple(
            Change(
                owner=owner,
                hit=hit,
                message=hit_message(self.policy, move, hit, owner),
                holder=manifest,
            )
            for hit in scan(move, manifest.spec, "spec", manifest.location)
        )

    def runtime_changes(self, move: ModeMove, runtime: Manifest) -> tuple[Change, ...]:
        key = (move.id, runtime)
        found = self._runtimes.get(key)
        if found is None:
            found = self._runtimes[key] = self.changes(move, runtime)
        return found

    def move_changes(
        self, move: ModeMove | None, isvc: Manifest, runtime: Manifest | None
    ) -> tuple[Change, ...]:
        """What `move` breaks in the runtime used and in the InferenceService."""
        if move is None:
            return ()
        found = self.runtime_changes(move, runtime) if runtime is not None else ()
        return (*found, *self.changes(move, isvc))


def distinct_changes(items: list[Any]) -> list[Any]:
    """`items` (each with `changes`) with a change already listed by an earlier
    item left out: two components moving together share the runtime's spec."""
    seen: set[tuple[str, str, str]] = set()
    kept = []
    for item in items:
        changes = []
        for change in item.changes:
            key = (change.owner, change.hit.path, change.hit.name)
            if key not in seen:
                seen.add(key)
                changes.append(change)
        kept.append(attrs.evolve(item, changes=tuple(changes)))
    return kept


def deprecations(policy: Policy, outcome: Outcome, scanner: MoveScanner) -> tuple[Deprecation, ...]:
    found = []
    for component, resolution in outcome.components.items():
        if not deprecated(policy, resolution.mode):
            continue
        mode = policy.modes_in_force[resolution.mode or ""]
        move = find_move(policy, mode.name, mode.replacement)
        found.append(
            Deprecation(
                component=component,
                mode=mode.name,
                source=resolution.source_label,
                replacement=mode.replacement,
                message=policy.message(
                    "deprecated_mode",
                    component=component,
                    mode=mode.name,
                    replacement=mode.replacement or "",
                ),
                changes=scanner.move_changes(move, outcome.isvc, outcome.runtime),
            )
        )
    return tuple(distinct_changes(found))


def audit_fleet(
    policy: Policy,
    cluster: Cluster,
    *,
    candidates: bool = False,
    advance: Callable[[], None] | None = None,
    isvcs: Iterable[Manifest] | None = None,
) -> Iterator[Audited]:
    """Every InferenceService of `cluster` (or those of `isvcs`), in order, one at
    a time (a fleet's outcomes need not all be held at once)."""
    evaluator = Evaluator(policy, cluster, Memoised(policy, cluster), candidates=candidates)
    scanner = MoveScanner(policy)
    graded = grading(policy)
    for isvc in isvcs if isvcs is not None else cluster.isvcs:
        yield audit_one(policy, select(policy, cluster, isvc, evaluator), scanner, graded)
        if advance is not None:
            advance()


def audit_one(
    policy: Policy, outcome: Outcome, scanner: MoveScanner, graded: Grading | None = None
) -> Audited:
    """One InferenceService's outcome with its deprecations and findings
    (`graded`: the policy's grading, worked out once for a fleet)."""
    return Audited(
        outcome.isvc,
        outcome,
        deprecations(policy, outcome, scanner),
        outcome_findings(graded or grading(policy), outcome, broken_now(outcome, scanner)),
    )


def broken_now(outcome: Outcome, scanner: MoveScanner) -> list[tuple[str, Change]]:
    """(move id, change) for each name a component's running mode does not set,
    though the runtime's or the InferenceService's spec uses it: the check of
    a move, against the mode each component runs in now."""
    found: list[tuple[str, Change]] = []
    seen: set[tuple[str, str, str]] = set()
    moves = {move.id: move for _component, move in move_targets(scanner.policy, outcome)}
    for move in moves.values():  # components moving together share the specs
        for change in scanner.move_changes(move, outcome.isvc, outcome.runtime):
            key = (change.owner, change.hit.path, change.hit.name)
            if key not in seen:
                seen.add(key)
                found.append((move.id, change))
    return found


class AuditSummary:
    """The counts at the end of an audit, gathered item by item."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.isvcs = self.ok = self.pending = self.deprecated = 0
        self.pending_findings = 0  # counted apart from the severities
        self.problems = dict.fromkeys(PROBLEMS, 0)
        self.results: dict[str, int] = {}
        self.modes: dict[str, dict[str, int]] = {c.name: {} for c in policy.components}
        self.severity = counts(())  # InferenceServices by their most severe finding
        self.findings = counts(())  # every finding that counts, the manifests' own included
        self.known = counts(())  # the findings the baseline knows
        self.suppressed = counts(())  # the findings an exception suppressed
        self.fixed: int | None = None  # the baseline's entries not met (None: no baseline)
        self.manifest_findings: list[Finding] = []
        self.manifest_known: list[Finding] = []
        self.manifest_suppressed: list[Suppressed] = []

    def add(self, item: Audited) -> Audited:
        self.isvcs += 1
        problems = item.problems
        self.ok += item.ok
        self.pending += item.pending
        for problem in problems:
            self.problems[problem] += 1
        self.deprecated += bool(item.deprecations)
        result = item.outcome.result
        self.results[result] = self.results.get(result, 0) + 1
        for component, resolution in item.outcome.components.items():
            tally = self.modes[component]
            mode = resolution.mode or ""
            tally[mode] = tally.get(mode, 0) + 1
        self._count(item.findings, item.known, item.suppressed)
        top = worst(item.findings)
        if top is not None:
            self.severity[top] += 1
        return item

    def add_manifest_findings(self, found: Sorted) -> None:
        """Findings about the manifests (an object left out, one defined twice)."""
        self.manifest_findings.extend(found.new)
        self.manifest_known.extend(found.known)
        self.manifest_suppressed.extend(found.suppressed)
        self._count(found.new, found.known, found.suppressed)

    def _count(
        self,
        findings: Iterable[Finding],
        known: Iterable[Finding] = (),
        suppressed: Iterable[Suppressed] = (),
    ) -> None:
        for finding in findings:
            if finding.pending:
                self.pending_findings += 1
            else:
                self.findings[finding.severity] += 1
        for finding in known:
            self.known[finding.severity] += 1
        for each in suppressed:
            self.suppressed[each.finding.severity] += 1

    @property
    def clean(self) -> bool:
        return self.ok == self.isvcs and not self.manifest_findings

    def fails(self, threshold: str | None) -> bool:
        """Whether any finding is `threshold` or more severe (None: never)."""
        from modetable.reports.finding import at_least

        if threshold is None:
            return False
        return any(at_least(s, threshold) for s, n in self.findings.items() if n)
