"""Runtime selection as OME runs it: the ordered checks, the score and the
ranking, and the outcome with its messages, events and conditions.

The package's surface (others build on these names only; the modules inside
are its own business, and tests/test_public_surface.py holds the audit to it):

- `select(policy, cluster, isvc) -> Outcome`: the runtime OME uses for one
  InferenceService, or why none; every step run (`Evaluator` with its
  `Direct` strategy). `select(..., evaluator)` runs the same steps through
  another strategy: a fleet passes `Evaluator(policy, cluster, Memoised(policy,
  cluster), candidates=...)`, which keeps each step's result per what it reads
  and prunes runtimes by indexes (`selection.memo`).
- `make_context` / `assess`: the checks on one runtime, for callers that
  assess a runtime against one InferenceService (`Context`, `Candidate`,
  `CheckResult`, `CheckState`).
- `model_facts` / `ModelFacts`, `Entry`: a model as the checks read it;
  `selection_rules` (the policy's `selection:` section), `read_field` (a
  typed, located manifest field); `did_you_mean` (the closest names to a
  misspelled one, as the outcomes' hints give them; the audit's mode
  findings use it too).
"""

from typing import TYPE_CHECKING, Any

from modetable.inputs.fields import read as read_field
from modetable.inputs.formats import Entry, ModelFacts, model_facts
from modetable.selection.checks import (
    Candidate,
    CheckResult,
    CheckState,
    Context,
    make_context,
)
from modetable.selection.evaluate import Evaluator, assess
from modetable.selection.outcome import Event, Outcome, StatusCondition, did_you_mean, select
from modetable.selection.rules import selection_rules
from modetable.selection.scoring import rank_key

if TYPE_CHECKING:
    from modetable.selection.memo import Memoised

__all__ = [
    "Candidate",
    "CheckResult",
    "CheckState",
    "Context",
    "Entry",
    "Evaluator",
    "Event",
    "Memoised",
    "ModelFacts",
    "Outcome",
    "StatusCondition",
    "assess",
    "did_you_mean",
    "make_context",
    "model_facts",
    "rank_key",
    "read_field",
    "select",
    "selection_rules",
]


def __getattr__(name: str) -> Any:
    """`Memoised`, imported when first asked for: only a fleet's audit uses it,
    and its indexes' modules are a cold `select`'s cost (issue 27)."""
    if name == "Memoised":
        from modetable.selection.memo import Memoised

        return Memoised
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
