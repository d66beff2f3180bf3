"""The page of finding ids (region finding-ids): every id of the rules'
`findings`, each under a heading of its own, with its severity, what it means
and what to do; each entry's text, which SARIF's rules carry as their help;
and, given where the page is hosted (`audit --docs-url`), the link to an
id's entry (SARIF's helpUri)."""

from __future__ import annotations

import re

from modetable.docs.common import docs_of, range_note, required
from modetable.output.markdown import code
from modetable.rules.model.docs import FindingIds
from modetable.rules.model.findings import Findings
from modetable.rules.policy import Policy
from modetable.rules.words import FindingGroup
from modetable.text.templates import fill

__all__ = ["anchor", "finding_help", "finding_ids", "finding_uri"]

# What GitHub's and mkdocs' heading anchors drop (both keep letters, digits, `_`, `-`).
_DROPPED = re.compile(r"[^\w\- ]")
# The groups whose key is an admission check's id: its versions are the check's.
_ADMISSION_GROUPS = (FindingGroup.ADMISSION, FindingGroup.NOT_CHECKED)


def anchor(finding_id: str) -> str:
    """The anchor of the heading that is `finding_id` as code, as GitHub and
    mkdocs make it: lower case, punctuation but `-` and `_` dropped
    (`admission/model-exists` → `admissionmodel-exists`)."""
    return _DROPPED.sub("", finding_id.lower()).replace(" ", "-")


def finding_uri(page: str, finding_id: str) -> str:
    """Where the page of finding ids at `page` (its URL) explains `finding_id`."""
    return f"{page}#{anchor(finding_id)}"


def _words(policy: Policy) -> FindingIds:
    return required(
        policy, docs_of(policy).finding_ids, "the rules' docs: section has no finding_ids to render"
    )


def finding_ids(policy: Policy) -> str:
    """Every finding id, a heading each: its severity, what it means and what to do."""
    words = _words(policy)
    findings = required(
        policy, policy.rules.findings, "the rules have no `findings:` section to render"
    )
    return "\n\n".join(
        f"## {code(finding_id)}\n\n{text}" for finding_id, text in _entries(policy, words, findings)
    )


def finding_help(policy: Policy) -> dict[str, str]:
    """Each finding id's entry on the page, its heading left out (its
    severity, what it means, what to do): the help SARIF's rules carry.
    Empty when the rules' docs have no `finding_ids`."""
    docs, findings = policy.rules.docs, policy.rules.findings
    if docs is None or docs.finding_ids is None or findings is None:
        return {}
    return dict(_entries(policy, docs.finding_ids, findings))


def _entries(policy: Policy, words: FindingIds, findings: Findings) -> list[tuple[str, str]]:
    checks = {rule.id: rule for rule in policy.rules.admission}  # every version's
    entries = []
    for finding_id, kind in findings.entries():
        group, _, key = finding_id.partition("/")
        check = checks.get(key) if group in _ADMISSION_GROUPS else None
        since, until = (check.since, check.until) if check else (None, None)
        severity = fill(
            words.severity,
            {"severity": str(kind.severity), "range": range_note(policy, since, until)},
        )
        parts = [severity, kind.description]
        if kind.help:
            parts.append(fill(words.help, {"help": kind.help}))
        entries.append((finding_id, "\n\n".join(parts)))
    return entries
