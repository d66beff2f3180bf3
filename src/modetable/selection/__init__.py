"""Runtime selection as OME runs it: the ordered checks, the score and the
ranking, and the outcome with its messages, events and conditions.

The package's surface (others build on these names only; the modules inside
are its own business, and tests/test_public_surface.py holds the audit to it):

For one InferenceService:

- `select(policy, cluster, isvc) -> Outcome`: the reference selection.
- `make_context` / `assess`: the checks on one runtime, for callers that
  assess many runtimes against one InferenceService (`Context`, `Candidate`,
  `CheckResult`, `CheckState`).

For a fleet (the audit's fast path, which prunes and memoises but must give
`select`'s answers):

- the steps: `STEPS` (each step's function, keyed by `rules.words.SelectionStep`),
  `skip_note` (why a check does not run), `runtime_view` / `RuntimeView` (a
  runtime as the checks read it), `ranking_facts` and `rank_key` (what ranks
  a runtime that qualifies), `order` (candidates in rank order);
- the model: `model_facts` / `ModelFacts`, `Entry`, `Comparisons` (how entries
  and models are compared, which a fleet memoises);
- the outcome: `no_runtime_message`, `selection_rules` (the policy's
  `selection:` section), `read_field` (a typed, located manifest field).
"""

from modetable.inputs.fields import read as read_field
from modetable.inputs.formats import Entry, ModelFacts, model_facts
from modetable.selection.checks import (
    STEPS,
    Candidate,
    CheckResult,
    CheckState,
    Context,
    RuntimeView,
    assess,
    make_context,
    order,
    ranking_facts,
    runtime_view,
    skip_note,
)
from modetable.selection.compare import Comparisons
from modetable.selection.outcome import (
    Event,
    Outcome,
    StatusCondition,
    no_runtime_message,
    select,
)
from modetable.selection.rules import selection_rules
from modetable.selection.scoring import rank_key

__all__ = [
    "STEPS",
    "Candidate",
    "CheckResult",
    "CheckState",
    "Comparisons",
    "Context",
    "Entry",
    "Event",
    "ModelFacts",
    "Outcome",
    "RuntimeView",
    "StatusCondition",
    "assess",
    "make_context",
    "model_facts",
    "no_runtime_message",
    "order",
    "rank_key",
    "ranking_facts",
    "read_field",
    "runtime_view",
    "select",
    "selection_rules",
    "skip_note",
]
