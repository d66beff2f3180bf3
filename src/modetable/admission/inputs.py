"""What the admission checks read on an InferenceService must be of the type
OME's API gives it: bad input otherwise, refused by every command alike."""

from __future__ import annotations

from modetable.admission.fields import check_test_fields
from modetable.admission.rollout import check_rollout_fields
from modetable.manifests import Manifest
from modetable.rules.policy import Policy

__all__ = ["check_fields"]


def check_fields(policy: Policy, isvc: Manifest) -> None:
    """Every field the checks in force read on `isvc` holds what it must
    (a one-line error at the first that does not)."""
    for rule in policy.admission:
        if rule.rollout is not None:
            check_rollout_fields(rule.rollout, isvc)
    check_test_fields(policy, isvc)
