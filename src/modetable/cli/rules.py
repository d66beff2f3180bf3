"""`modetable rules check|schema|diff`: for the people who edit the rules file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from modetable.cli import RULES_HELP
from modetable.cli.common import CI_FORMATS, HTML_FORMAT, Io, add_output
from modetable.errors import ErrorList, Location, ModetableError, Problem
from modetable.rules.policy import RuleSet
from modetable.settled import frozen
from modetable.text.shown import escape

if TYPE_CHECKING:
    from modetable.authoring.diff import Side
    from modetable.authoring.examples import ExampleRun
    from modetable.rules.find import RulesPath
    from modetable.views.rules import RulesDiffView

__all__ = ["EXAMPLES", "EXIT_NEGATIVE", "EXIT_OK", "add_arguments", "run"]

EXAMPLES = """\
examples:
  modetable rules check --strict
  modetable rules check -o junit > rules-check.xml
  modetable rules diff v1.2.2 v1.3
"""

EXIT_OK = 0
EXIT_NEGATIVE = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(
        dest="rules_action", metavar="ACTION", parser_class=type(parser)
    )
    actions.required = True

    check = actions.add_parser(
        "check",
        help="validate the rules, analyse the decision table in every version, run the examples",
        description="Validate the rules file, analyse its decision table in every version "
        "(GAP, OVERLAP, MASKED, UNUSED) and run its examples. Exit 1 on any error.",
    )
    check.add_argument(
        "file", nargs="?", metavar="FILE", help="rules file (default: as for --rules)"
    )
    check.add_argument("--strict", action="store_true", help="warnings fail too (exit 1)")
    _rules_option(check)
    add_output(check, ci=True)

    actions.add_parser(
        "schema",
        help="print the rules file's JSON Schema (draft-07)",
        description="Print the JSON Schema (draft-07) of the rules file, generated from the "
        "classes that load it; schema/modes.schema.json keeps a copy for editors.",
    )

    diff = actions.add_parser(
        "diff",
        help="what changes between two versions (or two files), with the rule behind it",
        description="For every input combination of every decision, the outcome under each "
        "side, printing only what changed and the rule behind it. Exit 1 when anything "
        "changes. Two versions of one file, or --against another file at one version.",
    )
    diff.add_argument("versions", nargs="*", metavar="VERSION", help="V1 V2, or V with --against")
    diff.add_argument(
        "--against",
        metavar="OTHER_FILE",
        help="compare OTHER_FILE (before) with the rules file (after) at one version",
    )
    _rules_option(diff)
    add_output(diff, html=True)


def _rules_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        metavar="FILE",
        default=argparse.SUPPRESS,
        help=RULES_HELP,
    )


def _rules_file(args: argparse.Namespace, io: Io) -> RulesPath:
    """FILE or --rules, else the lookup every command uses (`rules/find.py`), a
    ./rules/modes.yaml it skips said as a warning."""
    from modetable.rules.find import find_rules

    return find_rules(getattr(args, "file", None) or getattr(args, "rules", None), io.warn)


def run(args: argparse.Namespace, io: Io) -> int:
    if args.rules_action == "check":
        return _check(args, io)
    if args.rules_action == "schema":
        from modetable.rules.schema import rules_schema_text

        io.stdout.write(rules_schema_text())
        return EXIT_OK
    return _diff(args, io)


# --- check ----------------------------------------------------------------------

# JUnit's classname of an example run that passed (a failing one is an EXAMPLE finding).
_EXAMPLE_GROUP = "example"


def _check(args: argparse.Namespace, io: Io) -> int:
    from modetable.output.render import dump, line
    from modetable.rules.find import named_by
    from modetable.rules.load import parse_rules, read_rules_text
    from modetable.rules.policy import RuleSet

    located = _rules_file(args, io)
    file = located.path
    with named_by(located.variable):
        text = read_rules_text(file)  # unreadable: bad input (exit 2), not a finding
    found: list[Problem] = []
    runs: list[ExampleRun] = []
    try:
        rules, document = parse_rules(text, str(file))
    except ModetableError as exc:
        errors = exc.errors if isinstance(exc, ErrorList) else [exc]
        found = [_placed(error.problem, file) for error in errors]
    else:
        ruleset = RuleSet(rules=rules, file=str(file), document=document, bundled=located.bundled)
        found, runs = _analyse(ruleset)
    found.sort(key=lambda p: (p.location.line or 0, p.location.col or 0) if p.location else (0, 0))
    from modetable.views.common import RulesView
    from modetable.views.rules import ExamplesView, ProblemView, RulesCheckView

    findings = tuple(ProblemView.of(problem) for problem in found)
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    passed = sum(r.passed for r in runs)
    view = RulesCheckView(
        file=escape(str(file)),
        findings=findings,
        examples=ExamplesView(len(runs), passed, len(runs) - passed),
        errors=errors,
        warnings=warnings,
        # Every version is analysed: no one line is used.
        rules=RulesView(path=str(file), version=None),
    )
    summary = (
        f"{file}: {_count(errors, 'error')}, {_count(warnings, 'warning')}; "
        f"{passed} of {_count(len(runs), 'example run')} passed"
    )
    if args.output in CI_FORMATS:
        from modetable.reports import write

        write(args.output, _report(file, found, runs, summary, args.strict), io.stdout)
    elif args.output != "table":
        from modetable.views.converter import unstructure

        dump(unstructure(view), args.output, io.stdout)
    else:
        for f in findings:
            versions = f" [{', '.join(f.versions)}]" if f.versions else ""
            io.stdout.write(line(f"{f.at}: {f.severity}: {f.code}{versions}: {f.message}"))
        io.stdout.write(line(summary))
    failed = errors > 0 or (args.strict and warnings > 0)
    return EXIT_NEGATIVE if failed else EXIT_OK


def _analyse(ruleset: RuleSet) -> tuple[list[Problem], list[ExampleRun]]:
    """The analysis's findings and the examples' runs (a failing example is a finding)."""
    from modetable.authoring.analysis import analyse, finding
    from modetable.authoring.examples import run_examples

    found = analyse(ruleset)
    runs = list(run_examples(ruleset))
    # One finding per example and failure, with every version it fails in.
    failed: dict[tuple[Location, str], list[str]] = {}
    for run in runs:
        if not run.passed:
            versions = failed.setdefault((run.location, f"{run.case}: {run.failure}"), [])
            if run.version:
                versions.append(run.version)
    found.extend(
        finding("EXAMPLE", message, location, versions)
        for (location, message), versions in failed.items()
    )
    return found, runs


def _report(
    file: Path, found: list[Problem], runs: list[ExampleRun], summary: str, strict: bool
) -> Any:
    """`rules check` for CI: each finding its own subject (a JUnit test case), and
    each example run that passed one with nothing found, so that a clean file
    is a report of passing tests, not an empty one (which some CI servers fail)."""
    from modetable.__about__ import __version__
    from modetable.authoring.analysis import DESCRIPTIONS, help_text, severity
    from modetable.reports import Report, Rule, Subject
    from modetable.reports.finding import Finding, ObjectRef

    nothing = ObjectRef(None, None, None)
    subjects = []
    for problem in found:
        where = problem.location or Location(str(file))
        versions = f" [{', '.join(problem.versions)}]" if problem.versions else ""
        code = str(problem.code)
        finding = Finding(problem.severity, code, problem.message + versions, where, nothing)
        subjects.append(Subject(f"{code} at {where}", code, where, (finding,)))
    for run in runs:
        if run.passed:
            name = f"{run.section}[{run.index}] {run.case}" + (
                f" ({run.version})" if run.version else ""
            )
            subjects.append(Subject(name, _EXAMPLE_GROUP, run.location, ()))
    rules = [
        Rule(code, text, str(severity(code)), help=help_text(code))
        for code, text in DESCRIPTIONS.items()
    ]
    # A load error's code (docs/limits.md) is a rule of its own.
    for code in dict.fromkeys(str(p.code) for p in found if str(p.code) not in DESCRIPTIONS):
        rules.append(
            Rule(code, f"The rules file does not load ({code}).", "error", help=help_text(code))
        )
    return Report(
        command="rules check",
        title=f"modetable rules check ({file})",
        subjects=tuple(subjects),
        rules=tuple(rules),
        summary=summary,
        fail_on="warning" if strict else "error",
        version=__version__,
        rules_path=str(file),
    )


def _placed(problem: Problem, file: Path) -> Problem:
    """A load error as a finding: at its place, or at the file."""
    return problem if problem.location else attrs.evolve(problem, location=Location(str(file)))


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


# --- diff -----------------------------------------------------------------------


@frozen
class _Comparison:
    before: Any  # authoring.diff.Side
    after: Any
    sections: list[Any]  # authoring.diff.Section


def _diff(args: argparse.Namespace, io: Io) -> int:
    from modetable.cli.common import policy_at
    from modetable.output.render import dump
    from modetable.rules.find import named_by
    from modetable.rules.policy import load_ruleset
    from modetable.views.common import RulesView
    from modetable.views.rules import ComparisonView, DiffRulesView, RulesDiffView, SectionView

    located = _rules_file(args, io)
    said: set[str] = set()

    def warn(text: str) -> None:
        """Once a run: both files' loads may find the same cache folder refused."""
        if text not in said:
            said.add(text)
            io.warn(text)

    with named_by(located.variable):
        ruleset = load_ruleset(located.path, warn)
    only_before: list[str] = []
    only_after: list[str] = []
    if args.against:
        if len(args.versions) > 1:
            raise ModetableError("with --against, name one version (or none for every version)")
        other = load_ruleset(args.against, warn)
        named = args.versions[0] if args.versions else getattr(args, "ome_version", None)
        if named is not None:
            # One release, placed on each file's own lines.
            pairs = [(policy_at(other, named, io), policy_at(ruleset, named, io))]
        else:
            common, only_before, only_after = _shared_versions(other, ruleset)
            pairs = [(other.at(v), ruleset.at(v)) for v in common]
        comparisons = [
            _compare(f"{other.file} ({was.version})", was, f"{ruleset.file} ({now.version})", now)
            for was, now in pairs
        ]
        used = DiffRulesView(
            path=RulesView.of(ruleset).path,
            version=pairs[0][1].version if named is not None else None,
            against=other.file,
        )
    else:
        if len(args.versions) != 2:
            raise ModetableError("name two versions to compare (or one with --against FILE)")
        was, now = (policy_at(ruleset, v, io) for v in args.versions)
        comparisons = [_compare(was.release, was, now.release, now)]
        used = DiffRulesView(
            path=RulesView.of(ruleset).path, version=None, before=was.version, after=now.version
        )
    changed = bool(only_before or only_after) or any(
        section.changes for c in comparisons for section in c.sections
    )
    if args.output != "table":
        last = comparisons[-1] if comparisons else None
        shown = tuple(
            ComparisonView(
                c.before.label, c.after.label, tuple(SectionView.of(s) for s in c.sections)
            )
            for c in comparisons
        )
        view = RulesDiffView(
            # The last (newest) comparison, as before every version was compared.
            before=last.before.label if last else None,
            after=last.after.label if last else None,
            sections=shown[-1].sections if shown else (),
            comparisons=shown,
            only_before=tuple(only_before),
            only_after=tuple(only_after),
            rules=used,
        )
        if args.output == HTML_FORMAT:
            if last is None:
                raise ModetableError("no version is in both files: nothing to draw")
            _diff_html(view, last.before, last.after, io)
        else:
            from modetable.views.converter import unstructure

            dump(unstructure(view), args.output, io.stdout)
    else:
        from modetable.cli.common import rules_note

        io.stdout.write(rules_note(ruleset))
        if args.against:
            for versions, file in ((only_before, other.file), (only_after, ruleset.file)):
                if versions:
                    io.stdout.write(
                        f"Only in {file}: {', '.join(versions)} (not compared; "
                        "`rules diff V1 V2` on that file shows what a line changes).\n"
                    )
            if not comparisons:
                io.stdout.write("No version is in both files.\n")
        for index, comparison in enumerate(comparisons):
            if index or only_before or only_after:
                io.stdout.write("\n")
            _print_comparison(comparison, io)
    return EXIT_NEGATIVE if changed else EXIT_OK


