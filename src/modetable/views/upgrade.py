"""`modetable audit --from V --to V`'s answer: each InferenceService under
both versions (its runtime, result, messages, problems and each component's
mode, from and to), and the summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from modetable.settled import frozen
from modetable.views.audit import ChangeView, IdentityView
from modetable.views.common import FLATTEN, ResolutionView, RulesView, key

if TYPE_CHECKING:
    from modetable.audit.fleet import Audited
    from modetable.audit.upgrade import ComponentImpact, Impact
    from modetable.engine.modes import Resolution
    from modetable.rules.policy import Policy, RuleSet

__all__ = [
    "ComparedRulesView",
    "ComponentImpactView",
    "FromTo",
    "ImpactView",
    "PendingImpactView",
    "PendingSideView",
    "ProblemsImpactView",
    "RuntimeImpactView",
    "UpgradeRuntimeView",
    "UpgradeSummaryView",
    "UpgradeTrailerView",
    "UpgradeView",
]


@frozen
class ComparedRulesView:
    """`"rules"` of a comparison of two lines: the file read, and each side's
    line in `from` and `to` (none in `version`)."""

    rules: RulesView = attrs.field(metadata=FLATTEN)
    before: str = attrs.field(metadata=key("from"))
    after: str = attrs.field(metadata=key("to"))

    @classmethod
    def of(cls, ruleset: RuleSet, before: Policy, after: Policy) -> ComparedRulesView:
        return cls(RulesView.of(ruleset), before.version, after.version)


@frozen
class FromTo:
    """A text before and after the upgrade (None where there is none)."""

    before: str | None = attrs.field(metadata=key("from"))
    after: str | None = attrs.field(metadata=key("to"))


@frozen
class UpgradeRuntimeView:
    """The runtime used on one side, and whether the InferenceService names it."""

    name: str
    kind: str
    read_from: str
    named: bool

    @classmethod
    def of(cls, audited: Audited) -> UpgradeRuntimeView | None:
        runtime = audited.outcome.runtime
        if runtime is None:
            return None
        return cls(runtime.name, runtime.kind, str(runtime.read_from), audited.outcome.named)


@frozen
class RuntimeImpactView:
    """The runtime before and after, and why it changes."""

    before: UpgradeRuntimeView | None = attrs.field(metadata=key("from"))
    after: UpgradeRuntimeView | None = attrs.field(metadata=key("to"))
    changed: bool
    why: tuple[str, ...]


@frozen
class PendingSideView:
    """On one side, the model waiting for OME's model agent: the fields it
    lacks and (no runtime named) the runtimes that could be picked."""

    fields: tuple[str, ...]
    runtimes: tuple[str, ...]

    @classmethod
    def of(cls, audited: Audited) -> PendingSideView | None:
        pending = audited.outcome.pending
        if pending is None:
            return None
        return cls(pending.fields, pending.runtimes)


@frozen
class PendingImpactView:
    """The model waiting for OME's model agent before and after (None where not)."""

    before: PendingSideView | None = attrs.field(metadata=key("from"))
    after: PendingSideView | None = attrs.field(metadata=key("to"))


@frozen
class ProblemsImpactView:
    """What OME would refuse or fail at, before and after; new and fixed."""

    before: tuple[str, ...] = attrs.field(metadata=key("from"))
    after: tuple[str, ...] = attrs.field(metadata=key("to"))
    new: tuple[str, ...]
    fixed: tuple[str, ...]


def _side(resolution: Resolution | None) -> ResolutionView | None:
    return None if resolution is None else ResolutionView.of(resolution, trace=False)


@frozen
class ComponentImpactView:
    """One component's mode before and after, why, and what the move changes."""

    before: ResolutionView | None = attrs.field(metadata=key("from"))
    after: ResolutionView | None = attrs.field(metadata=key("to"))
    changed: bool
    rule_changed: bool
    why: tuple[str, ...]
    changes: tuple[ChangeView, ...]
    notes: tuple[str, ...]
    reconcile: FromTo

    @classmethod
    def of(cls, impact: Impact, component: ComponentImpact) -> ComponentImpactView:
        name = component.component
        return cls(
            before=_side(component.before),
            after=_side(component.after),
            changed=component.changed,
            rule_changed=component.rule_changed,
            why=component.why,
            changes=tuple(ChangeView.of(change) for change in component.changes),
            notes=component.notes,
            reconcile=FromTo(
                impact.before.outcome.reconcile.get(name), impact.after.outcome.reconcile.get(name)
            ),
        )


