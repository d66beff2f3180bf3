"""Selection decided once: the steps of `selection.checks` run by one evaluator,
for one InferenceService or for a whole fleet.

The `Evaluator` holds the flow: the checks on a runtime in the rules' order
(the first failure is its reason), every candidate of a namespace in explain's
order, the runtime auto-selection picks, and the no-runtime message. How a
step's result is found is its `Strategy`'s: `Direct` runs every step (what
`modetable select` and `explain` do); a fleet passes `selection.memo.Memoised`,
built from the steps' declarations (`checks.STEPS`: what each reads, which
index decides it), which keeps each result per what decides it and prunes
runtimes by the indexes, so InferenceServices of one shape cost one decision.

Where no candidate was assessed, the picked runtime is found by ranking only
the runtimes that pass every check (`Strategy.failing`, check by check) and
assessing the winner alone; the no-runtime message by each runtime's first
failure alone; a pending outcome's runtimes (those that could be picked, or
else each one's first failure) the same ways. All give what assessing every
candidate gives.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from modetable.admission import Admission, Shown, admit
from modetable.inputs.formats import ModelFacts, model_facts
from modetable.inputs.manifests import Cluster, Manifest
from modetable.rules.model.selection import SelectionCheck
from modetable.rules.policy import Policy
from modetable.rules.words import Scope
from modetable.selection import scoring
from modetable.selection.checks import (
    STEPS,
    Candidate,
    CheckResult,
    CheckState,
    Context,
    RuntimeView,
    order,
    ranking_facts,
    runtime_view,
    skip_note,
)
from modetable.selection.compare import Comparisons
from modetable.selection.rules import selection_rules
from modetable.settled import frozen

__all__ = [
    "Direct",
    "Evaluator",
    "Excluded",
    "Ranked",
    "Strategy",
    "assess",
    "no_runtime_message",
    "no_runtime_reasons",
]

_T = TypeVar("_T")


class Strategy(Protocol):
    """How the evaluator finds a step's result and what it keeps between
    InferenceServices. Every answer is the one running the step gives."""

    def view(self, runtime: Manifest) -> RuntimeView:
        """The runtime as auto-selection reads it (its own spec)."""
        ...

    def named_view(self, runtime: Manifest) -> RuntimeView:
        """A named runtime as the checks read it (raises InheritanceError)."""
        ...

    def model_facts(self, model: Manifest) -> ModelFacts: ...

    def comparisons(self) -> Comparisons:
        """How entries are compared with the model."""
        ...

    def runtimes(self, namespace: str) -> Sequence[Manifest]:
        """The runtimes of `namespace` and the cluster, in the cluster's order."""
        ...

    def result(self, ctx: Context, view: RuntimeView, check: SelectionCheck) -> CheckResult:
        """One check on one runtime."""
        ...

    def ranking(self, ctx: Context, view: RuntimeView) -> dict[str, Any]:
        """What ranks a runtime that qualifies (`checks.ranking_facts`)."""
        ...

    def failing(
        self, ctx: Context, check: SelectionCheck, runtimes: set[Manifest]
    ) -> set[Manifest]:
        """Those of `runtimes` (auto-selection's views) that fail `check`."""
        ...

    def passing(self, ctx: Context, checks: Sequence[SelectionCheck]) -> set[Manifest]:
        """The runtimes of every namespace (auto-selection's views) that pass
        every one of `checks`."""
        ...

    def kept(self, ctx: Context, what: str, extra: Hashable, make: Callable[[], _T]) -> _T:
        """`make()`, or what it gave before for everything the checks read of
        this InferenceService and `extra`."""
        ...

    def admission(
        self, isvc: Manifest, cluster: Cluster, selection: tuple[Shown, ...], result: str | None
    ) -> Admission:
        """The admission verdict, given what selection shows (`admission.admit`)."""
        ...


