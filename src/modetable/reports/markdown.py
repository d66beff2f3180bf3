"""Markdown for a pull-request comment: the summary, then a table of findings,
cut to the length a comment may have.

Every value from the inputs (names, file names, the messages that quote
manifests) is written with `inert`: GitHub shows it as text, never as HTML, a
link, an image or a mention that would notify someone. The headings, the
table and the words modetable adds are its own Markdown."""

from __future__ import annotations

from typing import TextIO

from modetable.output.markdown import code, inert, table
from modetable.reports import Report
from modetable.reports.finding import SEVERITIES, Finding

__all__ = ["COMMENT_LIMIT", "HEADERS", "write"]

HEADERS = ("Severity", "Finding", "Subject", "Object to fix", "Where", "Message")
# GitHub refuses a comment longer than this ("Body is too long (maximum is
# 65536 characters)"): past it, the table keeps the most severe findings.
COMMENT_LIMIT = 65_536


def write(report: Report, out: TextIO) -> None:
    # The preface, the title and the summary are plain text that names inputs
    # (the rules file, the file `rules check` reads).
    preface = "".join(f"{inert(line)}\n" for line in report.preface.splitlines())
    head = f"{preface}### {inert(report.title)}\n\n{inert(report.summary)}\n"
    found = [(subject.name, finding) for subject in report.subjects for finding in subject.findings]
    head += _accepted(report)
    if not found:
        out.write(head + "\nNo findings.\n")
        return
    out.write(head + _fitting(found, COMMENT_LIMIT - len(head)))


def _accepted(report: Report) -> str:
    """A line counting the findings accepted (the table lists only those that
    count), or "" when none is."""
    known = sum(len(s.known) for s in report.subjects)
    suppressed = sum(len(s.suppressed) for s in report.subjects)
    if not known and not suppressed:
        return ""
    parts = [f"{known} known (the baseline)"] if known else []
    parts += [f"{suppressed} suppressed"] if suppressed else []
    return (
        f"\nNot in the table: {' and '.join(parts)}, which never fail; "
        "`-v` and `-o json` list them.\n"
    )


def _row(subject: str, finding: Finding) -> list[str]:
    obj = finding.object
    ref = f"{obj.namespace}/{obj.name}" if obj.namespace else obj.name
    what = inert(" ".join(p for p in (obj.kind, ref) if p)) or "-"
    # A hint is the rules' own text (its Markdown kept); the message quotes inputs.
    message = inert(finding.message) + (f" ({finding.hint})" if finding.hint else "")
    where = _code(str(finding.location)) + "".join(
        f"\nsee {inert(r.label)} at {_code(str(r.location))}" for r in finding.related
    )
    cells = (inert(subject), what, where, message)
    return [finding.severity, _code(finding.id), *cells]


def _code(text: str) -> str:
    """`text` as a code span, where nothing is markup; one that holds a `|`
    (a file name may) as inert text instead, since a table would split the span
    or, in `cell`'s HTML `<code>`, read its content as Markdown."""
    return inert(text) if "|" in text else code(text)


def _fitting(found: list[tuple[str, Finding]], room: int) -> str:
    """The table of every finding, or, when it does not fit in `room`, of as
    many as fit, the most severe first, and a line saying what is left out."""
    whole = "\n" + table(HEADERS, [_row(*pair) for pair in found])
    if len(whole) <= room:
        return whole
    ranked = sorted(found, key=lambda pair: SEVERITIES.index(pair[1].severity))
    rows = [_row(*pair) for pair in ranked]

    def shown(kept: int) -> str:
        left = [finding.severity for _, finding in ranked[kept:]]
        counts = ", ".join(_count(left.count(s), s) for s in SEVERITIES if s in left)
        more = "1 more finding is" if len(left) == 1 else f"{len(left)} more findings are"
        note = (
            f"\n{more} not shown ({counts}): a comment holds at most {COMMENT_LIMIT:,} "
            "characters. The table, `-o github` and `-o sarif` list every one.\n"
        )
        return ("\n" + table(HEADERS, rows[:kept]) if kept else "") + note

    low, high = 0, len(rows) - 1  # the most rows that fit lie in [low, high]
    while low < high:
        middle = (low + high + 1) // 2
        if len(shown(middle)) <= room:
            low = middle
        else:
            high = middle - 1
    return shown(low)


def _count(number: int, severity: str) -> str:
    return f"{number} {severity}" + ("s" if number != 1 and severity != "info" else "")
