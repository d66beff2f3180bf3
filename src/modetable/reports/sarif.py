"""SARIF 2.1.0 (the format code-scanning services read): one rule per finding
id, with its description, its help in full and, when a base URL for the docs
is given, a link to its entry; one result per finding, at its file and line,
with the baseline's fingerprint as its `partialFingerprints` (code scanning
follows an alert across lines moving): a suppressed finding too, with its
`suppressions`, and with a baseline each result's `baselineState`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from modetable.errors import Location
from modetable.reports import Report, Rule, Subject, Waiver
from modetable.reports.finding import Finding, fingerprint
from modetable.rules.words import Severity

__all__ = [
    "FINGERPRINT",
    "LEVELS",
    "SCHEMA",
    "VERSION",
    "document",
    "location",
    "result",
    "suppression",
    "uri",
    "write",
]

SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
VERSION = "2.1.0"
# The key of a result's partialFingerprints: the baseline's fingerprint, in
# its first form (a new form would be a new key, so that alerts are not lost).
FINGERPRINT = "modetable/v1"
# A finding's severity → SARIF's level.
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
# The file name modetable gives standard input: no artifact to point at.
_STDIN = "<stdin>"
# SARIF reads `[text](destination)` in a plain-text message as an embedded
# link (SARIF 2.1.0, 3.11.6), which viewers make clickable, and has no escape
# for it outside the link text. modetable's messages hold none, so one that a
# message quotes from an input is broken by a word joiner (U+2060, invisible)
# between `]` and `(`.
_EMBEDDED_LINK = "]("
_NO_LINK = "]\u2060("


def uri(file: str) -> str:
    """A manifest's path as a URI reference: relative paths stay relative (to
    the folder the command ran in), with `/` and percent-encoding."""
    path = Path(file)
    if path.is_absolute():
        return path.as_uri()
    return quote(os.fsencode(path.as_posix()))  # bytes: a name that is not UTF-8 too


def location(finding: Finding) -> dict[str, Any] | None:
    return _physical(finding.location)


def _physical(where: Location) -> dict[str, Any] | None:
    if where.file == _STDIN:
        return None
    region: dict[str, Any] = {}
    if where.line is not None:
        region["startLine"] = where.line
        if where.col is not None:
            region["startColumn"] = where.col
    physical: dict[str, Any] = {"artifactLocation": {"uri": uri(where.file)}}
    if region:
        physical["region"] = region
    return {"physicalLocation": physical}


def suppression(waiver: Waiver) -> dict[str, Any]:
    """SARIF's own way to say a result is suppressed: where the exception is
    kept (`inSource`: the object's annotation; `external`: the config file or
    the command line), accepted, with its reason."""
    data: dict[str, Any] = {
        "kind": "inSource" if waiver.in_source else "external",
        "status": "accepted",
        "justification": waiver.reason if waiver.reason is not None else str(waiver),
    }
    if waiver.at is not None:
        placed = _physical(waiver.at)
        if placed is not None:
            data["location"] = placed
    return data


def result(finding: Finding, index: int, subject: Subject | None = None) -> dict[str, Any]:
    """The finding as a result; with its `subject`, its fingerprint (the
    baseline's) as `partialFingerprints`."""
    obj = finding.object
    message = finding.message + (f" ({finding.hint})" if finding.hint else "")
    data: dict[str, Any] = {
        "ruleId": finding.id,
        "ruleIndex": index,
        "level": LEVELS[finding.severity],
        "message": {"text": message.replace(_EMBEDDED_LINK, _NO_LINK)},
    }
    placed = location(finding)
    if placed is not None:
        data["locations"] = [placed]
    if subject is not None:
        data["partialFingerprints"] = {FINGERPRINT: fingerprint(finding, subject.isvc)}
    # The other objects the finding involves (the model, the runtime), each
    # with what it is.
    also = []
    for number, other in enumerate(finding.related):
        physical = _physical(other.location)
        if physical is not None:
            also.append({"id": number, **physical, "message": {"text": other.label}})
    if also:
        data["relatedLocations"] = also
    if obj.kind is not None:
        data["properties"] = {"kind": obj.kind, "namespace": obj.namespace, "name": obj.name}
    return data


def _rule(rule: Rule) -> dict[str, Any]:
    """A reportingDescriptor: the description, the help in full (a viewer shows
    it alone), and the link to the id's entry in the docs when there is one
    (never a link that leads nowhere)."""
    data: dict[str, Any] = {
        "id": rule.id,
        "shortDescription": {"text": rule.description},
        "fullDescription": {"text": rule.description},
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
    }
    if rule.help is not None:
        link = f"\n\n[`{rule.id}`]({rule.help_uri})" if rule.help_uri else ""
        data["help"] = {"text": rule.help, "markdown": rule.help + link}
    if rule.help_uri is not None:
        data["helpUri"] = rule.help_uri
    return data


def document(report: Report) -> dict[str, Any]:
    rules = list(report.rules)
    known = {rule.id for rule in rules}
    # A finding whose id the report does not list still gets a rule (never in
    # the shipped rules: their ids are all listed).
    everything = [
        *report.findings,
        *(f for s in report.subjects for f in s.known),
        *(f for s in report.subjects for f, _waiver in s.suppressed),
    ]
    for finding in everything:
        if finding.id not in known:
            known.add(finding.id)
            rules.append(type(rules[0])(finding.id, finding.id, finding.severity))
    index = {rule.id: number for number, rule in enumerate(rules)}
    return {
        "$schema": SCHEMA,
        "version": VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "modetable",
                        "version": report.version,
                        "rules": [_rule(rule) for rule in rules],
                    }
                },
                "results": _results(report, index),
                **({"properties": {"rules": _rules_used(report)}} if report.rules_path else {}),
            }
        ],
    }


def _rules_used(report: Report) -> dict[str, str | None]:
    """The run's `"rules"` property: JSON's `"rules"` of the same run."""
    return {"path": report.rules_path, "version": report.rules_version}


def _results(report: Report, index: dict[str, int]) -> list[dict[str, Any]]:
    """Every finding, subject by subject: those that count, those the baseline
    knows (`baselineState` says which, when a baseline was read), then those
    suppressed, with their `suppressions`."""
    found = []
    for subject in report.subjects:
        for findings, state in ((subject.findings, "new"), (subject.known, "unchanged")):
            for finding in findings:
                data = result(finding, index[finding.id], subject)
                if report.baseline:
                    data["baselineState"] = state
                found.append(data)
        for finding, waiver in subject.suppressed:
            data = result(finding, index[finding.id], subject)
            data["suppressions"] = [suppression(waiver)]
            found.append(data)
    return found


def write(report: Report, out: TextIO) -> None:
    out.write(json.dumps(document(report), indent=2, ensure_ascii=False) + "\n")
