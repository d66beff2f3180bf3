"""The decision table analysed in every version, in the spirit of DMN analysers.

The inputs are finite (each side declares a mode valid in the version, or
none), so every combination is tried; nothing is sampled. Codes are stable:

- GAP (error): a combination no row matches; deciding it would fail.
- OVERLAP (error): two rows match one combination where the hit policy does
  not allow it (UNIQUE: any two rows; ANY: rows with different outcomes).
- MASKED (warning): a row that never decides, because earlier rows match
  every combination it matches (or it matches none at all).
- UNUSED (warning): a name nothing refers to (a mode, message, outcome), or a
  version-gated rule in force in none of the listed versions.
- The file does not fit modetable's code (errors, with the codes a load error
  of the same kind has): a message the code looks up is missing
  (`undefined-ref`), or has params the code does not pass it
  (`params-not-passed`).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product

from modetable.authoring.callsites import call_sites
from modetable.authoring.patterns import compress, describe
from modetable.engine.matching import row_matches
from modetable.errors import ErrorCode, Location, Problem
from modetable.rules.policy import Policy, RuleSet
from modetable.rules.positions import field_name
from modetable.rules.validate import index
from modetable.rules.words import ConditionWord, HitPolicy, Severity
from modetable.versions import in_force

__all__ = [
    "ADVICE",
    "DESCRIPTIONS",
    "INPUTS",
    "WARNINGS",
    "analyse",
    "code_findings",
    "finding",
    "help_text",
    "severity",
    "unused",
]

# The analysis's own codes and their severity; any other finding is an error.
WARNINGS = frozenset({"MASKED", "UNUSED"})
# What each code means, for reports (SARIF's rule text). The rules file cannot
# say it: the file being checked may be the one that does not load.
DESCRIPTIONS = {
    "GAP": "A combination of modes no row of the matching table matches.",
    "OVERLAP": "Two rows match one combination where the hit policy does not allow it.",
    "MASKED": "A row that never decides: earlier rows match everything it matches.",
    "UNUSED": "A name nothing refers to, or a rule in force in none of the listed versions.",
    "EXAMPLE": "An example of the rules file that modetable does not reproduce.",
}
# What to do about each code: with its severity and meaning, the help SARIF's
# rules carry; docs/policy-authors.md's table of codes says the same
# (tests/test_rules_check_report.py holds the two equal).
ADVICE = {
    "GAP": "Add a row that matches the combination, or widen a row's condition "
    "(`-` is any mode or none) so that one does.",
    "OVERLAP": "Narrow one of the two rows so that they no longer both match, "
    "or order them and set the table's `hit_policy` to `FIRST`.",
    "MASKED": "Remove the row, or move it before the rows that match everything it matches.",
    "UNUSED": "Refer to the name or remove it; give the rule a `since`/`until` range "
    "that holds in a listed version, or remove it.",
    "EXAMPLE": "Correct the example's expected outcome or rule, or the rows that decide it.",
}
INPUTS = ("requested", "declared")


def finding(code: str, message: str, location: Location, versions: Iterable[str] = ()) -> Problem:
    """A finding: a Problem, with the severity its code has."""
    return Problem(
        code=code,
        message=message,
        location=location,
        severity=severity(code),
        versions=tuple(versions),
    )


def severity(code: str) -> Severity:
    """How bad a finding of `code` is: the analysis's warnings, else an error."""
    return Severity.WARNING if code in WARNINGS else Severity.ERROR


def help_text(code: str) -> str:
    """A code's help as SARIF's rule carries it: its severity, what it means,
    what to do (a load error's code: where docs/limits.md explains it)."""
    if code not in DESCRIPTIONS:
        return (
            f"Severity: {severity(code)}.\n\nThe rules file does not load ({code}): "
            "docs/limits.md lists the error codes and what each means."
        )
    return f"Severity: {severity(code)}.\n\n{DESCRIPTIONS[code]}\n\nWhat to do: {ADVICE[code]}"


def analyse(ruleset: RuleSet) -> list[Problem]:
    """Every finding of the file, each once with the versions it holds in, in file order."""
    found: dict[tuple[str, str, Location], list[str]] = {}
    for version in ruleset.versions:
        for code, message, where in _table_findings(ruleset, ruleset.at(version)):
            found.setdefault((code, message, where), []).append(version)
    findings = [
        finding(code, message, where, versions)
        for (code, message, where), versions in found.items()
    ]
    findings.extend(code_findings(ruleset))
    findings.extend(unused(ruleset))
    return sorted(findings, key=_position)


def _position(found: Problem) -> tuple[int, int, str]:
    location = found.location
    return (location.line or 0, location.col or 0, found.code) if location else (0, 0, found.code)