@frozen
class ImpactView:
    """One InferenceService before and after the upgrade."""

    identity: IdentityView = attrs.field(metadata=FLATTEN)
    isvc: str
    changed: bool
    breaking: bool
    runtime: RuntimeImpactView
    result: FromTo
    pending: PendingImpactView
    message: FromTo
    admission: FromTo
    problems: ProblemsImpactView
    components: dict[str, ComponentImpactView]

    @classmethod
    def of(cls, impact: Impact) -> ImpactView:
        before, after = impact.before, impact.after
        return cls(
            identity=IdentityView.of(impact.isvc),
            isvc=impact.isvc.ref,
            changed=impact.changed,
            breaking=impact.breaking,
            runtime=RuntimeImpactView(
                UpgradeRuntimeView.of(before),
                UpgradeRuntimeView.of(after),
                impact.runtime_changed,
                impact.runtime_why,
            ),
            result=FromTo(before.outcome.result, after.outcome.result),
            pending=PendingImpactView(PendingSideView.of(before), PendingSideView.of(after)),
            message=FromTo(before.outcome.message, after.outcome.message),
            admission=FromTo(before.outcome.admission.message, after.outcome.admission.message),
            problems=ProblemsImpactView(
                before.problems, after.problems, impact.new_problems, impact.fixed_problems
            ),
            components={c.component: ComponentImpactView.of(impact, c) for c in impact.components},
        )


@frozen
class UpgradeSummaryView:
    """The upgrade's counts: InferenceServices changed, breaking, moved from a
    mode to another per component, problems new and fixed."""

    before: str = attrs.field(metadata=key("from"))
    after: str = attrs.field(metadata=key("to"))
    isvcs: int
    changed: int
    unchanged: int
    breaking: int
    runtime_changes: int
    mode_changes: dict[str, dict[str, int]]
    new_problems: dict[str, int]
    fixed_problems: dict[str, int]
    with_changes_to_make: int

    @classmethod
    def of(cls, before: Policy, after: Policy, impacts: list[Impact]) -> UpgradeSummaryView:
        from modetable.audit.fleet import PROBLEMS

        moves: dict[str, dict[str, int]] = {}
        new = dict.fromkeys(PROBLEMS, 0)
        fixed = dict.fromkeys(PROBLEMS, 0)
        for impact in impacts:
            for problem in impact.new_problems:
                new[problem] += 1
            for problem in impact.fixed_problems:
                fixed[problem] += 1
            for c in impact.components:
                if c.before is not None and c.after is not None and c.before.mode != c.after.mode:
                    move = f"{c.before.mode} -> {c.after.mode}"
                    moves.setdefault(c.component, {})
                    moves[c.component][move] = moves[c.component].get(move, 0) + 1
        return cls(
            before=before.release,
            after=after.release,
            isvcs=len(impacts),
            changed=sum(i.changed for i in impacts),
            unchanged=sum(not i.changed for i in impacts),
            breaking=sum(i.breaking for i in impacts),
            runtime_changes=sum(i.runtime_changed for i in impacts),
            mode_changes={c: dict(sorted(m.items())) for c, m in moves.items()},
            new_problems=new,
            fixed_problems=fixed,
            with_changes_to_make=sum(any(c.changes for c in i.components) for i in impacts),
        )


@frozen
class UpgradeTrailerView:
    """What follows the upgrade's `items`."""

    summary: UpgradeSummaryView
    rules: ComparedRulesView


@frozen
class UpgradeView:
    """What `modetable audit --from V --to V -o json` prints (docs/json.md), whole."""

    items: tuple[ImpactView, ...]
    trailer: UpgradeTrailerView = attrs.field(metadata=FLATTEN)
