"""JUnit XML: one test case per subject; it fails when a finding that counts
reaches the report's --fail-on severity, is skipped when it does not and has
pending findings (waiting for OME's model agent; the first one's message is
the reason), and lists the others in its output (those the baseline knows
and those suppressed marked so)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TextIO

from modetable.reports import KNOWN, Report, Subject
from modetable.reports.finding import Finding, at_least
from modetable.text.shown import escape

__all__ = ["failing", "line", "waiting", "write"]

# Characters XML 1.0 cannot hold (a value read from a manifest may have them).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _text(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def line(finding: Finding) -> str:
    text = f"{finding.location}: {finding.severity}: {finding.message} [{finding.id}]"
    also = f" ({finding.see_also})" if finding.related else ""
    return text + also + (f" ({finding.hint})" if finding.hint else "")


def failing(report: Report, subject: Subject) -> list[Finding]:
    """The subject's findings that reach --fail-on (never a pending one)."""
    if report.fail_on is None:
        return []
    return [f for f in subject.findings if not f.pending and at_least(f.severity, report.fail_on)]


def waiting(report: Report, subject: Subject) -> list[Finding]:
    """The subject's pending findings when it does not fail: a skipped case,
    the first pending finding's message its reason."""
    if failing(report, subject):
        return []
    return [f for f in subject.findings if f.pending]


def write(report: Report, out: TextIO) -> None:
    failures = sum(1 for s in report.subjects if failing(report, s))
    skipped = sum(1 for s in report.subjects if waiting(report, s))
    counts = {
        "tests": str(len(report.subjects)),
        "failures": str(failures),
        "errors": "0",
        "skipped": str(skipped),
        "time": "0",
    }
    suites = ET.Element("testsuites", {"name": _text(report.title), **counts})
    suite = ET.SubElement(suites, "testsuite", {"name": _text(report.title), **counts})
    properties = ET.SubElement(suite, "properties")
    ET.SubElement(properties, "property", {"name": "modetable", "value": report.version})
    for key, value in (("path", report.rules_path), ("version", report.rules_version)):
        if value is not None:
            ET.SubElement(properties, "property", {"name": f"rules.{key}", "value": _text(value)})
    for subject in report.subjects:
        case = ET.SubElement(
            suite,
            "testcase",
            {
                "classname": _text(subject.group),
                "name": _text(subject.name),
                "file": _text(escape(subject.location.file)),
                "line": str(subject.location.line or 0),
                "time": "0",
            },
        )
        failed = failing(report, subject)
        if failed:
            first = failed[0]
            failure = ET.SubElement(
                case, "failure", {"message": _text(first.message), "type": first.id}
            )
            failure.text = _text("\n".join(line(f) for f in failed))
        pending = waiting(report, subject)
        if pending:
            # Not decided until OME's model agent fills the model in.
            skip = ET.SubElement(case, "skipped", {"message": _text(pending[0].message)})
            skip.text = _text("\n".join(line(f) for f in pending))
        # The rest, those accepted too, marked: the output a test report shows.
        others = [line(f) for f in subject.findings if f not in failed and f not in pending]
        others += [f"{line(f)} ({KNOWN})" for f in subject.known]
        others += [f"{line(f)} ({waiver})" for f, waiver in subject.suppressed]
        if others:
            ET.SubElement(case, "system-out").text = _text("\n".join(others))
    ET.indent(suites)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ET.tostring(suites, encoding="unicode") + "\n")
