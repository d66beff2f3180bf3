"""docs/policy-authors.md followed as a policy author would, in a copy of the
rules: each step gives exactly what the page shows.

The page's snippets and outputs are read from the page itself, so the page
and the tool cannot drift apart. Positions in the shipped rules file
(`rules/modes.yaml:LINE:COL`) are compared as positions, not numbers: any edit
above them moves them, and the loader's positions are held exactly by the
broken-rules corpus (tests/test_rules_validation.py).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import (
    EXAMPLES,
    ROOT,
    isvc_doc,
    mode_annotation,
    replace_once,
    rules_copy,
    run_cli,
    runtime_doc,
)

from modetable.rules import load_ruleset

PAGE = ROOT / "docs" / "policy-authors.md"
CORPUS = ROOT / "tests" / "rules_corpus" / "broken"
MORE = "..."  # a quoted output that goes on


def section(title: str) -> str:
    text = PAGE.read_text()
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def fences(text: str) -> list[str]:
    """The contents of the fenced code blocks of `text`, in order."""
    return [m.group(1) for m in re.finditer(r"^```[a-z]*\n(.*?)^```$", text, re.M | re.S)]


POSITION = re.compile(r"(rules/modes\.yaml):\d+:\d+:")


def assert_shows(out: str, block: str, *, spaces: bool = True) -> None:
    """`out` is what the page quotes (up to a `...` line, when it goes on)."""
    wanted = [POSITION.sub(r"\1:LINE:COL:", line) for line in block.splitlines()]
    got = [POSITION.sub(r"\1:LINE:COL:", line) for line in out.splitlines()]
    if wanted[-1] == MORE:
        wanted = wanted[:-1]
        got = got[: len(wanted)]
    if not spaces:  # columns padded to another width
        wanted = [re.sub(" {2,}", "  ", line) for line in wanted]
        got = [re.sub(" {2,}", "  ", line) for line in got]
    assert got == wanted, "docs/policy-authors.md quotes other output:\n" + out


@pytest.fixture
def rules(tmp_path, monkeypatch) -> Path:
    """A copy of the shipped rules at rules/modes.yaml under the current directory."""
    path = rules_copy(tmp_path / "rules" / "modes.yaml")
    monkeypatch.chdir(tmp_path)
    return path


edit = replace_once


def check(*args: str):
    return run_cli("rules", "check", *args)


def test_add_a_mode(rules):
    text = section("Add a mode")
    snippet, unknown_version, unused, diff = fences(text)
    item = snippet.removeprefix("modes:\n")
    # At the end of the `modes:` list, as the page says.
    lines = rules.read_text().splitlines(keepends=True)
    start = lines.index("modes:\n") + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("  "))
    rules.write_text("".join(lines[:end]) + item + "".join(lines[end:]))
    run = check()
    assert run.code == 1
    assert_shows(run.out, unknown_version)

    versions = re.search(r"`(versions: \[[^`]*\])`", text).group(1)
    rules.write_text(re.sub(r"^versions: .*$", versions, rules.read_text(), count=1, flags=re.M))
    run = check()
    assert run.code == 0
    assert_shows(run.out, unused)
    assert check("--strict").code == 1

    engine = rules.read_text().index("  - name: engine\n")
    runs_in = rules.read_text().index("    runs_in: [", engine) + len("    runs_in: [")
    rules.write_text(rules.read_text()[:runs_in] + "Sharded, " + rules.read_text()[runs_in:])
    assert check("--strict").code == 0
    run = run_cli("rules", "diff", "v1.3", "v1.4")
    assert run.code == 1
    assert_shows(run.out, diff)


def test_a_new_release_line(rules, monkeypatch):
    text = section("A new release line")
    listed, newer, opened, diff = fences(text)
    assert listed in rules.read_text()
    (rules.parents[1] / "examples").symlink_to(EXAMPLES)
    admit = ("admit", "--isvc", "examples/inference-service.yaml", "examples/")
    run = run_cli("--ome-version", "v1.4.0", *admit)
    assert run.err.splitlines() == newer.splitlines()

    edit(rules, listed, opened)
    assert check("--strict").code == 0
    run = run_cli("--ome-version", "v1.4.0", *admit, "-o", "json")
    assert (run.err, run.json()["rules"]["version"]) == ("", "v1.4")
    assert run_cli(*admit, "-o", "json").json()["rules"]["version"] == "v1.3"  # the default
    run = run_cli("rules", "diff", "v1.3", "v1.4")
    assert run.code == 0
    assert_shows(run.out, diff)


def test_deprecate_a_mode(rules, tmp_path):
    text = section("Deprecate a mode")
    snippet, misspelled, virtual, deprecated, gated = fences(text)
    assert snippet in rules.read_text()
    shipped = rules.read_text()

    wrong = re.search(r"`(replacement: \w+)`", text).group(1)
    edit(rules, "        replacement: OMENative\n", f"        {wrong}\n")
    run = check()
    assert run.code == 1
    assert_shows(run.out, misspelled)

    old = tmp_path / "old.yaml"
    old.write_text(shipped)
    rules.write_text(shipped)
    edit(rules, "  - name: VirtualDeployment\n    status: legacy\n", virtual)
    assert check("--strict").code == 0
    run = run_cli("rules", "diff", "--against", str(old))
    assert run.code == 1
    assert_shows(run.out.replace(str(old), "/tmp/old.yaml"), deprecated, spaces=False)

    rules.write_text(shipped)
    run = run_cli("rules", "diff", "v1.2.2", "v1.3")
    assert run.code == 1
    assert_shows(run.out, gated)


def test_a_status_that_changes_with_the_version(rules):
    """The docs tables and the audit follow the mode's status in each version."""
    (rules.parents[1] / "examples").symlink_to(EXAMPLES)
    for version, status in (("v1.2.2", "current"), ("v1.3", "deprecated")):
        assert load_ruleset(rules).at(version).modes_in_force["MultiNode"].status == status
    fleet = rules.parents[1] / "fleet.yaml"
    fleet.write_text(
        yaml.safe_dump_all(
            [
                isvc_doc(engine=mode_annotation("MultiNode"), runtime={"name": "rt"}),
                runtime_doc("rt", engineConfig={}),
            ]
        )
    )
    audited = {
        version: run_cli("--ome-version", version, "audit", str(fleet), "-o", "json").json()
        for version in ("v1.2.2", "v1.3")
    }
    assert [d["mode"] for d in audited["v1.3"]["items"][0]["deprecations"]] == ["MultiNode"]
    assert audited["v1.2.2"]["items"][0]["deprecations"] == []
    assert (
        audited["v1.2.2"]["summary"]["deprecated"],
        audited["v1.3"]["summary"]["deprecated"],
    ) == (0, 1)