def _table_findings(ruleset: RuleSet, policy: Policy) -> Iterable[tuple[str, str, Location]]:
    """GAP, OVERLAP and MASKED for the matching table in force in one version."""
    rows = [
        (i, row)
        for i, row in enumerate(ruleset.rules.matching.rows)
        if in_force(row.since, row.until, policy.version)
    ]
    hit_policy = ruleset.rules.matching.hit_policy
    values: list[str | None] = [None, *policy.modes_in_force]
    domains = [values, values]
    gaps: list[tuple[tuple[str | None, ...], str]] = []
    matched_by: dict[int, list[tuple[str | None, str | None]]] = {i: [] for i, _ in rows}
    masked_by: dict[int, set[int]] = {i: set() for i, _ in rows}
    uncovered: set[int] = set()  # rows that match something no earlier row does
    overlaps: dict[tuple[int, int], list[tuple[tuple[str | None, ...], str]]] = {}
    for requested, declared in product(values, values):
        hits = [(i, row) for i, row in rows if row_matches(row, requested, declared)]
        if not hits:
            gaps.append(((requested, declared), "gap"))
            continue
        for position, (i, _row) in enumerate(hits):
            matched_by[i].append((requested, declared))
            if position == 0:
                uncovered.add(i)
            else:
                masked_by[i].add(hits[0][0])
        for (a, row_a), (b, row_b) in _pairs(hits):
            if hit_policy == HitPolicy.UNIQUE or (
                hit_policy == HitPolicy.ANY and row_a.outcome != row_b.outcome
            ):
                overlaps.setdefault((a, b), []).append(((requested, declared), "overlap"))
    show = _show
    for inputs, _label in compress(gaps, domains):
        yield (
            "GAP",
            f"no row matches {describe(INPUTS, inputs, domains, show)}",
            ruleset.locate("matching", "rows"),
        )
    masked = {i for i, _ in rows if i not in uncovered}
    by_index = dict(rows)
    for i in sorted(masked):
        where = ruleset.locate("matching", "rows", i)
        row = by_index[i]
        if not matched_by[i]:
            yield "MASKED", f"row {row.id} matches no input in this version", where
            continue
        earlier = ", ".join(by_index[j].id for j in sorted(masked_by[i]))
        yield (
            "MASKED",
            f"row {row.id} never decides: earlier rows ({earlier}) match everything it matches",
            where,
        )
    for (a, b), points in overlaps.items():
        if a in masked or b in masked:
            continue  # the MASKED finding says it: fix that row first
        row_a, row_b = by_index[a], by_index[b]
        outcomes = (
            f"both {row_a.outcome}"
            if row_a.outcome == row_b.outcome
            else f"{row_a.outcome} and {row_b.outcome}"
        )
        cases = "; ".join(
            describe(INPUTS, inputs, domains, show) for inputs, _ in compress(points, domains)
        )
        yield (
            "OVERLAP",
            f"rows {row_a.id} and {row_b.id} both match {cases} "
            f"({outcomes}; hit policy {hit_policy})",
            ruleset.locate("matching", "rows", b),
        )


def _pairs(hits: list) -> Iterable[tuple]:
    for x in range(len(hits)):
        for y in range(x + 1, len(hits)):
            yield hits[x], hits[y]


def _show(value: str | None) -> str:
    return ConditionWord.NONE if value is None else value


def code_findings(ruleset: RuleSet) -> list[Problem]:
    """Messages modetable's code looks up by key: defined, and given their params."""
    messages = ruleset.rules.messages
    findings = []
    for site in call_sites():
        message = messages.get(site.key)
        if message is None:
            findings.append(
                finding(
                    ErrorCode.UNDEFINED_REF,
                    f"no message {site.key!r}, which modetable uses ({site.where})",
                    ruleset.locate("messages"),
                )
            )
            continue
        missing = [p for p in message.params if site.passed is not None and p not in site.passed]
        if missing:
            passed = ", ".join(site.passed or ()) or "nothing"
            findings.append(
                finding(
                    ErrorCode.PARAMS_NOT_PASSED,
                    f"message {site.key!r} has params {', '.join(missing)}, "
                    f"but modetable passes it {passed} ({site.where})",
                    ruleset.locate("messages", site.key),
                )
            )
    return list(dict.fromkeys(findings))


def unused(ruleset: RuleSet) -> list[Problem]:
    """Names nothing refers to, and rules in force in no listed version."""
    names, _errors = index(ruleset.document, ruleset.file)
    in_code = {"message": {site.key for site in call_sites()}}
    findings = []
    for kind, definitions in names.definitions.items():
        referred = names.referred(kind) | in_code.get(kind, set())
        for name, definition in definitions.items():
            if definition.report_unused and name not in referred:
                findings.append(
                    finding(
                        "UNUSED", f"{kind} {name!r} is never referred to", names.locate(definition)
                    )
                )
    for path, since, until in names.gated:
        if not any(in_force(since, until, v) for v in ruleset.versions):
            findings.append(
                finding(
                    "UNUSED",
                    f"{_gated_name(ruleset, path)} is in force in none of the listed versions",
                    ruleset.locate(*path),
                )
            )
    return findings


def _gated_name(ruleset: RuleSet, path: tuple) -> str:
    """What a gated rule is: its place in the file, and its id or name when it has one."""
    node = ruleset.document
    for part in path:
        node = node[part]
    ident = node.get("id") or node.get("name") if isinstance(node, dict) else None
    return field_name(path) + (f" ({ident})" if isinstance(ident, str) else "")
