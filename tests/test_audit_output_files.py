"""`audit --output-file FORMAT=PATH`: several formats from one run (the GitHub
Action's annotations, SARIF, JSON and Markdown), each file exactly what `-o
FORMAT` prints, written all or none, and never on bad input."""

from __future__ import annotations

import pytest
from conftest import run_cli
from test_audit import write_fleet

from modetable.cli.audit import OUTPUT_FORMATS


@pytest.fixture
def fleet(tmp_path, monkeypatch):
    write_fleet(tmp_path)
    monkeypatch.chdir(tmp_path)
    return "fleet"


def test_every_format_is_what_o_prints_from_one_run(fleet, tmp_path):
    assert OUTPUT_FORMATS == (
        "table",
        "json",
        "yaml",
        "github",
        "junit",
        "sarif",
        "markdown",
        "html",
    )
    files = [f"--output-file={fmt}=out/audit.{fmt}" for fmt in OUTPUT_FORMATS]
    run = run_cli("audit", fleet, "-o", "github", *files)
    alone = {fmt: run_cli("audit", fleet, "-o", fmt) for fmt in OUTPUT_FORMATS}
    assert (run.code, run.out, run.err) == (1, alone["github"].out, "")
    for fmt in OUTPUT_FORMATS:
        assert alone[fmt].code == 1
        assert (tmp_path / "out" / f"audit.{fmt}").read_text() == alone[fmt].out, fmt
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(
        f"audit.{fmt}" for fmt in OUTPUT_FORMATS
    )


def test_the_options_apply_to_the_files_too(fleet, tmp_path):
    """--severity, -n and --fail-on shape the files as they shape -o; -q
    silences standard output, not the files."""
    argv = ("audit", fleet, "-n", "a", "--severity", "warning", "--fail-on", "warning")
    run = run_cli(*argv, "-q", "--output-file", "markdown=a.md", "--output-file", "json=a.json")
    assert (run.code, run.out, run.err) == (1, "", "")
    assert (tmp_path / "a.md").read_text() == run_cli(*argv, "-o", "markdown").out
    assert (tmp_path / "a.json").read_text() == run_cli(*argv, "-o", "json").out


@pytest.mark.parametrize(
    ("given", "error"),
    [
        ("x=a.json", "--output-file takes FORMAT=PATH, FORMAT one of table, json, yaml, github, "
         "junit, sarif, markdown, html: not 'x=a.json'"),
        ("json", "--output-file takes FORMAT=PATH, FORMAT one of table, json, yaml, github, "
         "junit, sarif, markdown, html: not 'json'"),
        ("json=", "--output-file takes FORMAT=PATH, FORMAT one of table, json, yaml, github, "
         "junit, sarif, markdown, html: not 'json='"),
        ("json=-", "--output-file names a file, not standard output (-o's): 'json=-'"),
    ],
)  # fmt: skip
def test_a_malformed_entry_is_an_error(fleet, tmp_path, given, error):
    run = run_cli("audit", fleet, "--output-file", given)
    assert (run.code, run.out, run.err) == (2, "", f"modetable: error: {error}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fleet"]


def test_one_file_named_twice_is_an_error(fleet, tmp_path):
    run = run_cli("audit", fleet, "--output-file=json=a", "--output-file=sarif=./a")
    assert (run.code, run.out, run.err) == (
        2,
        "",
        "modetable: error: --output-file names './a' twice\n",
    )
    assert not (tmp_path / "a").exists()


def test_bad_input_writes_no_file(fleet, tmp_path):
    (tmp_path / "old.json").write_text("old\n")
    run = run_cli("audit", "nosuch", "--output-file=json=old.json", "--output-file=sarif=new")
    assert (run.code, run.out) == (2, "")
    assert run.err == "modetable: error: nosuch: no such file or directory\n"
    assert (tmp_path / "old.json").read_text() == "old\n"
    assert not (tmp_path / "new").exists()


def test_the_files_are_written_all_or_none(fleet, tmp_path):
    """One file cannot be written (a file stands where its folder would be):
    one error, no file written, nothing on standard output."""
    (tmp_path / "in-the-way").write_text("")
    run = run_cli(
        "audit", fleet, "--output-file=json=a.json", "--output-file=sarif=in-the-way/a.sarif"
    )
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        "modetable: error: in-the-way: cannot create the folder: a file of that name is in "
        "the way\n"
    )
    assert not (tmp_path / "a.json").exists()


def test_the_upgrade_view_takes_no_output_file(fleet):
    run = run_cli("audit", "--from", "v1.2.2", fleet, "--output-file", "json=a.json")
    assert (run.code, run.out, run.err) == (
        2,
        "",
        "modetable: error: --output-file applies to an audit, not to --from\n",
    )
