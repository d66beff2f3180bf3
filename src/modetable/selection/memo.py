"""The fleet's strategy for the evaluator: every answer kept per what decides it,
runtimes pruned by indexes, both built from the steps' declarations
(`checks.STEPS`: what each step reads, which index decides it).

- A step's result is kept per its memo key: the check and the parts it reads,
  of the InferenceService (model facts, size, accelerator classes, requested
  modes with their sources) and of the runtime (the view, or its entries'
  values alone). InferenceServices of one shape share every result, whatever
  their namespace; runtimes listing the same entries share the entry steps'.
- A step an index decides (`Prefilter`) splits off the runtimes it fails as
  a set: the requested modes by `engine.index` with the compiled table, the
  accelerator classes by the runtimes listing them, the model's format by
  the runtimes with an entry of its names (which narrows: those left are
  run). A step reading only the runtime fails the same runtimes for every
  InferenceService: that set is found once.
- What the evaluator asks to keep (assessments, the picked runtime, the
  no-runtime message) is kept per everything the steps read of the
  InferenceService, and the namespace where it counts.

A kept assessment's trace (the requested side's readings and their
positions) is that of the first InferenceService of its shape; everything
select's JSON shows (`views.select.OutcomeView`) is the InferenceService's own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from modetable.admission import Admission, Shown, admit
from modetable.admission.fields import VerdictMemo, field_plan
from modetable.engine.index import RuntimeIndex, build_index, request_of
from modetable.engine.runtimes import InheritanceError
from modetable.inputs.fields import read
from modetable.inputs.formats import Entry, ModelFacts, model_facts
from modetable.inputs.manifests import Cluster, Manifest
from modetable.rules.model.selection import SelectionCheck
from modetable.rules.policy import Policy
from modetable.selection.checks import (
    RANKING_READS,
    RUNTIME_SIDE,
    STEPS,
    CheckResult,
    Context,
    Prefilter,
    Read,
    RuntimeView,
    ranking_facts,
    runtime_view,
)
from modetable.selection.compare import Comparisons
from modetable.selection.rules import selection_rules
from modetable.settled import frozen

__all__ = ["MemoComparisons", "Memoised", "compared"]

_T = TypeVar("_T")
_MISSING = object()


def _frozen(value: Any) -> Hashable:
    """A hashable stand-in for a pipeline mapping (rare, small)."""
    return None if value is None else json.dumps(value, sort_keys=True, default=str)


def compared(value: Entry | ModelFacts) -> Hashable:
    """What `differences` reads of an entry or a model (not the entry's index,
    nor the model's size)."""
    return (
        value.format,
        value.framework,
        value.architecture,
        value.quantization,
        _frozen(value.pipeline),
    )


@frozen
class _Keys:
    """What one InferenceService's steps read of it, each part interned or small."""

    model: int  # the model's format facts (`compared`), interned
    size: str | None
    classes: tuple[tuple[str, str], ...]
    modes: int  # the request and the sources that gave it, interned
    request: tuple[tuple[str, str | None], ...]  # the index's key of the request

    @property
    def checked(self) -> tuple[int, str | None, tuple[tuple[str, str], ...], int]:
        """Everything the steps and the ranking read of the InferenceService."""
        return (self.model, self.size, self.classes, self.modes)


# A read part of a memo key, from an InferenceService's keys and a runtime's view.
_Part = Callable[["Memoised", _Keys, RuntimeView], Hashable]
_PARTS: dict[Read, _Part] = {
    Read.MODEL: lambda memo, keys, view: keys.model,
    Read.SIZE: lambda memo, keys, view: keys.size,
    Read.CLASSES: lambda memo, keys, view: keys.classes,
    Read.MODES: lambda memo, keys, view: keys.modes,
    Read.RUNTIME: lambda memo, keys, view: view,  # views are kept: one per runtime and way
    Read.ENTRIES: lambda memo, keys, view: memo.entries_id(view),
}


def _key_maker(name: str, reads: Sequence[Read]) -> Callable[[Memoised, _Keys, RuntimeView], tuple]:
    """The memo key of a step (or the ranking) that reads `reads`."""
    parts = tuple(_PARTS[r] for r in reads)
    if len(parts) == 1:
        (one,) = parts
        return lambda memo, keys, view: (name, one(memo, keys, view))
    if len(parts) == 2:
        first, second = parts
        return lambda memo, keys, view: (name, first(memo, keys, view), second(memo, keys, view))
    if len(parts) == 3:
        first, second, third = parts
        return lambda memo, keys, view: (
            name,
            first(memo, keys, view),
            second(memo, keys, view),
            third(memo, keys, view),
        )
    return lambda memo, keys, view: (name, *(part(memo, keys, view) for part in parts))


class MemoComparisons(Comparisons):
    """Entries compared with models, each distinct (entry, model) pair of values
    once: a thousand runtimes copy a few hundred distinct entries, and a fleet's
    models repeat a few dozen distinct formats."""

    def __init__(self, policy: Policy) -> None:
        super().__init__(policy)
        self._differences: dict[tuple[int, int], tuple[str, ...]] = {}
        self._sides: dict[tuple[int, int], bool] = {}
        self._texts: dict[tuple[int, int], tuple[bool, str, str]] = {}
        self._labels: dict[int, str] = {}
        # Each distinct value compared gets a small int, so a memo lookup hashes
        # two ints instead of the values again. Entries and model facts are kept
        # alive by the fleet, so their ids are stable (and checked).
        self._ids: dict[Hashable, int] = {}
        self._entries: dict[int, tuple[Entry, int, int]] = {}
        self._models: dict[int, tuple[ModelFacts, int, int]] = {}

    def _id(self, value: Hashable) -> int:
        return self._ids.setdefault(value, len(self._ids))

    def _interned(self, table: dict[int, Any], value: Entry | ModelFacts, kind: str) -> Any:
        """(value, what `differences` reads of it, what `sides_match` reads), interned."""
        found = table.get(id(value))
        if found is None or found[0] is not value:
            found = table[id(value)] = (
                value,
                self._id((kind, compared(value))),
                self._id(("sides", value.format, value.framework)),
            )
        return found

    def _entry_ids(self, entry: Entry) -> tuple[Entry, int, int]:
        return self._interned(self._entries, entry, "entry")

    def _model_ids(self, model: ModelFacts) -> tuple[ModelFacts, int, int]:
        return self._interned(self._models, model, "model")

    def differences(self, entry: Entry, model: ModelFacts) -> tuple[str, ...]:
        pair = (self._entry_ids(entry)[1], self._model_ids(model)[1])
        found = self._differences.get(pair)
        if found is None:
            found = self._differences[pair] = super().differences(entry, model)
        return found

    def entry_texts(self, entry: Entry, model: ModelFacts) -> tuple[bool, str, str]:
        pair = (self._entry_ids(entry)[1], self._model_ids(model)[1])
        found = self._texts.get(pair)
        if found is None:
            found = self._texts[pair] = super().entry_texts(entry, model)
        return found

    def sides_match(self, entry: Entry, model: ModelFacts) -> bool:
        key = (self._entry_ids(entry)[2], self._model_ids(model)[2])
        found = self._sides.get(key)
        if found is None:
            found = self._sides[key] = super().sides_match(entry, model)
        return found

    def label(self, model: ModelFacts) -> str:
        key = self._model_ids(model)[1]
        found = self._labels.get(key)
        if found is None:
            found = self._labels[key] = super().label(model)
        return found


def _decided_by_sets(check: SelectionCheck) -> bool:
    """Whether a step is decided for many runtimes at once: by an index that
    decides it exactly, or once for every runtime (it reads nothing else)."""
    step = STEPS[check.check]
    exact = step.index is not None and step.index.exact
    return exact or set(step.reads) <= RUNTIME_SIDE


class Memoised:
    """The evaluator's strategy for every InferenceService of one cluster, under
    one policy (a `selection.evaluate.Strategy`)."""

    def __init__(self, policy: Policy, cluster: Cluster) -> None:
        self.policy = policy
        self.cluster = cluster
        self.rules = selection_rules(policy)
        self.index: RuntimeIndex = build_index(policy, cluster)
        self.compare = MemoComparisons(policy)
        self._field_plan = field_plan(policy)
        # The admission checks' answers kept per what they read, for this cluster.
        self._verdicts = VerdictMemo()
        # Each check's memo key, and the ranking's, made from what they read.
        self._key_of = {
            check.id: _key_maker(check.id, STEPS[check.check].reads) for check in self.rules.checks
        }
        self._ranking_key = _key_maker("ranking", RANKING_READS)
        # Whether each check is decided for many runtimes at once (`_by_sets`),
        # by its id: asked for every check of every shape's ranking.
        self._set_decided = {check.id: _decided_by_sets(check) for check in self.rules.checks}
        self._views: dict[Manifest, RuntimeView] = {}
        self._named_views: dict[Manifest, RuntimeView | InheritanceError] = {}
        self._facts: dict[Manifest, ModelFacts] = {}
        # Small ints standing for what a memo key would otherwise hash again on
        # every lookup (a model's format facts, a request with its sources).
        self._ids: dict[Hashable, int] = {}
        self._entry_ids: dict[RuntimeView, int] = {}
        self._last: tuple[Context, _Keys] | None = None
        self._results: dict[Hashable, CheckResult] = {}
        self._rankings: dict[Hashable, dict[str, Any]] = {}
        self._kept: dict[Hashable, Any] = {}
        self._failing_alone: dict[str, frozenset[Manifest]] = {}
        self._listing: dict[tuple[str, ...], frozenset[Manifest]] = {}
        self._by_names: dict[tuple, frozenset[Manifest]] | None = None
        self._run_passing: dict[Hashable, frozenset[Manifest]] = {}

    # --- the keys --------------------------------------------------------------

    def _id(self, value: Hashable) -> int:
        return self._ids.setdefault(value, len(self._ids))

    def keys(self, ctx: Context) -> _Keys:
        """What the steps read of one InferenceService, made once per `select`."""
        last = self._last
        if last is not None and last[0] is ctx:
            return last[1]
        assert ctx.requested is not None
        request = request_of(ctx.requested)
        sources = tuple(r.source_id for r in ctx.requested.values())
        keys = _Keys(
            # A model waiting for OME's model agent is read apart: its checks
            # reading what it lacks are pending.
            model=self._id(("model", compared(ctx.model), ctx.model.waiting)),
            size=ctx.model.size,
            classes=ctx.classes,
            modes=self._id((request, sources)),
            request=request,
        )
        self._last = (ctx, keys)
        return keys

    def entries_id(self, view: RuntimeView) -> int:
        """The values of a view's entries, interned."""
        found = self._entry_ids.get(view)
        if found is None:
            found = self._entry_ids[view] = self._id(
                tuple((e.index, compared(e), e.auto_select, e.priority) for e in view.entries)
            )
        return found

    # --- the strategy ------------------------------------------------------------

    def view(self, runtime: Manifest) -> RuntimeView:
        found = self._views.get(runtime)
        if found is None:
            found = self._views[runtime] = runtime_view(
                self.policy, self.cluster, runtime, named=False
            )
        return found

    def named_view(self, runtime: Manifest) -> RuntimeView:
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

    def model_facts(self, model: Manifest) -> ModelFacts:
        found = self._facts.get(model)
        if found is None:
            found = self._facts[model] = model_facts(self.rules, model)
        return found

    def comparisons(self) -> MemoComparisons:
        return self.compare

    def runtimes(self, namespace: str) -> Sequence[Manifest]:
        return self.index.candidates(namespace)

    def result(self, ctx: Context, view: RuntimeView, check: SelectionCheck) -> CheckResult:
        key = self._key_of[check.id](self, self.keys(ctx), view)
        found = self._results.get(key)
        if found is None:
            found = self._results[key] = STEPS[check.check].run(ctx, view, check)
        return found

    def ranking(self, ctx: Context, view: RuntimeView) -> dict[str, Any]:
        key = self._ranking_key(self, self.keys(ctx), view)
        found = self._rankings.get(key)
        if found is None:
            found = self._rankings[key] = ranking_facts(ctx, view)
        return found

    def failing(
        self, ctx: Context, check: SelectionCheck, runtimes: set[Manifest]
    ) -> set[Manifest]:
        step = STEPS[check.check]
        if step.index is not None:
            passing = self._passing(ctx, step.index)
            if step.index.exact:
                return runtimes - passing
            run = runtimes & passing
            return (runtimes - passing) | {r for r in run if self._fails(ctx, r, check)}
        if set(step.reads) <= RUNTIME_SIDE:
            return runtimes & self._failing_everywhere(ctx, check)
        return {r for r in runtimes if self._fails(ctx, r, check)}

    def passing(self, ctx: Context, checks: Sequence[SelectionCheck]) -> set[Manifest]:
        """The steps run on each runtime (what their index narrows, or every
        runtime the runtime's own steps let through) kept per what they read of
        the InferenceService; then the exact indexes' sets."""
        run = tuple(c for c in checks if not self._by_sets(c))
        keys = self.keys(ctx)
        reads = {r: None for c in run for r in STEPS[c.check].reads if r not in RUNTIME_SIDE}
        key = (tuple(c.id for c in run), *(_PARTS[r](self, keys, None) for r in reads))
        pool = self._run_passing.get(key)
        if pool is None:
            left = set(self.cluster.runtimes)
            for check in checks:
                if check not in run and set(STEPS[check.check].reads) <= RUNTIME_SIDE:
                    left -= self._failing_everywhere(ctx, check)
            for check in run:
                left -= self.failing(ctx, check, left)
            pool = self._run_passing[key] = frozenset(left)
        for check in checks:
            index = STEPS[check.check].index
            if index is not None and index.exact:
                pool &= self._passing(ctx, index)
        return set(pool)

    def kept(self, ctx: Context, what: str, extra: Hashable, make: Callable[[], _T]) -> _T:
        key = (what, self.keys(ctx).checked, extra)
        found = self._kept.get(key, _MISSING)
        if found is _MISSING:
            found = self._kept[key] = make()
        return found  # type: ignore[return-value]

    def admission(
        self, isvc: Manifest, cluster: Cluster, selection: tuple[Shown, ...], result: str | None
    ) -> Admission:
        """`admission.admit`, its checks reading the fields they read from one
        walk of the InferenceService (`field_plan`)."""
        fields = self._field_plan.read(isvc, self._verdicts)
        return admit(self.policy, isvc, cluster, selection=selection, result=result, read=fields)

    # --- the indexes ----------------------------------------------------------------

    def _by_sets(self, check: SelectionCheck) -> bool:
        found = self._set_decided.get(check.id)
        return _decided_by_sets(check) if found is None else found

    def _fails(self, ctx: Context, runtime: Manifest, check: SelectionCheck) -> bool:
        return self.result(ctx, self.view(runtime), check).failed

    def _failing_everywhere(self, ctx: Context, check: SelectionCheck) -> frozenset[Manifest]:
        """The runtimes that fail a step reading nothing but the runtime (found once)."""
        found = self._failing_alone.get(check.id)
        if found is None:
            found = self._failing_alone[check.id] = frozenset(
                r for r in self.cluster.runtimes if self._fails(ctx, r, check)
            )
        return found

    def _passing(self, ctx: Context, index: Prefilter) -> frozenset[Manifest]:
        """The runtimes (any namespace) an index lets pass for this InferenceService."""
        if index is Prefilter.MODES:
            return self.index.mode_passing(self.keys(ctx).request)
        if index is Prefilter.CLASSES:
            classes = tuple(name for _path, name in ctx.classes)
            return self._listing_all(classes) if classes else self.index.all
        model = ctx.model
        names = (
            model.format.name if model.format else None,
            model.framework.name if model.framework else None,
            model.architecture,
            model.quantization,
        )
        return self._format_groups().get(names, frozenset())

    def _listing_all(self, classes: tuple[str, ...]) -> frozenset[Manifest]:
        """The runtimes whose auto-selected spec lists every one of `classes`."""
        found = self._listing.get(classes)
        if found is None:
            path = self.rules.runtime.accelerator_classes
            found = self._listing[classes] = frozenset(
                r
                for r in self.cluster.runtimes
                if set(classes) <= set(read(r.body, path, list, r.location) or ())
            )
        return found

    def _format_groups(self) -> dict[tuple, frozenset[Manifest]]:
        """Runtimes by the names an entry must share with the model to match it."""
        if self._by_names is None:
            groups: dict[tuple, set[Manifest]] = {}
            for runtime in self.cluster.runtimes:
                for entry in self.view(runtime).entries:
                    names = (
                        entry.format.name,
                        entry.framework.name,
                        entry.architecture,
                        entry.quantization,
                    )
                    groups.setdefault(names, set()).add(runtime)
            self._by_names = {names: frozenset(members) for names, members in groups.items()}
        return self._by_names
