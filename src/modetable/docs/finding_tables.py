"""The page of finding ids (region finding-ids): every id of the rules'
`findings`, each under a heading of its own, with its severity, what it means
and what to do; and the link to an id's entry that reports carry (SARIF's
helpUri), from the rules' `docs.finding_ids.uri`."""

from __future__ import annotations

import re

from modetable.__about__ import __version__
from modetable.docs.common import docs_of, range_note, rules_location
from modetable.errors import ModetableError
from modetable.output.markdown import code
from modetable.rules.model.docs import FindingIds
from modetable.rules.policy import Policy
from modetable.rules.words import FindingGroup
from modetable.text.templates import fill

__all__ = ["anchor", "finding_ids", "finding_uri"]

# What GitHub's and mkdocs' heading anchors drop (both keep letters, digits, `_`, `-`).
_DROPPED = re.compile(r"[^\w\- ]")
# The groups whose key is an admission check's id: its versions are the check's.
_ADMISSION_GROUPS = (FindingGroup.ADMISSION, FindingGroup.NOT_CHECKED)


def anchor(finding_id: str) -> str:
    """The anchor of the heading that is `finding_id` as code, as GitHub and
    mkdocs make it: lower case, punctuation but `-` and `_` dropped
    (`admission/model-exists` → `admissionmodel-exists`)."""
    return _DROPPED.sub("", finding_id.lower()).replace(" ", "-")


def finding_uri(policy: Policy, finding_id: str) -> str | None:
    """Where the docs explain `finding_id`; None when the rules say no page."""
    docs = policy.rules.docs
    if docs is None or docs.finding_ids is None:
        return None
    return fill(docs.finding_ids.uri, {"version": __version__, "anchor": anchor(finding_id)})


def _words(policy: Policy) -> FindingIds:
    found = docs_of(policy).finding_ids
    if found is None:
        raise ModetableError(
            "the rules' docs: section has no finding_ids to render", rules_location(policy)
        )
    return found


def finding_ids(policy: Policy) -> str:
    """Every finding id, a heading each: its severity, what it means and what to do."""
    words = _words(policy)
    findings = policy.rules.findings
    if findings is None:
        raise ModetableError(
            "the rules have no `findings:` section to render", rules_location(policy)
        )
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
        parts = [f"## {code(finding_id)}", severity, kind.description]
        if kind.help:
            parts.append(fill(words.help, {"help": kind.help}))
        entries.append("\n\n".join(parts))
    return "\n\n".join(entries)