@frozen(eq=False)
class Direct:
    """Every step run when asked, nothing kept: the reference."""

    policy: Policy
    cluster: Cluster

    def view(self, runtime: Manifest) -> RuntimeView:
        return runtime_view(self.policy, self.cluster, runtime, named=False)

    def named_view(self, runtime: Manifest) -> RuntimeView:
        return runtime_view(self.policy, self.cluster, runtime, named=True)

    def model_facts(self, model: Manifest) -> ModelFacts:
        return model_facts(selection_rules(self.policy), model)

    def comparisons(self) -> Comparisons:
        return Comparisons(self.policy)

    def runtimes(self, namespace: str) -> Sequence[Manifest]:
        return self.cluster.runtimes_for(namespace)

    def result(self, ctx: Context, view: RuntimeView, check: SelectionCheck) -> CheckResult:
        return STEPS[check.check].run(ctx, view, check)

    def ranking(self, ctx: Context, view: RuntimeView) -> dict[str, Any]:
        return ranking_facts(ctx, view)

    def failing(
        self, ctx: Context, check: SelectionCheck, runtimes: set[Manifest]
    ) -> set[Manifest]:
        return {r for r in runtimes if self.result(ctx, self.view(r), check).failed}

    def passing(self, ctx: Context, checks: Sequence[SelectionCheck]) -> set[Manifest]:
        left = set(self.cluster.runtimes)
        for check in checks:
            left -= self.failing(ctx, check, left)
        return left

    def kept(self, ctx: Context, what: str, extra: Hashable, make: Callable[[], _T]) -> _T:
        return make()

    def admission(
        self, isvc: Manifest, cluster: Cluster, selection: tuple[Shown, ...], result: str | None
    ) -> Admission:
        return admit(self.policy, isvc, cluster, selection=selection, result=result)


@frozen
class Ranked:
    """What the ranking reads of a runtime that qualifies (`scoring.rank_key`)."""

    runtime: Manifest
    scope: str
    name: str
    score: int | None
    distance: float | None


@frozen
class Excluded:
    """What the no-runtime message reads of a runtime that failed a check (of a
    `Candidate`, when every candidate was assessed)."""

    name: str
    scope: str
    listed: bool
    reason: str | None


