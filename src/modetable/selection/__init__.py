"""Runtime selection as OME runs it: the ordered checks, the score and the
ranking, and the outcome with its messages, events and conditions.

Public API (others build on it):

- `select(policy, cluster, isvc) -> Outcome`: the reference selection.
- `outcome_json(outcome) -> dict`: `modetable select`'s JSON contract.
- `checks.make_context` / `checks.assess`: the checks on one runtime, for
  callers that assess many runtimes against one InferenceService.
"""

from modetable.selection.checks import Candidate, CheckResult, Context, assess, make_context
from modetable.selection.outcome import Event, Outcome, StatusCondition, select
from modetable.selection.report import candidate_json, outcome_json

__all__ = [
    "Candidate",
    "CheckResult",
    "Context",
    "Event",
    "Outcome",
    "StatusCondition",
    "assess",
    "candidate_json",
    "make_context",
    "outcome_json",
    "select",
]