def test_reword_a_message(rules, tmp_path):
    text = section("Reword a message")
    reworded, diff, selected = fences(text)
    old = tmp_path / "old.yaml"
    old.write_text(rules.read_text())
    shipped = re.search(
        r"^  mode_mismatch:\n    origin: ome\n    text: .*\n", old.read_text(), re.M
    )
    edit(rules, shipped.group(0), reworded)
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    (tmp_path / "examples").symlink_to(EXAMPLES)

    assert check("--strict").code == 0
    run = run_cli("rules", "diff", "--against", str(old))
    assert run.code == 1
    assert_shows(run.out.replace(str(old), "/tmp/old.yaml"), diff)
    run = run_cli("select", "--isvc", "examples/inference-service.yaml", "examples/")
    assert run.code == 1
    assert_shows(run.out, selected)
    assert run_cli("docs", "--check").code == 1
    assert run_cli("docs").code == 0
    assert run_cli("docs", "--check").code == 0


def test_gate_a_rule_by_version(rules):
    snippet, out = fences(section("Gate a rule by version"))
    assert snippet in rules.read_text()
    slipped = snippet[::-1].replace('"3.1v"', '"2.2.1v"', 1)[::-1]  # the last until
    edit(rules, snippet, slipped)
    run = check()
    assert run.code == 1
    assert_shows(run.out, out)


def test_examples_are_tests(rules):
    table_example, out, source_example, kept_off = fences(section("Examples are tests"))
    example = table_example.removeprefix("  examples:\n")
    assert source_example in rules.read_text()
    edit(rules, example, example.replace("row: declared-none", "row: requested-none"))
    run = check()
    assert run.code == 1
    assert_shows(run.out, out)

    # A test-only example: run by the check, kept off the docs page.
    edit(rules, example.replace("row: declared-none", "row: requested-none"), example)
    edit(rules, example, example + kept_off)
    shutil.copytree(ROOT / "docs", rules.parents[1] / "docs")
    assert check("--strict").code == 0
    assert run_cli("docs", "--check").code == 0


def test_a_gap_an_overlap_and_a_masked_row(rules):
    rows, out = fences(section("The analysis codes"))
    text = rules.read_text()
    start = text.index("  rows:\n", text.index("\nmatching:\n"))
    end = min(text.index(after, start) for after in ("\n  #", "\n  examples:")) + 1
    edit(rules, text[start:end], rows)
    run = check()
    assert run.code == 1
    assert_shows(run.out, out)


def test_the_loading_table_quotes_the_corpus():
    expected = {
        re.sub(r"^\[[a-z-]+\] ", "", line.split(": ", 2)[-1])
        for path in CORPUS.glob("*.yaml")
        for line in path.read_text().splitlines()
        if line.startswith("# expect: ")
    }
    rows = [
        line
        for line in section("What loading checks").splitlines()
        if line.startswith("| ") and not line.startswith("| problem")
    ]
    assert len(rows) >= 12
    for row in rows:
        cell = row.split(" | ", 1)[1]
        quoted = re.match(r"(``?)(.+?)\1(?!`)", cell).group(2).strip()
        assert quoted in expected, row
