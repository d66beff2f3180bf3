"""What the admission checks read on an InferenceService must be of the type
OME's API gives it: bad input otherwise, refused by every command alike."""

from __future__ import annotations

import functools

from modetable.admission.fields import check_test_fields
from modetable.admission.rollout import check_rollout_fields
from modetable.inputs.manifests import Manifest
from modetable.rules.model.rollout import RolloutFields
from modetable.rules.policy import Policy

__all__ = ["check_fields"]


def check_fields(policy: Policy, isvc: Manifest) -> None:
    """Every field the checks in force read on `isvc` holds what it must
    (a one-line error at the first that does not)."""
    for fields in _rollout_fields(policy):
        check_rollout_fields(fields, isvc)
    check_test_fields(policy, isvc)


# Bounded as fields.read_fields is: a long-running program may make a Policy per request.
@functools.lru_cache(maxsize=16)
def _rollout_fields(policy: Policy) -> tuple[RolloutFields, ...]:
    """The rollout checks' fields, each once (the rollout checks share them)."""
    found: list[RolloutFields] = []
    for rule in policy.admission:
        if rule.rollout is not None and rule.rollout not in found:
            found.append(rule.rollout)
    return tuple(found)
