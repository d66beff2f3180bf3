"""The formats CI reads (GitHub workflow commands, JUnit XML, SARIF 2.1.0,
Markdown), for any command whose answer is a list of findings: `audit` and
`rules check` build a `Report`, each format writes it."""

from __future__ import annotations

import attrs

from modetable.errors import Location
from modetable.reports.finding import Finding

__all__ = ["FORMATS", "Report", "Rule", "Subject", "write"]

FORMATS = ("github", "junit", "sarif", "markdown")


@attrs.frozen
class Subject:
    """One thing checked (an InferenceService, an object, a rules finding): a
    JUnit test case, a row of the Markdown table."""

    name: str
    group: str  # JUnit's classname: the namespace, or what kind of subject it is
    location: Location
    findings: tuple[Finding, ...]


@attrs.frozen
class Rule:
    """A finding id as SARIF lists it: what it means, how bad it is, what to do
    about it (the rules' own text, Markdown) and where its docs are."""

    id: str
    description: str
    severity: str
    help: str | None = None
    help_uri: str | None = None


@attrs.frozen
class Report:
    command: str  # `audit`, `rules check`
    title: str  # `modetable audit (v1.3)`
    subjects: tuple[Subject, ...]
    rules: tuple[Rule, ...]
    summary: str  # the command's summary line
    # Findings this severe or more fail (JUnit's failures); None: none do.
    fail_on: str | None
    version: str  # modetable's
    # The rules file read and the rules line used (JSON's `"rules"`), when known.
    rules_used: dict[str, str | None] | None = None
    # The line the outputs people read begin with (`rules: FILE`, when the rules
    # read are not the bundled ones), or "".
    preface: str = ""

    @property
    def findings(self) -> tuple[Finding, ...]:
        return tuple(f for s in self.subjects for f in s.findings)


def write(fmt: str, report: Report, out) -> None:
    import importlib

    importlib.import_module(f"modetable.reports.{fmt}").write(report, out)
