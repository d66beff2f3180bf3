"""The admission checks on modes: the API server's schema, then OME's webhook."""

from __future__ import annotations

import attrs

from modetable import paths
from modetable.manifests import Manifest
from modetable.matching import declares
from modetable.modes import Objects, resolve
from modetable.rules.model import AdmissionRule
from modetable.rules.policy import Policy

STAGE_ORDER = ("schema", "webhook")


@attrs.frozen
class Denial:
    rule: str
    stage: str
    reason: str
    message: str


@attrs.frozen
class Admission:
    """The verdict as `kubectl apply` would report it."""

    allowed: bool
    message: str | None
    warnings: tuple[str, ...] = ()
    denials: tuple[Denial, ...] = ()


def _check(policy: Policy, rule: AdmissionRule, isvc: Manifest) -> str | None:
    """The reason `rule` denies `isvc`, or None."""
    if rule.check == "allowed_values":
        source = policy.sources_by_id[rule.source or ""]
        value = paths.lookup(isvc.body, paths.split(source.path or ""))
        if value in (paths.MISSING, None) or value in rule.values:
            return None
        supported = ", ".join(f'"{v}"' for v in rule.values)
        return policy.message(rule.message, value=value, supported=supported)
    if rule.check == "agree_when_any":
        components = [policy.components_by_name[name] for name in rule.components]
        if not all(declares(policy, isvc, c) for c in components):
            return None
        objects = Objects(isvc=isvc.body, fallback=isvc.location)
        modes = {c.name: resolve(policy, "requested", c, objects).mode for c in components}
        if not any(m in rule.values for m in modes.values()) or len(set(modes.values())) == 1:
            return None
        return policy.message(rule.message, **{k: v or "" for k, v in modes.items()})
    raise AssertionError(f"unknown admission check {rule.check}")


def admit(policy: Policy, isvc: Manifest) -> Admission:
    """Schema checks first, then the webhook's; the first denial is what kubectl shows."""
    denials = []
    for stage in STAGE_ORDER:
        for rule in policy.admission:
            if rule.stage != stage:
                continue
            reason = _check(policy, rule, isvc)
            if reason is not None:
                message = policy.stage_message(
                    stage, kind=isvc.kind, name=isvc.name, message=reason
                )
                denials.append(Denial(rule=rule.id, stage=stage, reason=reason, message=message))
    if denials:
        return Admission(allowed=False, message=denials[0].message, denials=tuple(denials))
    return Admission(allowed=True, message=None)
