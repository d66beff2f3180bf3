"""`modetable rules check`'s and `rules diff`'s answers: the rules file's
findings and example runs; what changes between two versions (or two files),
decision by decision."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from modetable.settled import frozen
from modetable.views.common import OMIT_IF_NONE, RulesView, key, same_named

if TYPE_CHECKING:
    from modetable.authoring.diff import Section
    from modetable.errors import Problem

__all__ = [
    "ComparisonView",
    "DiffChangeView",
    "DiffRulesView",
    "ExamplesView",
    "ProblemView",
    "RulesCheckView",
    "RulesDiffView",
    "SectionView",
]


@frozen
class ProblemView:
    """A finding of the analysis, or a load error: its code, severity, place,
    the versions it holds in and its message."""

    code: str
    severity: str
    at: str
    versions: tuple[str, ...]
    message: str

    @classmethod
    def of(cls, problem: Problem) -> ProblemView:
        return same_named(
            cls,
            problem,
            code=str(problem.code),
            at=str(problem.location),
            versions=tuple(problem.versions),
        )


@frozen
class ExamplesView:
    """The rules' examples run: how many, passed, failed."""

    runs: int
    passed: int
    failed: int


@frozen
class RulesCheckView:
    """What `modetable rules check -o json` prints (docs/json.md)."""

    file: str
    findings: tuple[ProblemView, ...]
    examples: ExamplesView
    errors: int
    warnings: int
    # Every version is analysed: no one line is used.
    rules: RulesView


@frozen
class DiffChangeView:
    """One input combination whose outcome changes, and the rule behind it."""

    inputs: dict[str, str]
    before: str
    after: str
    why: str


@frozen
class SectionView:
    """One decision compared over every input combination: what changes."""

    title: str
    inputs: tuple[str, ...]
    combinations: int
    changes: tuple[DiffChangeView, ...]

    @classmethod
    def of(cls, section: Section) -> SectionView:
        names = section.inputs
        return cls(
            title=section.title,
            inputs=names,
            combinations=section.combinations,
            changes=tuple(
                DiffChangeView(dict(zip(names, c.inputs, strict=True)), c.before, c.after, c.why)
                for c in section.changes
            ),
        )


@frozen
class ComparisonView:
    """Two sides compared: their labels and every decision's changes."""

    before: str
    after: str
    sections: tuple[SectionView, ...]


@frozen
class DiffRulesView:
    """`"rules"` of a diff: the file read; with `--against`, the other file and
    the version compared (None for every version); else the two lines."""

    path: str
    version: str | None
    against: str | None = attrs.field(default=None, metadata=OMIT_IF_NONE)
    before: str | None = attrs.field(default=None, metadata={**key("from"), **OMIT_IF_NONE})
    after: str | None = attrs.field(default=None, metadata={**key("to"), **OMIT_IF_NONE})


@frozen
class RulesDiffView:
    """What `modetable rules diff -o json` prints (docs/json.md): the last
    (newest) comparison's sections, then every comparison."""

    before: str | None
    after: str | None
    sections: tuple[SectionView, ...]
    comparisons: tuple[ComparisonView, ...]
    only_before: tuple[str, ...]
    only_after: tuple[str, ...]
    rules: DiffRulesView
