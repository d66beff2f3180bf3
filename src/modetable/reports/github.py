"""GitHub Actions workflow commands: one `::error file=...,line=...::message`
per finding, which the runner shows as an annotation at that line."""

from __future__ import annotations

from typing import TextIO

from modetable.reports import Report
from modetable.reports.finding import Finding
from modetable.rules.words import Severity
from modetable.text.shown import escape

__all__ = ["command", "escape_data", "escape_property", "write"]

# A finding's severity → the workflow command that annotates with it.
_COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """A command's message: `%`, CR and LF escaped (the runner's own rules)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value: as the message, and `:` and `,` too."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(finding: Finding) -> str:
    where = finding.location
    properties = [f"file={escape_property(escape(where.file))}"]
    if where.line is not None:
        properties.append(f"line={where.line}")
    if where.col is not None:
        properties.append(f"col={where.col}")
    obj = finding.object
    subject = " ".join(p for p in (obj.kind, _ref(obj.namespace, obj.name)) if p)
    title = f"modetable {finding.id}" + (f" ({subject})" if subject else "")
    properties.append(f"title={escape_property(escape(title))}")
    # Values from manifests can hold terminal escapes the runner's log would
    # act on: escaped, as every output people read shows them.
    # The annotation stands in the InferenceService's file; the other objects'
    # places are named in its text.
    also = f" ({finding.see_also})" if finding.related else ""
    message = escape(finding.message + also + (f" ({finding.hint})" if finding.hint else ""))
    return f"::{_COMMANDS[finding.severity]} {','.join(properties)}::{escape_data(message)}"


def _ref(namespace: str | None, name: str | None) -> str:
    if name is None:
        return ""
    return f"{namespace}/{name}" if namespace else name


def write(report: Report, out: TextIO) -> None:
    for finding in report.findings:
        out.write(command(finding) + "\n")
    out.write(report.summary + "\n")
