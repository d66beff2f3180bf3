"""Selection for a whole fleet, fast: the same outcomes as `selection.select`,
without assessing every runtime for every InferenceService.

`selection.select` is the reference, and `tests/test_audit_fast.py` holds this
module to it over the real catalog and a synthetic fleet. What makes it fast:

- Pruning. A runtime that fails one of the checks in force cannot be picked:
  disabled, missing an accelerator class, rejected by the mode table (the
  index's groups of declared modes, with the compiled table), or with no entry
  of the model's format, framework, architecture and quantization (an index of
  entries by those names). Only the runtimes left are assessed, exactly.
- Memoising by shape. InferenceServices that agree on the model, the
  accelerator classes and the modes they request (their *shape*) get the same
  verdict from every cluster runtime, whatever their namespace; a runtime's
  assessment is kept per (shape, runtime), and each check per what it reads
  (the mode check per request, the model checks per model, and so on).
- The no-runtime message, which lists every excluded runtime, is built once
  per shape and namespace.

`candidates` (the hypothetical auto-selection over every runtime) costs one
assessment per runtime and shape; it is computed only when asked for.

`FleetSelector` is a `selection.Chooser`: `select` itself runs, and only asks
it how to find the candidates, the winner and the no-runtime message; so the
outcome's flow (models, named runtimes, admission, events) is `select`'s own.
A memoised assessment's trace (the requested side's readings and their
positions) is that of the first InferenceService of its shape; everything
select's JSON shows (`views.select.OutcomeView`) is the InferenceService's own.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

import attrs

from modetable.admission import Admission, Shown, admit
from modetable.admission.fields import field_plan
from modetable.audit.model_checks import MemoComparisons, entry_key, model_key
from modetable.engine.index import RuntimeIndex, build_index, request_of
from modetable.engine.matching import ComponentMatch, RuntimeMatch
from modetable.engine.runtimes import InheritanceError
from modetable.inputs.manifests import Cluster, Manifest
from modetable.rules.model.selection import SelectionCheck
from modetable.rules.policy import Policy
from modetable.rules.words import SelectionStep
from modetable.selection import (
    STEPS,
    Candidate,
    CheckResult,
    CheckState,
    Context,
    ModelFacts,
    Outcome,
    RuntimeView,
    assess,
    model_facts,
    no_runtime_message,
    order,
    rank_key,
    ranking_facts,
    read_field,
    runtime_view,
    select,
    selection_rules,
    skip_note,
)
from modetable.versions import in_force

__all__ = ["Excluded", "FleetSelector", "Ranked", "Shape"]

# The steps pruning knows how to decide from an index; any other step is only
# ever run, never pruned on. Steps whose result depends on the runtime alone,
# or on it and the model:
_RUNTIME_STEPS = frozenset({SelectionStep.DISABLED, SelectionStep.AUTO_SELECT})
_MODEL_STEPS = frozenset(
    {SelectionStep.MODEL_FORMAT, SelectionStep.MODEL_SIZE, SelectionStep.SCORE}
)
# Steps that depend on the InferenceService beyond its model, and that pruning
# decides exactly from an index.
_SHAPE_STEPS = frozenset({SelectionStep.ACCELERATOR_CLASS, SelectionStep.DEPLOYMENT_MODE})
# Steps that read nothing of the InferenceService but its accelerator classes
# and requested modes.
_LEAD_STEPS = _RUNTIME_STEPS | _SHAPE_STEPS
# Model steps that read nothing of the runtime but its entries.
_ENTRY_STEPS = frozenset({SelectionStep.MODEL_FORMAT, SelectionStep.SCORE})

# An InferenceService's shape: the model, its accelerator classes (with the
# paths that named them), the modes it requests per compared component, and
# the sources that gave them (which the mode check's trace shows).
Shape = tuple[
    Manifest,
    tuple[tuple[str, str], ...],
    tuple[tuple[str, str | None], ...],
    tuple[str | None, ...],
]


@attrs.frozen
class Ranked:
    """What the ranking reads of a runtime that qualifies (selection.rank_key)."""

    runtime: Manifest
    scope: str
    name: str
    score: int | None
    distance: float | None


@attrs.frozen
class _Unqualified:
    """A runtime as `selection.order` sorts one that does not qualify."""

    runtime: Manifest
    compatible = False

    @property
    def scope(self) -> str:
        return self.runtime.scope

    @property
    def name(self) -> str:
        return self.runtime.name


@attrs.frozen
class _Keys:
    """What one InferenceService's checks are memoised by."""

    shape: Shape
    model: int  # the model's format facts (model_key), interned
    size: str | None
    classes: tuple[tuple[str, str], ...]
    modes: int  # the request and the sources that gave it, interned

    @property
    def checked(self) -> tuple[int, str | None, tuple[tuple[str, str], ...], int]:
        """Everything auto-selection's checks read of the InferenceService."""
        return (self.model, self.size, self.classes, self.modes)


