"""The `matching:` section: the decision table, its rows and examples."""

from __future__ import annotations

from typing import Annotated

from modetable.rules.kinds import Defines, Ref, Template, Templates
from modetable.rules.model.names import PATH_PARAMS, ModeName
from modetable.rules.words import ConditionWord, HitPolicy
from modetable.settled import frozen

__all__ = ["CONDITION_WORDS", "ROW_MESSAGE_PARAMS", "Example", "Matching", "Row", "RowCondition"]

# A row's condition on one input: a condition word (their meaning:
# matching.CONDITIONS), a mode, or a list of modes.
CONDITION_WORDS: tuple[str, ...] = tuple(word.value for word in ConditionWord)
RowCondition = Annotated[str, Ref("mode", also=CONDITION_WORDS)] | tuple[ModeName, ...]
ROW_MESSAGE_PARAMS = ("component", "runtime_mode", "isvc_mode")


@frozen
class Row:
    id: Annotated[str, Defines("row")]
    requested: RowCondition
    declared: RowCondition
    outcome: Annotated[str, Ref("outcome")]
    message: Annotated[str, Ref("message", params=ROW_MESSAGE_PARAMS)] | None = None
    # Which rule decided, in an operator's words ("the runtime declares a
    # different mode"): what text, HTML and Markdown say (JSON keeps the id).
    words: Annotated[str, Template(())] | None = None
    since: str | None = None
    until: str | None = None


@frozen
class Example:
    """A row of the table as a test: these inputs give `outcome`, from `row`.

    It runs in each listed version in force where the modes it names are valid.
    The docs show it among OME's own examples unless `docs: false` (a test only).
    """

    requested: Annotated[str, Ref("mode", also=("none",))]
    declared: Annotated[str, Ref("mode", also=("none",))]
    outcome: Annotated[str, Ref("outcome")]
    row: Annotated[str, Ref("row")]
    since: str | None = None
    until: str | None = None
    docs: bool = True


@frozen
class Matching:
    hit_policy: HitPolicy
    inputs: Annotated[
        dict[str, str], Templates({"requested": PATH_PARAMS, "declared": PATH_PARAMS})
    ]
    outcomes: dict[Annotated[str, Defines("outcome", report_unused=True)], str]
    rows: tuple[Row, ...]
    examples: tuple[Example, ...] = ()
