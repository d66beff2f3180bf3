"""Upgrade impact: the same fleet audited under two OME versions, compared per
InferenceService and component: what changes (the runtime, a running mode and
why, a new problem), what a mode move breaks in the specs, and what stays."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from modetable.audit.fleet import (
    Audited,
    Change,
    MoveScanner,
    audit_fleet,
    distinct_changes,
)
from modetable.audit.moves import find_move
from modetable.engine.modes import Resolution, Verdict
from modetable.engine.runtimes import lookup_order, runtime_request
from modetable.inputs.manifests import Cluster, Manifest
from modetable.rules.policy import Policy
from modetable.selection import assess, make_context
from modetable.settled import frozen

__all__ = [
    "ComponentImpact",
    "Impact",
    "UpgradeAnalysis",
    "upgrade_impact",
]


@frozen
class ComponentImpact:
    component: str
    before: Resolution | None
    after: Resolution | None
    why: tuple[str, ...] = ()
    changes: tuple[Change, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        """The running mode changes (a change of the rule alone is `rule_changed`)."""
        return _mode_of(self.before) != _mode_of(self.after)

    @property
    def rule_changed(self) -> bool:
        return _shown(self.before) != _shown(self.after)


@frozen(eq=False)
class Impact:
    """One InferenceService before and after the upgrade."""

    isvc: Manifest
    before: Audited
    after: Audited
    runtime_why: tuple[str, ...]
    components: tuple[ComponentImpact, ...]

    @property
    def runtime_changed(self) -> bool:
        """The runtime used changes, or (no runtime named, the model waiting for
        OME's model agent on both sides) the runtimes that could be picked."""
        return _runtime(self.before) != _runtime(self.after) or (
            _could_pick(self.before) != _could_pick(self.after)
        )

    @property
    def new_problems(self) -> tuple[str, ...]:
        return tuple(p for p in self.after.problems if p not in self.before.problems)

    @property
    def fixed_problems(self) -> tuple[str, ...]:
        return tuple(p for p in self.before.problems if p not in self.after.problems)

    @property
    def changed(self) -> bool:
        return (
            self.runtime_changed
            or self.before.outcome.result != self.after.outcome.result
            or self.before.problems != self.after.problems
            or any(c.changed for c in self.components)
        )

    @property
    def breaking(self) -> bool:
        """A new problem, or a mode move that breaks something in a spec."""
        return bool(self.new_problems) or any(c.changes for c in self.components)


def _mode_of(resolution: Resolution | None) -> str | None:
    return None if resolution is None else resolution.mode


def _shown(resolution: Resolution | None) -> tuple[str | None, str | None] | None:
    return None if resolution is None else (resolution.mode, resolution.source_label)


def _runtime(audited: Audited) -> tuple[str, str] | None:
    runtime = audited.outcome.runtime
    return None if runtime is None else (runtime.kind, runtime.ref)


def _could_pick(audited: Audited) -> tuple[str, ...]:
    """The runtimes that could be picked once the model is filled in (a pending
    outcome's), else ()."""
    pending = audited.outcome.pending
    return pending.runtimes if pending is not None else ()


def _runtime_name(audited: Audited, other: Audited) -> str:
    """The runtime's name, with its kind where the other side's has the same name."""
    runtime, theirs = audited.outcome.runtime, other.outcome.runtime
    if runtime is None:
        return "none"
    if theirs is not None and theirs.name == runtime.name:
        return f"{runtime.kind} {runtime.ref}"
    return runtime.name


class UpgradeAnalysis:
    def __init__(self, before: Policy, after: Policy, cluster: Cluster) -> None:
        self.before = before
        self.after = after
        self.cluster = cluster
        self.scanner = MoveScanner(after)

    def _values(self) -> dict[str, str]:
        return {"from_version": self.before.release, "to_version": self.after.release}

    def runtime_why(self, before: Audited, after: Audited) -> tuple[str, ...]:
        """Why the runtime changes: the old one now fails a check, or is outranked;
        or which runtimes could be picked once the model is filled in."""
        policy = self.after
        if _runtime(before) == _runtime(after):
            old_could, new_could = _could_pick(before), _could_pick(after)
            if old_could == new_could:
                return ()
            return (
                policy.message(
                    "upgrade_could_pick_changed",
                    before=", ".join(old_could) or "none",
                    after=", ".join(new_could) or "none",
                ),
            )
        why = [
            policy.message(
                "upgrade_runtime_changed",
                before=_runtime_name(before, after),
                after=_runtime_name(after, before),
            )
        ]
        old, new = before.outcome.runtime, after.outcome.runtime
        request = runtime_request(policy, after.isvc)
        # The lookup is the reason where one named name finds another kind.
        if request is not None and old is not None and new is not None and old.name == new.name:
            old_order = lookup_order(self.before, runtime_request(self.before, before.isvc))
            new_order = lookup_order(policy, request)
            if old_order != new_order:
                why.append(
                    policy.message(
                        "upgrade_lookup_changed",
                        after=" then ".join(new_order),
                        before=" then ".join(old_order),
                        **self._values(),
                    )
                )
        model = after.outcome.model
        if old is not None and not before.outcome.named and model is not None:
            from modetable.selection import model_facts, selection_rules

            facts = model_facts(selection_rules(policy), model)
            namespace = after.isvc.namespace or ""
            ctx = make_context(policy, self.cluster, facts, after.isvc, namespace)
            verdict = assess(ctx, old)
            if not verdict.compatible:
                why.append(
                    policy.message(
                        "upgrade_runtime_rejects",
                        runtime=old.name,
                        to_version=policy.release,
                        reason=verdict.reason or "",
                    )
                )
            elif after.outcome.runtime is not None:
                why.append(
                    policy.message(
                        "upgrade_runtime_outranked",
                        runtime=old.name,
                        to_version=policy.release,
                        picked=after.outcome.runtime.name,
                    )
                )
        return tuple(why)

    def component_why(self, before: Resolution, after: Resolution) -> tuple[str, ...]:
        """Why a component's running mode (or the rule that sets it) changes."""
        policy, values = self.after, self._values()
        if before.source_label == after.source_label:
            return (
                policy.message(
                    "upgrade_same_source",
                    source=after.source_label or "",
                    after=after.mode or "",
                    before=before.mode or "",
                    **values,
                ),
            )
        why = []
        passed_over = next(
            (
                r
                for r in after.readings
                if r.source_label == before.source_label
                and r.verdict != Verdict.USED
                and r.value is not None
            ),
            None,
        )
        unheard = next(
            (
                r
                for r in before.readings
                if r.source_id == after.source_id
                and r.verdict not in (Verdict.USED, Verdict.SHADOWED)
                and r.value is not None
            ),
            None,
        )
        # The old source merely shadowed now is said by why the new one counts.
        if passed_over is not None and not (
            unheard is not None and passed_over.verdict == Verdict.SHADOWED
        ):
            why.append(
                policy.message(
                    "upgrade_source_passed_over",
                    source=passed_over.source_label,
                    why=passed_over.why,
                    **values,
                )
            )
        if unheard is not None:
            why.append(
                policy.message(
                    "upgrade_source_new", source=unheard.source_label, why=unheard.why, **values
                )
            )
        if not why:
            why.append(
                policy.message(
                    "upgrade_mode_changed",
                    before=before.mode or "",
                    before_source=before.source_label or "",
                    after=after.mode or "",
                    after_source=after.source_label or "",
                    **values,
                )
            )
        return tuple(why)

    def component(self, name: str, before: Audited, after: Audited) -> ComponentImpact:
        old = before.outcome.components.get(name)
        new = after.outcome.components.get(name)
        impact = ComponentImpact(component=name, before=old, after=new)
        if old is None or new is None or not impact.rule_changed:
            return impact
        why = self.component_why(old, new)
        if after.outcome.runtime is None:
            # With no runtime OME renders no workload; running pods keep serving
            # (selection facts, section 8), so nothing moves.
            notes = ()
            if impact.changed:
                notes = (
                    self.after.message(
                        "upgrade_no_workload_update",
                        component=name,
                        to_version=self.after.release,
                    ),
                )
            return attrs.evolve(impact, why=why, notes=notes)
        if name in after.outcome.reconcile:
            # It fails, or is not reconciled, after the upgrade: its reconcile
            # error says so, and no workload moves.
            return attrs.evolve(impact, why=why)
        move = find_move(self.after, old.mode, new.mode)
        notes = ()
        # Only a workload the old version rendered is left behind.
        rendered_before = (
            before.outcome.runtime is not None and name not in before.outcome.reconcile
        )
        if move is not None and move.note is not None and rendered_before:
            notes = (
                self.after.message(
                    move.note, component=name, from_mode=move.from_mode, to_mode=move.to_mode
                ),
            )
        return attrs.evolve(
            impact,
            why=why,
            changes=self.scanner.move_changes(move, after.isvc, after.outcome.runtime),
            notes=notes,
        )

    def impact(self, before: Audited, after: Audited) -> Impact:
        names = [
            c.name
            for c in self.after.components
            if c.name in before.outcome.components or c.name in after.outcome.components
        ]
        components = distinct_changes([self.component(name, before, after) for name in names])
        return Impact(
            isvc=after.isvc,
            before=before,
            after=after,
            runtime_why=self.runtime_why(before, after),
            components=tuple(components),
        )


def upgrade_impact(
    before: Policy,
    after: Policy,
    cluster: Cluster,
    *,
    namespace: str | None = None,
    advance: Callable[[], None] | None = None,
    candidates: bool = False,
) -> list[Impact]:
    """Every InferenceService of `cluster` (only `namespace`'s when given), in the
    cluster's order, audited under both versions, compared; `candidates`: each
    side's outcome with every candidate assessed (`audit_fleet`)."""
    isvcs = [m for m in cluster.isvcs if namespace is None or m.namespace == namespace]
    old = list(audit_fleet(before, cluster, candidates=candidates, advance=advance, isvcs=isvcs))
    new = audit_fleet(after, cluster, candidates=candidates, advance=advance, isvcs=isvcs)
    analysis = UpgradeAnalysis(before, after, cluster)
    return [analysis.impact(b, a) for b, a in zip(old, new, strict=True)]
