"""The kinds of admission check, each keyed by the word the rules use
(`check:` of an `admission` entry) beside the function that gives it meaning.
The rules' model allows exactly these words (rules.model.AdmissionCheck).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import attrs

from modetable import paths
from modetable.manifests import Cluster, Manifest
from modetable.matching import declares
from modetable.modes import Objects, resolve
from modetable.rules.model import AdmissionRule
from modetable.rules.policy import Policy

__all__ = [
    "CHECKS",
    "PASS",
    "Check",
    "Inputs",
    "Shown",
    "Verdict",
    "agree_when_any",
    "allowed_values",
    "selection",
]


@attrs.frozen
class Shown:
    """What a selection outcome shows at admission: a warning or a denial."""

    outcome: str
    emit: Literal["warning", "denial"]
    text: str


@attrs.frozen(eq=False)
class Inputs:
    """What a check may read: the InferenceService, the objects read with it,
    and what selection shows at admission (None: selection did not run)."""

    policy: Policy
    isvc: Manifest
    cluster: Cluster | None = None
    selection: tuple[Shown, ...] | None = None


@attrs.frozen
class Verdict:
    """One check's answer: its warnings, its denial (None: it passes), or why
    it was not decided (then neither)."""

    warnings: tuple[str, ...] = ()
    denial: str | None = None
    not_checked: str | None = None


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
    return Verdict(denial=policy.message(rule.message or "", value=value, supported=supported))


def agree_when_any(inputs: Inputs, rule: AdmissionRule) -> Verdict:
    """The components' requested modes must be equal when any of them requests
    one of `values`; applies only when all of them are declared."""
    policy, isvc = inputs.policy, inputs.isvc
    components = [policy.components_by_name[name] for name in rule.components]
    if not all(declares(policy, isvc, c) for c in components):
        return PASS
    objects = Objects(isvc=isvc.body, fallback=isvc.location)
    modes = {c.name: resolve(policy, "requested", c, objects).mode for c in components}
    if not any(m in rule.values for m in modes.values()) or len(set(modes.values())) == 1:
        return PASS
    return Verdict(
        denial=policy.message(rule.message or "", **{k: v or "" for k, v in modes.items()})
    )


def selection(inputs: Inputs, rule: AdmissionRule) -> Verdict | None:
    """What runtime selection shows at admission for the outcomes in `outcomes`:
    its warnings, and its first denial."""
    if inputs.selection is None:
        return None
    shown = [s for s in inputs.selection if s.outcome in rule.outcomes]
    warnings = tuple(s.text for s in shown if s.emit == "warning")
    denial = next((s.text for s in shown if s.emit == "denial"), None)
    return Verdict(warnings=warnings, denial=denial)


CHECKS: dict[str, Check] = {
    "allowed_values": allowed_values,
    "agree_when_any": agree_when_any,
    "selection": selection,
}
