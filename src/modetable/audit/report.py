"""The audit for people and for CI: which InferenceServices it covers and shows
(kubectl's habits: a namespace, sorted rows, a severity), and the audit as a
`Report` in the formats CI reads."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from modetable.__about__ import __version__
from modetable.audit.findings import described
from modetable.audit.fleet import Audited, AuditSummary
from modetable.errors import Location
from modetable.inputs.baseline import BaselineEntry
from modetable.inputs.manifests import Cluster, Manifest
from modetable.reports.finding import Finding, at_least, worst
from modetable.rules.policy import Policy
from modetable.text.shown import escape

if TYPE_CHECKING:
    from modetable.reports import Report

__all__ = ["Concerns", "as_report", "audited_isvcs", "shown", "write_report"]

_MANIFESTS_GROUP = "manifests"


class Concerns:
    """What an audit `--within` a tree reports: what is written in the files
    given (pre-commit's changed files), and the InferenceServices whose runtime
    or model is. With no files given, everything."""

    def __init__(self, files: Sequence[str]) -> None:
        from pathlib import Path

        self._path = Path
        self.roots = [Path(f).resolve() for f in files if f != "-"]
        self.stdin = "-" in files
        self.everything = not files
        self._seen: dict[str, bool] = {}

    def file(self, name: str) -> bool:
        found = self._seen.get(name)
        if found is None:
            if name == "<stdin>":
                found = self.stdin
            else:
                path = self._path(name).resolve()
                found = any(path == r or r in path.parents for r in self.roots)
            self._seen[name] = found
        return found

    def location(self, location: Location | None) -> bool:
        return self.everything or (location is not None and self.file(location.file))

    def item(self, item: Audited) -> bool:
        if self.everything:
            return True
        outcome = item.outcome
        involved = (item.isvc, outcome.runtime, outcome.model, outcome.cause)
        return any(m is not None and self.file(m.location.file) for m in involved)


def audited_isvcs(cluster: Cluster, namespace: str | None) -> list[Manifest]:
    """The InferenceServices to audit, sorted by namespace then name (as kubectl
    lists them); only `namespace`'s when given."""
    chosen = [m for m in cluster.isvcs if namespace is None or m.namespace == namespace]
    return sorted(chosen, key=lambda m: (m.namespace or "", m.name))


def shown(item: Audited, threshold: str | None) -> bool:
    """Whether `--severity threshold` shows `item` (every item without it)."""
    if threshold is None:
        return True
    top = worst(item.findings)
    return top is not None and at_least(top, threshold)


def as_report(
    policy: Policy,
    items: Sequence[Audited],
    summary: AuditSummary,
    fail_on: str | None,
    preface: str = "",
    docs_url: str | None = None,
) -> Report:
    """The audit as a `Report`: a subject per InferenceService then per
    finding of the manifests; a rule per finding id with its help in full
    (the docs' entry for the id) and, with `docs_url` (the URL of the page of
    finding ids as the user hosts it), the link to its entry."""
    from modetable.audit.output import audit_summary_line
    from modetable.docs.finding_tables import finding_help, finding_uri
    from modetable.reports import Report, Rule, Subject

    subjects = [
        Subject(
            item.isvc.ref,
            item.isvc.namespace or "",
            item.isvc.location,
            item.findings,
            item.known,
            tuple((s.finding, s.ignore.waiver) for s in item.suppressed),
            isvc=item.isvc.ref,
        )
        for item in items
    ]
    entries = finding_help(policy)
    subjects += [
        Subject(_object_name(f), _MANIFESTS_GROUP, f.location, (f,))
        for f in summary.manifest_findings
    ]
    subjects += [
        Subject(_object_name(f), _MANIFESTS_GROUP, f.location, (), known=(f,))
        for f in summary.manifest_known
    ]
    subjects += [
        Subject(
            _object_name(s.finding),
            _MANIFESTS_GROUP,
            s.finding.location,
            (),
            suppressed=((s.finding, s.ignore.waiver),),
        )
        for s in summary.manifest_suppressed
    ]
    return Report(
        command="audit",
        title=f"modetable audit ({policy.version})",
        subjects=tuple(subjects),
        rules=tuple(
            Rule(
                finding_id,
                description,
                severity,
                help=entries.get(finding_id) or (f"{description}\n\n{to_do}" if to_do else None),
                help_uri=finding_uri(docs_url, finding_id) if docs_url else None,
            )
            for finding_id, description, severity, to_do in described(policy)
        ),
        summary=audit_summary_line(summary),
        fail_on=fail_on,
        version=__version__,
        rules_path=escape(policy.file),
        rules_version=policy.version,
        preface=preface,
        baseline=summary.fixed is not None,
    )


def _object_name(finding: Finding) -> str:
    obj = finding.object
    if obj.name is None:
        return str(finding.location)
    ref = f"{obj.namespace}/{obj.name}" if obj.namespace else obj.name
    return f"{obj.kind} {ref}"


def write_report(
    fmt: str,
    policy: Policy,
    items: list[Audited],
    summary: AuditSummary,
    out: TextIO,
    args: argparse.Namespace,
    preface: str = "",
    fixed: Sequence[BaselineEntry] = (),
) -> None:
    """The table, or a CI format (`reports.FORMATS`); `preface` begins the
    table and the Markdown (`rules: FILE`); `fixed`: the baseline's entries no
    longer found."""
    if fmt == "table":
        from modetable.audit.output import write_audit

        out.write(preface)
        write_audit(
            policy,
            items,
            summary,
            out,
            manifest_known=summary.manifest_known,
            manifest_suppressed=summary.manifest_suppressed,
            fixed=fixed,
            headers=not args.no_headers,
            verbose=getattr(args, "verbose", False),
        )
        return
    from modetable.reports import write

    fail_on = None if args.fail_on == "never" else args.fail_on
    docs_url = getattr(args, "docs_url", None)
    write(fmt, as_report(policy, items, summary, fail_on, preface, docs_url), out)
