"""Loading a rules file: every problem at once, each at its FILE:LINE:COL.

tests/rules_corpus/minimal.yaml is a small complete file; each file under
tests/rules_corpus/broken/ changes it in one place (or several, for
many-at-once.yaml) and lists the errors it must give at its end.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT, RULES, run_cli

from modetable.errors import ErrorList, ModetableError
from modetable.rules import load_ruleset

CORPUS = ROOT / "tests" / "rules_corpus"
MINIMAL = CORPUS / "minimal.yaml"
BROKEN = sorted((CORPUS / "broken").glob("*.yaml"))
EXPECT = "# expect: "


def load_errors(path: Path) -> list[str]:
    """The errors loading `path` gives, as `LINE:COL: [code] message` (file name dropped)."""
    try:
        load_ruleset(path)
    except ErrorList as exc:
        errors = exc.errors
    except ModetableError as exc:
        errors = [exc]
    else:
        return []
    prefix = f"{path}:"
    lines = [f"{e.location}: [{e.code}] {e.message}" for e in errors]
    assert all(line.startswith(prefix) for line in lines), lines
    return [line[len(prefix) :] for line in lines]


def _without_code(line: str) -> str:
    """`LINE:COL: [code] message` as the one-line error prints it: `LINE:COL: message`."""
    return re.sub(r": \[[a-z-]+\] ", ": ", line, count=1)


def expected(path: Path) -> list[str]:
    return [
        line[len(EXPECT) :] for line in path.read_text().splitlines() if line.startswith(EXPECT)
    ]


def test_the_minimal_file_and_the_shipped_file_load_clean():
    assert load_errors(MINIMAL) == []
    assert load_errors(RULES) == []


def test_the_corpus_covers_every_error_kind_of_the_issue():
    names = {path.stem for path in BROKEN}
    assert {
        "unknown-key",
        "wrong-type",
        "missing-field",
        "duplicate-key",
        "version-unquoted",
        "version-unknown",
        "since-not-before-until",
        "undefined-mode",
        "undefined-component",
        "undefined-source",
        "placeholder-unknown",
    } <= names


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_each_broken_file_gives_exactly_its_errors_in_file_order(path):
    wanted = expected(path)
    assert wanted, f"{path.name} lists no expected error"
    assert load_errors(path) == wanted


def test_an_unquoted_version_is_named_as_such():
    assert load_errors(CORPUS / "broken" / "version-unquoted.yaml") == [
        "26:12: [unquoted-version] modes[1].since: "
        'a version is a quoted string ("v1.3"); unquoted, '
        "YAML reads this one as the number 2.1"
    ]


def test_a_key_tagged_as_a_mapping_is_the_loaders_error_not_a_crash(tmp_path):
    """After a loader error the keys given twice are looked for; a scalar key
    tagged `!!map` is constructed as an empty dict there, no key at all (it
    crashed with a TypeError; the fuzzer of tags found it)."""
    path = tmp_path / "rules.yaml"
    path.write_text("format: 1\n!!map x: 1\n")
    assert load_errors(path) == ["2:1: [bad-tag] the YAML tag !!map needs a mapping, not a scalar"]


def test_every_command_reports_all_problems_as_one_line_each_and_exits_2():
    path = CORPUS / "broken" / "many-at-once.yaml"
    run = run_cli("--rules", str(path), "match", "--isvc", "x", "-")
    assert run.code == 2
    assert run.out == ""
    assert run.err.splitlines() == [
        f"modetable: error: {path}:{_without_code(line)}" for line in expected(path)
    ]
    assert "Traceback" not in run.err


def test_rules_check_reports_load_errors_as_findings_with_their_codes_and_exits_1():
    path = CORPUS / "broken" / "undefined-row.yaml"
    run = run_cli("rules", "check", str(path))
    assert run.code == 1
    assert run.out.splitlines() == [
        f"{path}:93:12: error: undefined-ref: unknown row 'same-modes' (did you mean 'same-mode'?)",
        f"{path}: 1 error, 0 warnings; 0 of 0 example runs passed",
    ]


def test_rules_check_on_an_unreadable_file_is_bad_input(tmp_path):
    run = run_cli("rules", "check", str(tmp_path / "absent.yaml"))
    assert run.code == 2
    assert run.err == (f"modetable: error: {tmp_path / 'absent.yaml'}: no such file or directory\n")


def test_a_source_with_a_path_and_present_paths_is_refused(tmp_path):
    text = MINIMAL.read_text().replace(
        '      path: "spec.{runtime_field}.annotations[{annotation_key}]"\n  running:',
        '      path: "spec.{runtime_field}.annotations[{annotation_key}]"\n'
        '      present: ["spec.{runtime_field}.leader"]\n  running:',
    )
    path = tmp_path / "rules.yaml"
    path.write_text(text)
    assert load_errors(path) == [
        "52:7: [incomplete-rule] a source has a path or present paths, not both"
    ]


def test_a_check_that_can_be_left_undecided_needs_its_not_checked_finding(tmp_path):
    text = RULES.read_text()
    entry = (
        "    rollout-plan-size:\n"
        "      severity: info\n"
        "      description: An inline rollout progression is checked against the operator's "
        "plan-size cap, which modetable cannot see.\n"
        "      help: Make sure the inline progression stays within the operator's plan-size cap.\n"
    )
    assert text.count(entry) == 1
    path = tmp_path / "modes.yaml"
    path.write_text(text.replace(entry, ""))
    [error] = load_errors(path)
    assert re.fullmatch(
        r"\d+:\d+: \[[a-z-]+\] findings\.not_checked has no entry for rollout-plan-size", error
    ), error
