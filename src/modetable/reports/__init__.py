"""The formats CI reads (GitHub workflow commands, JUnit XML, SARIF 2.1.0,
Markdown), for any command whose answer is a list of findings: `audit` and
`rules check` build a `Report`, each format writes it."""

from __future__ import annotations

from modetable.errors import Location
from modetable.reports.finding import Finding
from modetable.settled import frozen

__all__ = ["FORMATS", "KNOWN", "Report", "Rule", "Subject", "Waiver", "write"]

FORMATS = ("github", "junit", "sarif", "markdown")
# What the outputs people read say after a finding the baseline knows.
KNOWN = "known: in the baseline"


@frozen
class Waiver:
    """Why a finding is suppressed: the exception's id (a glob), who made it
    (`option`: --ignore, `config`, `annotation`), its reason and where it is
    written (None for --ignore)."""

    id: str
    by: str
    reason: str | None = None
    at: Location | None = None

    @property
    def in_source(self) -> bool:
        """Written in the object itself (SARIF's `inSource`), not beside it."""
        return self.by == "annotation"

    def __str__(self) -> str:
        """`suppressed by FILE:LINE:COL: reason`, or `suppressed by --ignore ID`."""
        if self.at is None:
            return f"suppressed by --ignore {self.id}"
        return f"suppressed by {self.at}: {self.reason}"


@frozen
class Subject:
    """One thing checked (an InferenceService, an object, a rules finding): a
    JUnit test case, a row of the Markdown table."""

    name: str
    group: str  # JUnit's classname: the namespace, or what kind of subject it is
    location: Location
    findings: tuple[Finding, ...]
    # The findings the baseline knows, and those suppressed (never failing).
    known: tuple[Finding, ...] = ()
    suppressed: tuple[tuple[Finding, Waiver], ...] = ()
    # The InferenceService the findings are about (`NAMESPACE/NAME`; "" for
    # none), as their fingerprints name it (`reports.finding.fingerprint`).
    isvc: str = ""


@frozen
class Rule:
    """A finding id as SARIF lists it: what it means, how bad it is, its help
    in full (Markdown: the docs' entry for the id) and, when a base URL for
    the docs is given, where its entry is."""

    id: str
    description: str
    severity: str
    help: str | None = None
    help_uri: str | None = None


@frozen
class Report:
    command: str  # `audit`, `rules check`
    title: str  # `modetable audit (v1.3)`
    subjects: tuple[Subject, ...]
    rules: tuple[Rule, ...]
    summary: str  # the command's summary line
    # Findings this severe or more fail (JUnit's failures); None: none do.
    fail_on: str | None
    version: str  # modetable's
    # The rules file read (JSON's `"rules"."path"`), when known, and the rules
    # line used (`"version"`; None for a whole file, as `rules check` reads it).
    rules_path: str | None = None
    rules_version: str | None = None
    # The line the outputs people read begin with (`rules: FILE`, when the rules
    # read are not the bundled ones), or "".
    preface: str = ""
    # Whether a baseline was read (SARIF's baselineState on every result).
    baseline: bool = False

    @property
    def findings(self) -> tuple[Finding, ...]:
        return tuple(f for s in self.subjects for f in s.findings)


def write(fmt: str, report: Report, out) -> None:
    import importlib

    importlib.import_module(f"modetable.reports.{fmt}").write(report, out)