@attrs.frozen
class Excluded:
    """What the no-runtime message reads of a runtime that failed a check
    (`selection.outcome.no_runtime_message` reads these of a Candidate)."""

    name: str
    scope: str
    listed: bool
    reason: str | None


def _format_key(format_name: str | None, framework: str | None, *attributes: str | None) -> tuple:
    return (format_name, framework, *attributes)


class FleetSelector:
    """`select` for every InferenceService of one cluster, under one policy."""

    def __init__(self, policy: Policy, cluster: Cluster, *, candidates: bool = False) -> None:
        self.policy = policy
        self.cluster = cluster
        self.with_candidates = candidates
        self.rules = selection_rules(policy)
        self.index: RuntimeIndex = build_index(policy, cluster)
        self.compare = MemoComparisons(policy)
        # The checks auto-selection runs in this version, in order.
        self.checks: tuple[SelectionCheck, ...] = tuple(
            c for c in self.rules.checks if in_force(c.since, c.until, policy.version)
        )
        self._steps_in_force = frozenset(c.check for c in self.checks)
        self._views: dict[Manifest, RuntimeView] = {}
        self._facts: dict[Manifest, ModelFacts] = {}
        # Whether pruning decides every check in force exactly (else the runtimes
        # it leaves are assessed one by one).
        self._exact = self._steps_in_force <= _RUNTIME_STEPS | _MODEL_STEPS | _SHAPE_STEPS
        self._rank_key = rank_key(policy)
        self._by_format: dict[tuple, frozenset[Manifest]] | None = None
        self._with_classes: dict[tuple[str, ...], frozenset[Manifest]] = {}
        self._model_passing: dict[Hashable, frozenset[Manifest]] = {}
        self._qualifying: dict[tuple, frozenset[Manifest]] = {}
        self._steps: dict[Hashable, CheckResult] = {}
        self._ranking: dict[Hashable, dict[str, Any]] = {}
        self._assessed: dict[tuple, dict[Manifest, Candidate]] = {}
        self._lead: int | None = None
        self._leads: dict[tuple, dict[Manifest, tuple]] = {}
        self._last_leads: tuple[_Keys, dict[Manifest, tuple]] | None = None
        self._check_notes: tuple[tuple[SelectionCheck, str | None], ...] | None = None
        self._best: dict[tuple[tuple, str], Candidate | None] = {}
        self._rankings: dict[tuple, tuple[Manifest, ...]] = {}
        self._positions = {runtime: i for i, runtime in enumerate(cluster.runtimes)}
        self._ranks: dict[Hashable, Ranked] = {}
        self._messages: dict[tuple[tuple, str], str] = {}
        # Small ints standing for what a memo key would otherwise hash again on
        # every lookup (a model's format facts, a request with its sources).
        self._ids: dict[Hashable, int] = {}
        self._entry_lists: dict[Manifest, tuple[int, int]] = {}
        self._listings: dict[str, tuple[Manifest, ...]] = {}
        self._by_name: tuple[Manifest, ...] | None = None
        self._fail_sets: dict[str, frozenset[Manifest]] = {}
        self._verdicts: dict[tuple[str, int, int], bool] = {}
        self._named_views: dict[Manifest, RuntimeView | InheritanceError] = {}
        self._named_checks: dict[tuple[tuple, Manifest], Candidate] = {}
        self._last: tuple[Context, _Keys] | None = None
        self._skipped: dict[tuple[str, str], CheckResult] = {}
        self._tails: dict[int, tuple[CheckResult, ...]] = {}
        self._not_reached = self.rules.explain.words["not_reached"]
        self._scope_labels = policy.rules.manifests.scope_labels
        self._field_plan = field_plan(policy)
        self._entries_path = self.rules.runtime.entries
        self._entry_lines: dict[tuple[int, int, int], tuple[bool, tuple[str, str], str]] = {}

    # --- per runtime and per model, once -------------------------------------

    def view(self, runtime: Manifest) -> RuntimeView:
        """The runtime as auto-selection reads it (its own spec)."""
        found = self._views.get(runtime)
        if found is None:
            found = self._views[runtime] = runtime_view(
                self.policy, self.cluster, runtime, named=False
            )
        return found

    def facts(self, model: Manifest) -> ModelFacts:
        found = self._facts.get(model)
        if found is None:
            found = self._facts[model] = model_facts(self.rules, model)
        return found

    # --- pruning ---------------------------------------------------------------

    def _runtimes_listing(self, classes: tuple[str, ...]) -> frozenset[Manifest]:
        """The runtimes that list every one of `classes` (the accelerator check)."""
        found = self._with_classes.get(classes)
        if found is None:
            path = self.rules.runtime.accelerator_classes
            found = frozenset(
                r
                for r in self.cluster.runtimes
                if set(classes) <= set(read_field(r.body, path, list, r.location) or ())
            )
            self._with_classes[classes] = found
        return found

    def _format_groups(self) -> dict[tuple, frozenset[Manifest]]:
        """Runtimes by the names an entry must share with the model to match it."""
        if self._by_format is None:
            groups: dict[tuple, set[Manifest]] = {}
            for runtime in self.cluster.runtimes:
                for entry in self.view(runtime).entries:
                    key = _format_key(
                        entry.format.name,
                        entry.framework.name,
                        entry.architecture,
                        entry.quantization,
                    )
                    groups.setdefault(key, set()).add(runtime)
            self._by_format = {key: frozenset(members) for key, members in groups.items()}
        return self._by_format

    def _passing_model(self, ctx: Context, shape: Shape) -> frozenset[Manifest]:
        """The runtimes (any namespace) that pass every check reading only the
        runtime and the model; kept per model value and size."""
        model = ctx.model
        key = (model_key(model), model.size)
        found = self._model_passing.get(key)
        if found is not None:
            return found
        pool: Iterable[Manifest] = self.cluster.runtimes
        if SelectionStep.MODEL_FORMAT in self._steps_in_force:
            names = _format_key(
                model.format.name if model.format else None,
                model.framework.name if model.framework else None,
                model.architecture,
                model.quantization,
            )
            pool = self._format_groups().get(names, frozenset())
        # The runtime-only checks by set (each decided once per runtime), then the
        # model's checks on what is left.
        left = frozenset(pool)
        for check in self.checks:
            if check.check in _RUNTIME_STEPS:
                left -= self._failing_alone(ctx, shape, check)
        for check in self.checks:
            if check.check in _MODEL_STEPS:
                left = frozenset(r for r in left if self._passes(ctx, shape, r, check))
        self._model_passing[key] = left
        return left

    def _passes(self, ctx: Context, shape: Shape, runtime: Manifest, check: SelectionCheck) -> bool:
        """Whether `runtime` passes a model check, without its result where only the
        verdict is wanted: the format check passes when an entry matches the model,
        the score check when the score is above 0 (as `selection.checks` decides)."""
        step = check.check
        if step not in _ENTRY_STEPS:
            return not self._step(ctx, shape, self.view(runtime), check).failed
        view = self.view(runtime)
        key = (step, self._keys(ctx).model, self._entries_id(view, step))
        found = self._verdicts.get(key)
        if found is None:
            if step == SelectionStep.MODEL_FORMAT:
                found = self.compare.first_match(view.entries, ctx.model) is not None
            else:
                found = self.compare.score(view.entries, ctx.model) > 0
            self._verdicts[key] = found
        return found

    def _failing_alone(
        self, ctx: Context, shape: Shape, check: SelectionCheck
    ) -> frozenset[Manifest]:
        """The runtimes that fail a check reading nothing but the runtime (once)."""
        found = self._fail_sets.get(check.id)
        if found is None:
            found = self._fail_sets[check.id] = frozenset(
                r
                for r in self.cluster.runtimes
                if self._step(ctx, shape, self.view(r), check).failed
            )
        return found

    def qualifying(self, ctx: Context, shape: Shape) -> frozenset[Manifest]:
        """The runtimes (any namespace) that pass the checks pruning decides: with
        only the rules' usual checks in force, exactly those that qualify."""
        key = self._keys(ctx).checked
        found = self._qualifying.get(key)
        if found is None:
            found = self._passing_model(ctx, shape)
            if SelectionStep.ACCELERATOR_CLASS in self._steps_in_force and ctx.classes:
                found = found & self._runtimes_listing(tuple(name for _path, name in ctx.classes))
            if SelectionStep.DEPLOYMENT_MODE in self._steps_in_force:
                found = found & self.index.mode_passing(shape[2])
            self._qualifying[key] = found
        return found

    # --- assessing one runtime, as checks.assess does ----------------------------

    def _mode_step(self, ctx: Context, runtime: Manifest, check: SelectionCheck) -> CheckResult:
        """The mode check from the index's declared modes and the compiled table."""
        assert ctx.requested is not None
        compiled = self.index.compiled
        declared = self.index.declared[runtime]
        components = []
        for component, requested in ctx.requested.items():
            decision = compiled.decision(component, requested.mode, declared[component].mode)
            components.append(
                ComponentMatch(
                    component=component,
                    requested=requested,
                    declared=declared[component],
                    row=decision.row,
                    outcome=decision.outcome,
                    reason=decision.reason,
                )
            )
        match = RuntimeMatch(runtime=runtime, named=False, components=tuple(components))
        failed = not match.passed
        return CheckResult(
            check=check.id,
            step=check.check,
            state=CheckState.FAILED if failed else CheckState.PASSED,
            reason=match.reason if failed else None,
            match=match,
        )

    def _format_step(self, ctx: Context, view: RuntimeView, check: SelectionCheck) -> CheckResult:
        """The format check (`checks._check_model_format`), each entry's line of
        its trace kept per model, entry and place."""
        compare = self.compare
        model = ctx.model
        model_id = self._keys(ctx).model
        inputs = [("model", compare.label(model))]
        parts = []
        matched = False  # an entry with no difference (compare.first_match)
        for entry in view.entries:
            key = (model_id, compare.entry_id(entry), entry.index)
            found = self._entry_lines.get(key)
            if found is None:
                alike, shown, part = compare.entry_texts(entry, model)
                line = (f"{self._entries_path}[{entry.index}]", shown)
                found = self._entry_lines[key] = (alike, line, part)
            matched = matched or found[0]
            inputs.append(found[1])
            parts.append(found[2])
        reason = None if matched else compare.format_reason(view.entries, model, parts)
        return CheckResult(
            check=check.id,
            step=check.check,
            state=CheckState.PASSED if matched else CheckState.FAILED,
            reason=reason,
            inputs=tuple(inputs),
        )

    def _keys(self, ctx: Context) -> _Keys:
        """The memo keys of one InferenceService's checks, made once per `select`."""
        last = self._last
        if last is not None and last[0] is ctx:
            return last[1]
        model = ctx.model
        shape = _shape(ctx)
        keys = _Keys(
            shape=shape,
            model=self._id(model_key(model)),
            size=model.size,
            classes=ctx.classes,
            modes=self._id((shape[2], shape[3])),
        )
        self._last = (ctx, keys)
        return keys

    def _id(self, value: Hashable) -> int:
        return self._ids.setdefault(value, len(self._ids))

    def _entries_id(self, view: RuntimeView, step: str) -> int:
        """The runtime's entries as the format check (their place and what is
        compared) or the score check (also autoSelect and priority) reads them,
        interned."""
        found = self._entry_lists.get(view.runtime)
        if found is None:
            entries = view.entries
            found = self._entry_lists[view.runtime] = (
                self._id(("format", *((e.index, entry_key(e)) for e in entries))),
                self._id(("score", *((entry_key(e), e.auto_select, e.priority) for e in entries))),
            )
        return found[0] if step == SelectionStep.MODEL_FORMAT else found[1]

    def _step(
        self, ctx: Context, shape: Shape, view: RuntimeView, check: SelectionCheck
    ) -> CheckResult:
        runtime = view.runtime
        step = check.check
        keys = self._keys(ctx)
        if step == SelectionStep.DEPLOYMENT_MODE:
            key: Hashable = (check.id, keys.modes, runtime)
        elif step == SelectionStep.ACCELERATOR_CLASS:
            key = (check.id, keys.classes, runtime)
        elif step == SelectionStep.MODEL_SIZE:
            key = (check.id, keys.size, runtime)
        elif step in _ENTRY_STEPS:
            # What these read of a runtime is its entries: runtimes that list the
            # same entries share the result.
            key = (check.id, keys.model, self._entries_id(view, step))
        elif step in _MODEL_STEPS:
            key = (check.id, keys.model, runtime)
        elif step in _RUNTIME_STEPS:
            key = (check.id, runtime)
        else:
            return STEPS[step](ctx, view, check)
        found = self._steps.get(key)
        if found is None:
            if step == SelectionStep.DEPLOYMENT_MODE:
                found = self._mode_step(ctx, runtime, check)
            elif step == SelectionStep.MODEL_FORMAT:
                found = self._format_step(ctx, view, check)
            else:
                found = STEPS[step](ctx, view, check)
            self._steps[key] = found
        return found

    def _ranking_facts(self, ctx: Context, view: RuntimeView) -> dict[str, Any]:
        keys = self._keys(ctx)
        key = (keys.model, keys.size, view.runtime)
        found = self._ranking.get(key)
        if found is None:
            found = self._ranking[key] = ranking_facts(ctx, view)
        return found

    def _notes(self, ctx: Context) -> tuple[tuple[SelectionCheck, str | None], ...]:
        """Each check, with why auto-selection skips it for an InferenceService (or None)."""
        if self._check_notes is None:
            self._check_notes = tuple((c, skip_note(ctx, c, False)) for c in self.rules.checks)
        return self._check_notes

    def first_failure(
        self, ctx: Context, shape: Shape, runtime: Manifest
    ) -> tuple[SelectionCheck, CheckResult] | None:
        """The check a runtime fails first, from the memoised checks (no Candidate)."""
        view = self.view(runtime)
        for check, note in self._notes(ctx):
            if note is None:
                result = self._step(ctx, shape, view, check)
                if result.failed:
                    return check, result
        return None

    def _first_failures(
        self, ctx: Context, shape: Shape, runtimes: Iterable[Manifest]
    ) -> dict[Manifest, tuple[SelectionCheck, CheckResult]]:
        """`first_failure` of each of `runtimes`, check by check over sets: the
        checks pruning decides from an index split off the runtimes they fail at
        once, so each runtime's checks are looked up only where it fails."""
        left = set(runtimes)
        found: dict[Manifest, tuple[SelectionCheck, CheckResult]] = {}
        for check, note in self._notes(ctx):
            if note is not None or not left:
                continue
            step = check.check
            if step in _RUNTIME_STEPS:
                failing = left & self._failing_alone(ctx, shape, check)
            elif step == SelectionStep.ACCELERATOR_CLASS:
                classes = tuple(name for _path, name in ctx.classes)
                failing = left - self._runtimes_listing(classes) if classes else set()
            elif step == SelectionStep.DEPLOYMENT_MODE:
                failing = left - self.index.mode_passing(shape[2])
            else:
                failing = {r for r in left if self._step(ctx, shape, self.view(r), check).failed}
            for runtime in failing:
                found[runtime] = (check, self._step(ctx, shape, self.view(runtime), check))
            left -= failing
        return found

    def assess(self, ctx: Context, shape: Shape, runtime: Manifest) -> Candidate:
        """What `checks.assess(ctx, runtime)` gives, from the memoised checks; kept
        per what those read (InferenceServices of different models alike in
        their format facts and size share it)."""
        assessed = self._assessed_for(ctx)
        found = assessed.get(runtime)
        if found is None:
            found = assessed[runtime] = self._assess(ctx, shape, runtime)
        return found

    def _assessed_for(self, ctx: Context) -> dict[Manifest, Candidate]:
        """The runtimes assessed for what an InferenceService's checks read."""
        keys = self._keys(ctx)
        found = self._assessed.get(keys.checked)
        if found is None:
            found = self._assessed[keys.checked] = {}
        return found

    def _assess(self, ctx: Context, shape: Shape, runtime: Manifest) -> Candidate:
        """`checks.assess(ctx, runtime)` (auto-selection, first failure only), with
        each check's result and skip note memoised."""
        view = self.view(runtime)
        notes = self._notes(ctx)
        lead = self._lead_count(ctx)
        results, failed = self._leading(ctx, shape, view)
        if failed is not None:
            return failed
        return self._run(ctx, shape, view, lead, len(notes), results)  # type: ignore[return-value]

    def _lead_count(self, ctx: Context) -> int:
        """How many checks, from the first, read nothing of the InferenceService
        but its accelerator classes and the modes it requests (or are skipped)."""
        if self._lead is None:
            count = 0
            for check, note in self._notes(ctx):
                if note is None and check.check not in _LEAD_STEPS:
                    break
                count += 1
            self._lead = count
        return self._lead

    def _leading(
        self, ctx: Context, shape: Shape, view: RuntimeView
    ) -> tuple[tuple[CheckResult, ...], Candidate | None]:
        """The leading checks' results on a runtime, and its Candidate when one of
        them fails (then the same for every model): kept per runtime and what
        those checks read, so a select for a new model runs only the rest."""
        keys = self._keys(ctx)
        last = self._last_leads
        if last is not None and last[0] is keys:
            by_runtime = last[1]
        else:
            by_runtime = self._leads.setdefault((keys.classes, keys.modes), {})
            self._last_leads = (keys, by_runtime)
        found = by_runtime.get(view.runtime)
        if found is None:
            ran = self._run(ctx, shape, view, 0, self._lead_count(ctx), ())
            found = by_runtime[view.runtime] = (
                ((), ran) if isinstance(ran, Candidate) else (ran, None)
            )
        return found

    def _run(
        self,
        ctx: Context,
        shape: Shape,
        view: RuntimeView,
        start: int,
        stop: int,
        before: tuple[CheckResult, ...],
    ) -> Candidate | tuple[CheckResult, ...]:
        """The checks from `start` to `stop` after the results `before`: the
        runtime's Candidate when one fails or the last check has run, else the
        results so far."""
        runtime = view.runtime
        notes = self._notes(ctx)
        results = list(before)
        for index in range(start, stop):
            check, note = notes[index]
            if note is not None:
                results.append(self._skip(check, note))
                continue
            result = self._step(ctx, shape, view, check)
            results.append(result)
            if result.failed:
                # Every check after the first failure is not reached (or skipped
                # for its own reason): the same results for every runtime.
                return Candidate(
                    runtime=runtime,
                    scope_label=self._scope_labels[runtime.scope],
                    named=False,
                    compatible=False,
                    reason=result.reason,
                    failed_check=result.check,
                    listed=check.listed,
                    checks=(*results, *self._after(ctx, index)),
                )
        if stop < len(notes):
            return tuple(results)
        return Candidate(
            runtime=runtime,
            scope_label=self._scope_labels[runtime.scope],
            named=False,
            compatible=True,
            reason=None,
            failed_check=None,
            listed=False,
            checks=tuple(results),
            **self._ranking_facts(ctx, view),
        )

    def _after(self, ctx: Context, index: int) -> tuple[CheckResult, ...]:
        """The results of the checks after the one at `index`, when that one failed."""
        found = self._tails.get(index)
        if found is None:
            found = self._tails[index] = tuple(
                self._skip(check, note if note is not None else self._not_reached)
                for check, note in self._notes(ctx)[index + 1 :]
            )
        return found

    def _skip(self, check: SelectionCheck, note: str) -> CheckResult:
        """A skipped check's result (the same for every runtime it is skipped on)."""
        key = (check.id, note)
        found = self._skipped.get(key)
        if found is None:
            found = self._skipped[key] = CheckResult(
                check=check.id, step=check.check, state=CheckState.SKIPPED, skip_note=note
            )
        return found

    # --- the candidates of one InferenceService ---------------------------------

    def _all_candidates(self, ctx: Context, shape: Shape) -> tuple[Candidate, ...]:
        """Every runtime of the namespace and the cluster, assessed, in explain's
        order (`selection.order`: those that qualify by rank, then the others in
        the order of their scope and name, which is kept per namespace)."""
        memo = self._assessed_for(ctx)
        assessed = {}
        for runtime in self.index.candidates(ctx.namespace):
            found = memo.get(runtime)
            if found is None:
                found = memo[runtime] = self._assess(ctx, shape, runtime)
            assessed[runtime] = found
        qualifying = sorted((c for c in assessed.values() if c.compatible), key=self._rank_key)
        others = (assessed[r] for r in self._listing(ctx.namespace))
        return (*qualifying, *(c for c in others if not c.compatible))

    def _listing(self, namespace: str) -> tuple[Manifest, ...]:
        """The runtimes of `namespace` and the cluster, in the order `selection.order`
        lists those that do not qualify."""
        found = self._listings.get(namespace)
        if found is None:
            # The order is the runtime's own (scope, then name; ties in the
            # cluster's order), so one sort of the cluster serves every namespace.
            if self._by_name is None:
                by_name = order(self.policy, [_Unqualified(r) for r in self.cluster.runtimes])
                self._by_name = tuple(c.runtime for c in by_name)
            members = set(self.index.candidates(namespace))
            found = self._listings[namespace] = tuple(r for r in self._by_name if r in members)
        return found

    def _best_for(self, ctx: Context, shape: Shape) -> Candidate | None:
        """The runtime auto-selection picks, ranking only those that qualify and
        assessing only the winner; once per namespace and what the checks read."""
        key = (self._keys(ctx).checked, ctx.namespace)
        if key not in self._best:
            self._best[key] = self._best_of(ctx, shape)
        return self._best[key]

    def _best_of(self, ctx: Context, shape: Shape) -> Candidate | None:
        if not self._exact:
            pool = [r for r in self._in_order(self.qualifying(ctx, shape)) if _serves(r, ctx)]
            qualifying = [c for r in pool if (c := self.assess(ctx, shape, r)).compatible]
            return order(self.policy, qualifying)[0] if qualifying else None
        winner = next((r for r in self._ranked_order(ctx, shape) if _serves(r, ctx)), None)
        if winner is None:
            return None
        picked = self.assess(ctx, shape, winner)
        assert picked.compatible, f"pruning let through {winner.ref}: {picked.reason}"
        return picked

    def _ranked_order(self, ctx: Context, shape: Shape) -> tuple[Manifest, ...]:
        """The runtimes that qualify, of every namespace, in rank order (ties in the
        cluster's order, as `selection.order` leaves them); a namespace's winner is
        the first of them it may use."""
        key = self._keys(ctx).checked
        found = self._rankings.get(key)
        if found is None:
            ranked = [self._ranked(ctx, r) for r in self._in_order(self.qualifying(ctx, shape))]
            found = self._rankings[key] = tuple(
                r.runtime for r in sorted(ranked, key=self._rank_key)
            )
        return found

    def _in_order(self, runtimes: Iterable[Manifest]) -> list[Manifest]:
        """`runtimes` in the cluster's order."""
        return sorted(runtimes, key=self._positions.__getitem__)

    def _ranked(self, ctx: Context, runtime: Manifest) -> Ranked:
        keys = self._keys(ctx)
        key = (keys.model, keys.size, runtime)
        found = self._ranks.get(key)
        if found is None:
            facts = self._ranking_facts(ctx, self.view(runtime))
            found = self._ranks[key] = Ranked(
                runtime=runtime,
                scope=runtime.scope,
                name=runtime.name,
                score=facts.get("score"),
                distance=facts.get("distance"),
            )
        return found

    def _no_runtime(self, ctx: Context, shape: Shape, candidates: tuple[Candidate, ...]) -> str:
        """The no-runtime message, once per shape and namespace. Without assessed
        candidates it is built from each runtime's first failure alone."""
        key = (self._keys(ctx).checked, ctx.namespace)
        found = self._messages.get(key)
        if found is None:
            excluded = candidates or tuple(self._excluded(ctx, shape))
            found = self._messages[key] = no_runtime_message(ctx, excluded)  # type: ignore[arg-type]
        return found

    def _excluded(self, ctx: Context, shape: Shape) -> Iterable[Excluded]:
        runtimes = self.index.candidates(ctx.namespace)
        failures = self._first_failures(ctx, shape, runtimes) if self._exact else {}
        for runtime in runtimes:
            failure = failures.get(runtime) or self.first_failure(ctx, shape, runtime)
            assert failure is not None, f"{runtime.ref} qualifies, yet none was picked"
            check, result = failure
            yield Excluded(
                name=runtime.name,
                scope=runtime.scope,
                listed=check.listed,
                reason=result.reason,
            )

    # --- the Chooser that `selection.select` asks ---------------------------------

    def model_facts(self, model: Manifest) -> ModelFacts:
        return self.facts(model)

    def comparisons(self) -> MemoComparisons:
        return self.compare

    def candidates(self, ctx: Context) -> tuple[Candidate, ...]:
        """Assessed only when asked for (they cost one assessment per runtime)."""
        return self._all_candidates(ctx, _shape(ctx)) if self.with_candidates else ()

    def best(self, ctx: Context, candidates: tuple[Candidate, ...]) -> Candidate | None:
        return self._best_for(ctx, _shape(ctx))

    def no_runtime(self, ctx: Context, candidates: tuple[Candidate, ...]) -> str:
        return self._no_runtime(ctx, _shape(ctx), candidates)

    def named_view(self, cluster: Cluster, runtime: Manifest) -> RuntimeView:
        """A named runtime's view (its inheritance merged), once per runtime."""
        found = self._named_views.get(runtime)
        if found is None:
            try:
                found = runtime_view(self.policy, self.cluster, runtime, named=True)
            except InheritanceError as exc:
                found = exc
            self._named_views[runtime] = found
        if isinstance(found, InheritanceError):
            raise found.with_traceback(None)
        return found

    def named_check(self, ctx: Context, runtime: Manifest, view: RuntimeView) -> Candidate:
        """A named runtime's check, kept per runtime and what the checks read."""
        key = (self._keys(ctx).checked, runtime)
        found = self._named_checks.get(key)
        if found is None:
            found = self._named_checks[key] = assess(ctx, runtime, named=True, view=view)
        return found

    def admission(
        self, isvc: Manifest, cluster: Cluster, selection: tuple[Shown, ...], result: str | None
    ) -> Admission:
        """`admission.admit`, its checks reading the fields they read from one
        walk of the InferenceService (`field_plan`)."""
        read = self._field_plan.read(isvc)
        return admit(self.policy, isvc, cluster, selection=selection, result=result, read=read)

    def select(self, isvc: Manifest) -> Outcome:
        """The outcome `selection.select` gives; `candidates` only when asked for."""
        return select(self.policy, self.cluster, isvc, chooser=self)


def _serves(runtime: Manifest, ctx: Context) -> bool:
    """Whether the InferenceService may use `runtime` (the cluster's, or its namespace's)."""
    return runtime.namespace is None or runtime.namespace == ctx.namespace


def _shape(ctx: Context) -> Shape:
    assert ctx.requested is not None and ctx.model.manifest is not None
    return (
        ctx.model.manifest,
        ctx.classes,
        request_of(ctx.requested),
        tuple(r.source_id for r in ctx.requested.values()),
    )