def _diff_html(view: RulesDiffView, before: Side, after: Side, io: Io) -> None:
    """The diff's view as a page, led by the matching matrix with its changed cells."""
    from modetable.html.diff_page import diff_page
    from modetable.html.matrix import diff_matrix_html, matrix_style

    caption = f"Matching under {after.label}, changes from {before.label} marked"
    matrix = diff_matrix_html(before.policy, after.policy, caption)
    io.stdout.write(diff_page(view, matrix, style=matrix_style()))


def _shared_versions(before: RuleSet, after: RuleSet) -> tuple[list[str], list[str], list[str]]:
    """The lines both files describe (as the newer file names them), then those only
    one of them has."""
    from modetable.versions import parse_version

    theirs = {parse_version(v): v for v in before.versions}
    ours = {parse_version(v): v for v in after.versions}
    common = sorted((v for v in ours if v in theirs), key=lambda v: v)
    return (
        [ours[v] for v in common],
        [name for v, name in sorted(theirs.items()) if v not in ours],
        [name for v, name in sorted(ours.items()) if v not in theirs],
    )


def _compare(before_label: str, before: Any, after_label: str, after: Any) -> _Comparison:
    from modetable.authoring.diff import Side, diff

    was, now = Side(before_label, before), Side(after_label, after)
    return _Comparison(was, now, diff(was, now))


def _print_comparison(comparison: _Comparison, io: Io) -> None:
    from modetable.output.render import line, table

    before, after = comparison.before, comparison.after
    io.stdout.write(line(f"From {before.label} to {after.label}:"))
    for section in (s for s in comparison.sections if s.changes):
        count = len(section.changes)
        changes = f"{count} change{'' if count == 1 else 's'}"
        if section.listed:
            io.stdout.write(f"\n{section.title}: {changes}\n")
            # One change a few lines: the values are whole rules and texts.
            for c in section.changes:
                io.stdout.write(line(f"{' '.join(c.inputs)}: {c.why}"))
                for label, value in ((before.label, c.before), (after.label, c.after)):
                    io.stdout.write(line(f"  {label}: {value}"))
            continue
        io.stdout.write(
            f"\n{section.title}: {changes} ({section.combinations} combinations tried)\n"
        )
        headers = [*section.inputs, before.label, after.label, "WHY"]
        rows = [[*c.inputs, c.before, c.after, c.why] for c in section.changes]
        io.stdout.write(table(headers, rows))
    unchanged = [s.title for s in comparison.sections if not s.changes]
    if unchanged:
        io.stdout.write("\n" + line(f"No change: {'; '.join(unchanged)}."))
