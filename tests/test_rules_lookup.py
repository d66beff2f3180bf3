"""One way to find the rules file, the same for every command: --rules FILE,
else MODETABLE_RULES, else ./rules/modes.yaml, else the bundled copy. Every
JSON output says which file and which rules line; a table output names the
file when it does not hold the bundled rules (wherever they are)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from conftest import EXAMPLES, RULES, replace_once, rules_copy, run_cli

import modetable
from modetable.rules.find import bundled_rules_path, find_rules, is_rules_file

ISVC = str(EXAMPLES / "inference-service.yaml")
MANIFESTS = str(EXAMPLES)

# Every command that answers with JSON, as run on the shipped example.
JSON_COMMANDS = {
    "effective": ["effective", "--isvc", ISVC, MANIFESTS],
    "match": ["match", "--isvc", ISVC, MANIFESTS],
    "admit": ["admit", "--isvc", ISVC, MANIFESTS],
    "select": ["select", "--isvc", ISVC, MANIFESTS],
    "explain": ["explain", "--isvc", ISVC, MANIFESTS],
    "audit": ["audit", MANIFESTS],
}


def _copy(folder: Path, *, edited: bool = True) -> Path:
    """A copy of the bundled rules; `edited`: one comment line added, so that
    it is a file of its own (an exact copy is the bundled rules)."""
    rules = rules_copy(folder / "rules" / "modes.yaml")
    if edited:
        with rules.open("a") as end:
            end.write("# a policy author's copy\n")
    return rules


def test_the_lookup_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert (find_rules().path, find_rules().how, find_rules().bundled) == (
        bundled_rules_path(),
        "bundled",
        True,
    )
    here = _copy(tmp_path)
    assert (find_rules().path, find_rules().how, find_rules().bundled) == (
        Path("rules/modes.yaml"),
        "here",
        False,
    )
    named = _copy(tmp_path / "elsewhere")
    monkeypatch.setenv("MODETABLE_RULES", str(named))
    assert (find_rules().path, find_rules().how) == (named, "environment")
    assert (find_rules(here).path, find_rules(here).how) == (here, "given")


def test_a_missing_file_the_variable_names_is_said_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    missing = tmp_path / "gone" / "modes.yaml"
    monkeypatch.setenv("MODETABLE_RULES", str(missing))
    run = run_cli("rules", "check")
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        f"modetable: error: {missing}: no such file or directory (from $MODETABLE_RULES)\n"
    )
    run = run_cli("--rules", str(missing), "audit", str(EXAMPLES))
    assert run.err == f"modetable: error: {missing}: no such file or directory\n"


def test_the_checkouts_own_file_is_the_bundled_one(monkeypatch):
    monkeypatch.chdir(RULES.parents[1])
    found = find_rules()
    assert (found.path, found.how, found.bundled) == (Path("rules/modes.yaml"), "here", True)


@pytest.mark.parametrize("command", list(JSON_COMMANDS))
def test_every_json_output_names_the_release_and_the_rules(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    rules = _copy(tmp_path / "mine")
    monkeypatch.setenv("MODETABLE_RULES", str(rules))
    run = run_cli("--ome-version", "1.3.4", *JSON_COMMANDS[command], "-o", "json")
    assert run.code in (0, 1), run.err
    data = json.loads(run.out)
    assert data["rules"] == {"path": str(rules), "version": "v1.3"}
    version = data["summary"]["version"] if command == "audit" else data["version"]
    assert version == "v1.3.4"


def test_the_upgrade_and_the_rules_commands_name_the_rules_too(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rules = _copy(tmp_path)
    run = run_cli("audit", "--from", "1.2.2", "--to", "v1.3.1", MANIFESTS, "-o", "json")
    data = json.loads(run.out)
    assert data["rules"] == {
        "path": "rules/modes.yaml",
        "version": None,
        "from": "v1.2.2",
        "to": "v1.3",
    }
    assert (data["summary"]["from"], data["summary"]["to"]) == ("v1.2.2", "v1.3.1")
    check = json.loads(run_cli("rules", "check", "-o", "json").out)
    assert check["rules"] == {"path": str(rules.relative_to(tmp_path)), "version": None}


@pytest.mark.parametrize("command", list(JSON_COMMANDS))
def test_a_table_names_a_rules_file_that_is_not_the_bundled_one(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    assert not run_cli(*JSON_COMMANDS[command]).out.startswith("rules:")
    _copy(tmp_path)
    run = run_cli("--ome-version", "v1.2.4", *JSON_COMMANDS[command])
    assert run.out.splitlines()[0] == "rules: rules/modes.yaml (v1.2.2 rules)"


@pytest.mark.parametrize("command", list(JSON_COMMANDS))
def test_a_file_holding_the_bundled_rules_byte_for_byte_is_not_announced(
    tmp_path, monkeypatch, command
):
    """A clone that installed modetable from itself (not editable) has its own
    rules/modes.yaml, the bundled rules in another place: tables say nothing,
    JSON still names the file read."""
    monkeypatch.chdir(tmp_path)
    _copy(tmp_path, edited=False)
    bundled = run_cli(*JSON_COMMANDS[command])
    monkeypatch.setenv("MODETABLE_RULES", str(RULES))  # the checkout's own: the bundled copy
    assert bundled.out == run_cli(*JSON_COMMANDS[command]).out
    monkeypatch.delenv("MODETABLE_RULES")
    data = json.loads(run_cli(*JSON_COMMANDS[command], "-o", "json").out)
    assert data["rules"] == {"path": "rules/modes.yaml", "version": "v1.3"}


def test_a_rules_diff_against_the_same_bytes_names_no_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    copy = _copy(tmp_path / "given", edited=False)
    run = run_cli("rules", "--rules", str(copy), "diff", "v1.2.2", "v1.3")
    assert not run.out.startswith("rules:"), run.out
    assert modetable.load_rules(copy).bundled
    assert not modetable.load_rules(_copy(tmp_path / "mine")).bundled


def test_every_command_reads_the_file_the_environment_names(tmp_path, monkeypatch):
    """A copy whose mode mismatch is reworded: each command answers with it."""
    rules = _copy(tmp_path / "policy")
    replace_once(
        rules,
        "does not match requested {component} deployment mode",
        "differs from the requested {component} mode",
    )
    monkeypatch.setenv("MODETABLE_RULES", str(rules))
    monkeypatch.chdir(tmp_path)
    reworded = (
        "runtime engine deployment mode MultiNode differs from the requested engine mode OMENative"
    )
    for command in ("match", "select", "explain"):
        assert reworded in run_cli(*JSON_COMMANDS[command]).out, command
    assert reworded in run_cli("audit", MANIFESTS, "-o", "json").out


def test_the_audits_markdown_names_a_rules_file_that_is_not_the_bundled_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cli("audit", MANIFESTS, "-o", "markdown").out.startswith("### modetable audit")
    _copy(tmp_path)
    lines = run_cli("audit", MANIFESTS, "-o", "markdown").out.splitlines()
    assert lines[:2] == ["rules: rules/modes.yaml (v1.3 rules)", "### modetable audit (v1.3)"]


# --- another tool's rules/modes.yaml ---------------------------------------------

FOREIGN = "rules:\n  - id: no-print\n    pattern: print(...)\n    severity: warning\n"
SKIPPED = (
    "rules/modes.yaml in the working directory is not a modetable rules file (not a YAML "
    "mapping with the keys format and product): skipped, the bundled rules are read"
)


def _foreign(folder: Path) -> Path:
    path = folder / "rules" / "modes.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(FOREIGN)
    return path


def test_another_tools_rules_file_here_is_skipped_with_one_warning(tmp_path, monkeypatch):
    """Every command reads the bundled rules instead, and says so once; its
    answer is the one it gives with no ./rules/modes.yaml at all."""
    monkeypatch.chdir(tmp_path)
    plain = {name: run_cli(*argv, "-o", "json") for name, argv in JSON_COMMANDS.items()}
    plain_check = run_cli("rules", "check")
    assert plain_check.out.startswith(f"{bundled_rules_path()}: 0 errors")
    _foreign(tmp_path)
    for name, argv in JSON_COMMANDS.items():
        run = run_cli(*argv, "-o", "json")
        assert (run.code, run.out) == (plain[name].code, plain[name].out), name
        assert run.err == f"modetable: warning: {SKIPPED}\n", name
    table = run_cli(*JSON_COMMANDS["select"])
    assert not table.out.startswith("rules:")
    check = run_cli("rules", "check")
    assert (check.code, check.out) == (0, plain_check.out)
    assert check.err == f"modetable: warning: {SKIPPED}\n"
    upgrade = run_cli("audit", "--from", "v1.2.2", MANIFESTS)
    assert upgrade.err == f"modetable: warning: {SKIPPED}\n"


def test_the_api_warns_and_reads_the_bundled_rules(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _foreign(tmp_path)
    with pytest.warns(modetable.ModetableWarning) as said:
        rules = modetable.load_rules()
    assert [str(w.message) for w in said] == [SKIPPED]
    assert (rules.file, rules.bundled) == (str(bundled_rules_path()), True)


def test_another_tools_file_given_or_named_is_an_error_as_before(tmp_path, monkeypatch):
    """--rules FILE and MODETABLE_RULES are asked for: read strictly, never skipped."""
    monkeypatch.chdir(tmp_path)
    foreign = _foreign(tmp_path / "other")
    given = run_cli("--rules", str(foreign), "audit", MANIFESTS)
    assert given.code == 2
    assert (
        given.err.splitlines()[0] == f"modetable: error: {foreign}:1:1: missing required key format"
    )
    monkeypatch.setenv("MODETABLE_RULES", str(foreign))
    named = run_cli("audit", MANIFESTS)
    assert (named.code, named.err) == (given.code, given.err)
    with pytest.raises(modetable.ModetableError, match="missing required key format"):
        modetable.load_rules()


def test_an_edited_copy_here_is_read_without_its_schema_line_and_keys_moved(tmp_path, monkeypatch):
    """A policy author's copy: the schema comment gone, `format` and `product`
    moved to the end of the file; still modetable's, so still read."""
    monkeypatch.chdir(tmp_path)
    rules = rules_copy(
        tmp_path / "rules" / "modes.yaml",
        ("# yaml-language-server: $schema=../schema/modes.schema.json\n", ""),
        ("format: 1\nproduct: OME\n", ""),
    )
    with rules.open("a") as end:
        end.write('product: "OME"\n"format": 1\n')
    assert not rules.read_text().startswith("# yaml-language-server")
    run = run_cli(*JSON_COMMANDS["select"], "-o", "json")
    assert run.err == ""
    assert json.loads(run.out)["rules"] == {"path": "rules/modes.yaml", "version": "v1.3"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert modetable.load_rules().file == "rules/modes.yaml"


def test_an_edited_copy_that_does_not_load_is_still_its_authors_error(tmp_path, monkeypatch):
    """A copy of modetable's rules with a mistake is modetable's: its error, not a skip."""
    monkeypatch.chdir(tmp_path)
    rules_copy(tmp_path / "rules" / "modes.yaml", ("default_version: ", "default_versions: "))
    run = run_cli(*JSON_COMMANDS["select"])
    assert run.code == 2
    assert run.err.startswith("modetable: error: rules/modes.yaml:")
    assert "default_versions" in run.err


@pytest.mark.parametrize(
    ("text", "ours"),
    [
        ("format: 1\nproduct: OME\nversions: []\n", True),
        ('{"product": "OME", "format": 1}', True),  # JSON is YAML
        ("a: {format: 1, product: OME}\nformat: 1\nproduct: x\n", True),
        ("? [format]\n: 1\nformat: 1\nproduct: OME\n", True),  # a key that is a collection
        ("format: 1\n", False),
        ("a: {format: 1, product: OME}\n", False),  # not at the top level
        ("a:\n  - format\n  - product\n", False),
        ("- format: 1\n  product: OME\n", False),  # a sequence
        ("format\n", False),  # a scalar
        ("", False),
        ("# only a comment\n", False),
        ("x: 1\n---\nformat: 1\nproduct: OME\n", False),  # the first document only
        ("x: [1,\nformat: 1\nproduct: OME\n", False),  # not YAML before the keys
        ("format: 1\nproduct: OME\nx: [1,\n", True),  # known before the mistake
        ("x: !python/name:os.getcwd\nformat: 1\nproduct: OME\n", True),  # tags never built
        ("k: &a 1\nformat: *a\nproduct: OME\n", True),
    ],
)
def test_what_a_modetable_rules_file_is(tmp_path, text, ours):
    path = tmp_path / "modes.yaml"
    path.write_text(text)
    assert is_rules_file(path) is ours
