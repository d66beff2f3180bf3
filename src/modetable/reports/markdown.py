"""Markdown for a pull-request comment: the summary, then a table of findings."""

from __future__ import annotations

from typing import TextIO

from modetable.docs.markdown import code, table
from modetable.reports import Report
from modetable.shown import escape

__all__ = ["HEADERS", "write"]

HEADERS = ("Severity", "Finding", "Subject", "Object to fix", "Where", "Message")


def write(report: Report, out: TextIO) -> None:
    out.write(f"### {report.title}\n\n{report.summary}\n")
    rows = []
    for subject in report.subjects:
        for finding in subject.findings:
            obj = finding.object
            ref = f"{obj.namespace}/{obj.name}" if obj.namespace else obj.name
            what = " ".join(p for p in (obj.kind, ref) if p) or "-"
            message = finding.message + (f" ({finding.hint})" if finding.hint else "")
            where = code(str(finding.location))
            # Escaped as every output people read shows values from manifests.
            cells = (escape(subject.name), escape(what), where, escape(message))
            rows.append([finding.severity, code(finding.id), *cells])
    if rows:
        out.write("\n" + table(HEADERS, rows))
    else:
        out.write("\nNo findings.\n")