class Evaluator:
    """The selection steps for one policy and cluster, run through a strategy.

    With `candidates`, every runtime of an InferenceService's namespace is
    assessed (the outcome lists them); without, only what the outcome needs.
    """

    def __init__(
        self,
        policy: Policy,
        cluster: Cluster,
        strategy: Strategy | None = None,
        *,
        candidates: bool = True,
    ) -> None:
        self.policy = policy
        self.cluster = cluster
        self.strategy: Strategy = strategy if strategy is not None else Direct(policy, cluster)
        self.with_candidates = candidates
        self.rules = selection_rules(policy)
        self._rank_key = scoring.rank_key(policy)
        self._not_reached = self.rules.explain.words["not_reached"]
        self._scope_labels = policy.rules.manifests.scope_labels
        # What stays the same for every InferenceService of the policy: each
        # check's skip note, a skipped check's result, the cluster's order.
        self._notes: dict[
            tuple[bool, bool, tuple[str, ...]], tuple[tuple[SelectionCheck, str | None], ...]
        ] = {}
        self._skipped: dict[tuple[str, str], CheckResult] = {}
        self._positions: dict[Manifest, int] | None = None

    # --- what select asks of the strategy ------------------------------------

    def model_facts(self, model: Manifest) -> ModelFacts:
        return self.strategy.model_facts(model)

    def comparisons(self) -> Comparisons:
        return self.strategy.comparisons()

    def named_view(self, runtime: Manifest) -> RuntimeView:
        return self.strategy.named_view(runtime)

    def admission(
        self, isvc: Manifest, cluster: Cluster, selection: tuple[Shown, ...], result: str | None
    ) -> Admission:
        return self.strategy.admission(isvc, cluster, selection, result)

    # --- one runtime -------------------------------------------------------------

    def notes(self, ctx: Context, named: bool) -> tuple[tuple[SelectionCheck, str | None], ...]:
        """Each check with why it is skipped (`checks.skip_note`), or None when it runs."""
        # A model waiting for OME's model agent leaves the checks reading what
        # it lacks pending (`checks.skip_note`).
        key = (named, ctx.isvc is None, ctx.model.waiting)
        found = self._notes.get(key)
        if found is None:
            found = self._notes[key] = tuple(
                (check, skip_note(ctx, check, named)) for check in self.rules.checks
            )
        return found

    def _skip(self, check: SelectionCheck, note: str) -> CheckResult:
        key = (check.id, note)
        found = self._skipped.get(key)
        if found is None:
            found = self._skipped[key] = CheckResult(
                check=check.id, step=check.check, state=CheckState.SKIPPED, skip_note=note
            )
        return found

    def assess(
        self,
        ctx: Context,
        runtime: Manifest,
        *,
        named: bool = False,
        full: bool = False,
        view: RuntimeView | None = None,
    ) -> Candidate:
        """The checks in order on one runtime; the first failure is its reason.

        With `full`, the checks after the first failure run too (for a trace);
        otherwise they are recorded as not reached.
        """
        if full:
            return self._assess(ctx, runtime, named, True, view)
        return self.strategy.kept(
            ctx,
            "assessed",
            (runtime, named),
            lambda: self._assess(ctx, runtime, named, False, view),
        )

    def _assess(
        self, ctx: Context, runtime: Manifest, named: bool, full: bool, view: RuntimeView | None
    ) -> Candidate:
        strategy = self.strategy
        if view is None:
            view = strategy.named_view(runtime) if named else strategy.view(runtime)
        results: list[CheckResult] = []
        failure: CheckResult | None = None
        failed_rule: SelectionCheck | None = None
        for check, note in self.notes(ctx, named):
            if note is None and failure is not None and not full:
                note = self._not_reached
            if note is not None:
                results.append(self._skip(check, note))
                continue
            result = strategy.result(ctx, view, check)
            results.append(result)
            if result.failed and failure is None:
                failure, failed_rule = result, check
        extras = strategy.ranking(ctx, view) if failure is None else {}
        return Candidate(
            runtime=runtime,
            scope_label=self._scope_labels[runtime.scope],
            named=named,
            compatible=failure is None,
            reason=failure.reason if failure else None,
            failed_check=failure.check if failure else None,
            listed=failed_rule.listed if failed_rule else False,
            checks=tuple(results),
            **extras,
        )

    def named_check(self, ctx: Context, runtime: Manifest, view: RuntimeView) -> Candidate:
        """The named runtime's own check (its inherited spec read, as `view` holds it)."""
        return self.assess(ctx, runtime, named=True, view=view)

    # --- every runtime of a namespace ----------------------------------------------

    def candidates(self, ctx: Context) -> tuple[Candidate, ...]:
        """Every runtime of the namespace and cluster, assessed, in explain's order
        (`checks.order`); empty when the evaluator does not want them."""
        if not self.with_candidates:
            return ()
        return self.strategy.kept(ctx, "candidates", ctx.namespace, lambda: self._all(ctx))

    def could_pick(self, ctx: Context) -> tuple[str, ...]:
        """The names of the runtimes of the namespace and cluster that pass
        every check, each once, in explain's order (what a pending outcome
        lists): from the candidates, or else from the ranking alone."""
        if self.with_candidates:
            found = self.candidates(ctx)
            return tuple(dict.fromkeys(c.name for c in found if c.compatible))
        return self.strategy.kept(ctx, "could_pick", ctx.namespace, lambda: self._could(ctx))

    def _could(self, ctx: Context) -> tuple[str, ...]:
        ranked = self.strategy.kept(ctx, "ranked", None, lambda: self._ranked(ctx))
        namespace = ctx.namespace
        return tuple(
            dict.fromkeys(r.name for r in ranked if r.namespace is None or r.namespace == namespace)
        )

    def first_failures(self, ctx: Context) -> tuple[Candidate | Excluded, ...]:
        """Each runtime of the namespace and cluster with the check it fails
        first (none passes them all): the candidates, or else check by check."""
        if self.with_candidates:
            return self.candidates(ctx)
        return self.strategy.kept(ctx, "excluded", self._seen(ctx), lambda: self._excluded(ctx))

    def _seen(self, ctx: Context) -> tuple[Manifest, ...]:
        """The runtimes `ctx`'s namespace sees: what the runtimes' first
        failures depend on besides the InferenceService's shape (the
        namespaces holding no runtime of their own see the cluster's alone,
        and share its answers)."""
        return tuple(self.strategy.runtimes(ctx.namespace))

    def _all(self, ctx: Context) -> tuple[Candidate, ...]:
        runtimes = self.strategy.runtimes(ctx.namespace)
        return order(self.policy, [self.assess(ctx, runtime) for runtime in runtimes])

    def best(self, ctx: Context, candidates: tuple[Candidate, ...]) -> Candidate | None:
        """The runtime auto-selection picks, or None."""
        if self.with_candidates:
            return next((c for c in candidates if c.compatible), None)
        return self.strategy.kept(ctx, "best", ctx.namespace, lambda: self._best(ctx))

    def _best(self, ctx: Context) -> Candidate | None:
        """The first runtime in rank order the namespace may use, assessed alone."""
        ranked = self.strategy.kept(ctx, "ranked", None, lambda: self._ranked(ctx))
        namespace = ctx.namespace
        winner = next((r for r in ranked if r.namespace is None or r.namespace == namespace), None)
        if winner is None:
            return None
        picked = self.assess(ctx, winner)
        assert picked.compatible, f"{winner.ref} passed every check, yet {picked.reason}"
        return picked

    def _ranked(self, ctx: Context) -> tuple[Manifest, ...]:
        """The runtimes of every namespace that qualify, in rank order (ties in the
        cluster's order, as `checks.order` leaves them)."""
        if self._positions is None:
            self._positions = {runtime: i for i, runtime in enumerate(self.cluster.runtimes)}
        strategy = self.strategy
        ranked = []
        in_force = [check for check, note in self.notes(ctx, False) if note is None]
        qualifying = strategy.passing(ctx, in_force)
        for runtime in sorted(qualifying, key=self._positions.__getitem__):
            facts = strategy.ranking(ctx, strategy.view(runtime))
            ranked.append(
                Ranked(
                    runtime=runtime,
                    scope=runtime.scope,
                    name=runtime.name,
                    score=facts.get("score"),
                    distance=facts.get("distance"),
                )
            )
        return tuple(r.runtime for r in sorted(ranked, key=self._rank_key))

    def no_runtime(self, ctx: Context, candidates: tuple[Candidate, ...]) -> str:
        """The no-runtime message; without assessed candidates, from each
        runtime's first failure alone."""
        if candidates:
            return self.strategy.kept(
                ctx, "no_runtime", ctx.namespace, lambda: no_runtime_message(ctx, candidates)
            )
        # Only the first part names the namespace: the runtimes' part is kept
        # per the runtimes it sees.
        reasons = self.strategy.kept(
            ctx,
            "no_runtime_reasons",
            self._seen(ctx),
            lambda: no_runtime_reasons(ctx.policy, self._excluded(ctx)),
        )
        return _no_runtime_joined(ctx, reasons)

    def _excluded(self, ctx: Context) -> tuple[Excluded, ...]:
        """Each runtime of the namespace with the check it fails first, check by
        check over sets."""
        strategy = self.strategy
        runtimes = strategy.runtimes(ctx.namespace)
        left = set(runtimes)
        first: dict[Manifest, tuple[SelectionCheck, CheckResult]] = {}
        for check, note in self.notes(ctx, False):
            if note is not None or not left:
                continue
            failing = strategy.failing(ctx, check, left)
            for runtime in failing:
                first[runtime] = (check, strategy.result(ctx, strategy.view(runtime), check))
            left -= failing
        assert not left, f"{', '.join(r.ref for r in left)} qualify, yet none was picked"
        return tuple(
            Excluded(
                name=r.name, scope=r.scope, listed=first[r][0].listed, reason=first[r][1].reason
            )
            for r in runtimes
        )


