"""The region about admission: the checks in force, in the order they run,
with what each reads and the texts it gives."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from modetable.docs.common import display_path, docs_of, range_note, required
from modetable.output.markdown import code, table, words
from modetable.rules.model.admission import AdmissionRule, FieldTest
from modetable.rules.model.docs import AdmissionTable
from modetable.rules.policy import Policy
from modetable.rules.words import AdmissionCheck, AdmissionEmit, Stage
from modetable.text.templates import fill

__all__ = ["admission_checks"]


def _words(policy: Policy) -> AdmissionTable:
    return required(
        policy,
        docs_of(policy).admission_table,
        "the rules' docs: section has no admission_table to render",
    )


def admission_checks(policy: Policy) -> str:
    """The admission checks in force, in the order they run: what each reads, and its texts."""
    docs = _words(policy)
    rows = []
    ordered = sorted(policy.admission, key=lambda r: r.stage != Stage.SCHEMA)
    for number, rule in enumerate(ordered, 1):
        notes = [f"{code(rule.id)} ({rule.stage}){range_note(policy, rule.since, rule.until)}"]
        if rule.doc:
            notes.append(rule.doc)
        if rule.each:
            notes.append(fill(docs.each, {"components": words(list(rule.each), "then")}))
        if rule.emit == AdmissionEmit.WARNING:
            notes.append(docs.warning)
        in_version = {r.id for r in policy.admission}
        if rule.undecided is not None and set(rule.undecided.after) <= in_version:
            why = policy.rules.messages[rule.undecided.why].text
            notes.append(fill(docs.undecided, {"why": why}))
        reads = sorted(dict.fromkeys(_reads(policy, rule)))
        rows.append(
            [str(number), "\n".join(notes), ", ".join(reads), "\n".join(_texts(policy, rule))]
        )
    return table(docs.headers, rows)


def _reads(policy: Policy, rule: AdmissionRule) -> Iterator[str]:
    """The fields a check reads, as the docs write paths."""
    sources = policy.sources_by_id
    for source_id in (*([rule.source] if rule.source else []), *rule.mode_sources):
        if sources[source_id].path is not None:
            yield display_path(policy, sources[source_id].path or "")
    tests: list[FieldTest] = [*rule.guard, *(rule.undecided.when if rule.undecided else ())]
    for case in rule.cases:
        tests.extend(case.when)
        for value in case.values.values():
            if value.field is not None:
                yield display_path(policy, value.field)
            for source_id in value.sources:
                yield display_path(policy, sources[source_id].path or "")
    for test in tests:
        for path in (test.field, test.other):
            if path is not None:
                yield display_path(policy, path)
        for source_id in test.sources:
            yield display_path(policy, sources[source_id].path or "")
    if rule.check == AdmissionCheck.CRD_SCHEMA and _words(policy).crd_schema_reads:
        yield _words(policy).crd_schema_reads
    selection = policy.rules.selection
    if rule.check == AdmissionCheck.MODEL_EXISTS and selection is not None:
        ref = selection.model_ref
        yield display_path(policy, f"{ref.path}.{ref.name}")
    if rule.rollout is not None:
        yield display_path(policy, rule.rollout.groups)
    if rule.rollout is not None and rule.ordering is not None:
        yield display_path(policy, rule.rollout.group_ordering)
    if rule.check == AdmissionCheck.SELECTION and selection is not None:
        yield display_path(policy, selection.model_ref.path)
        yield display_path(policy, policy.rules.runtime_ref.name.rpartition(".")[0])


def _texts(policy: Policy, rule: AdmissionRule) -> list[str]:
    """The texts the check gives, each a code span, in the order it tries them."""
    messages = policy.rules.messages
    keys: list[str] = []
    if rule.message:
        keys.append(rule.message)
    keys.extend(case.message for case in rule.cases)
    for group in (rule.canary, rule.coordination, rule.budgets, rule.soak, rule.ordering):
        if group is not None:
            keys.extend(v for v in attrs.asdict(group).values() if v in messages)
    if rule.check == AdmissionCheck.CRD_SCHEMA:
        return [code(text) for text in _words(policy).crd_schema_texts]
    if rule.check == AdmissionCheck.SELECTION:
        outcomes = words([code(o) for o in rule.outcomes], "and")
        return [fill(_words(policy).selection, {"outcomes": outcomes})]
    return [code(messages[k].text) for k in dict.fromkeys(keys)]