def assess(ctx: Context, runtime: Manifest, **options: Any) -> Candidate:
    """The checks in order on one runtime, each step run: `Evaluator.assess`
    with its options (`named`, `full`, `view`)."""
    return Evaluator(ctx.policy, ctx.cluster).assess(ctx, runtime, **options)


def no_runtime_message(ctx: Context, candidates: Iterable[Candidate | Excluded]) -> str:
    """`no runtime found to support model ...`: the counts, and the runtimes that
    failed a listed check, by name, each with its first reason."""
    return _no_runtime_joined(ctx, no_runtime_reasons(ctx.policy, tuple(candidates)))


def _no_runtime_joined(ctx: Context, reasons: tuple[str, ...]) -> str:
    """The no-runtime message: its first part (the model's format and the
    namespace), then `reasons` (`no_runtime_reasons`)."""
    policy = ctx.policy
    first = policy.message(
        "no_runtime_found", format=ctx.model.format_name, namespace=ctx.namespace
    )
    return selection_rules(policy).no_runtime.separator.join((first, *reasons))


def no_runtime_reasons(
    policy: Policy, candidates: tuple[Candidate | Excluded, ...]
) -> tuple[str, ...]:
    """The no-runtime message's parts after the first: the counts, and the
    runtimes that failed a listed check, by name, each with its first reason."""
    rules = selection_rules(policy).no_runtime
    parts: list[str] = []
    if candidates:
        namespaced = sum(1 for c in candidates if c.scope == Scope.NAMESPACE)
        parts.append(
            policy.message(
                "no_runtime_checked",
                total=len(candidates),
                namespaced=namespaced,
                cluster=len(candidates) - namespaced,
            )
        )
    scope = scoring.scope_order(policy)
    excluded = sorted((c for c in candidates if c.listed), key=lambda c: (c.name, scope(c.scope)))
    if excluded:
        items = rules.item_separator.join(
            policy.message("excluded_runtime", runtime=c.name, reason=c.reason) for c in excluded
        )
        parts.append(policy.message("no_runtime_excluded", excluded=items))
    return tuple(parts)
