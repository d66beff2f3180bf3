"""Any OME release is a valid --ome-version: the rules line that holds it
applies (`versions:` lists the lines; each holds until the next, the newest
through its minor series). Older than the oldest line is a one-line error,
newer than the newest series the newest rules with a one-line warning."""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES, RULES, rules_copy, run_cli

from modetable.errors import ModetableError
from modetable.rules import load_ruleset
from modetable.versions import place

LINES = ("v1.2.2", "v1.3")
ISVC = str(EXAMPLES / "inference-service.yaml")
OLDER = "OME {v} is older than these rules describe: they cover v1.2.2 to v1.3.x"
NEWER = (
    "OME {v} is newer than these rules describe: they were written for v1.3 (v1.3.x); "
    "using the v1.3 rules"
)


@pytest.mark.parametrize(
    ("release", "asked", "line"),
    [
        # The edges of the v1.2.2 line: its first release, its last patch, the
        # pre-release of the next line's first release.
        ("v1.2.2", "v1.2.2", "v1.2.2"),
        ("1.2.2", "v1.2.2", "v1.2.2"),
        ("v1.2.2-rc.1", "v1.2.2-rc.1", "v1.2.2"),
        ("v1.2.3", "v1.2.3", "v1.2.2"),
        ("v1.2.99", "v1.2.99", "v1.2.2"),
        # The v1.3 line: `v1.3` and `v1.3.0` are one release; every patch.
        ("v1.3", "v1.3", "v1.3"),
        ("v1.3.0", "v1.3.0", "v1.3"),
        ("V1.3.0", "v1.3.0", "v1.3"),
        ("v1.3.0-rc.1", "v1.3.0-rc.1", "v1.3"),
        ("v1.3.1", "v1.3.1", "v1.3"),
        ("1.3.2", "v1.3.2", "v1.3"),
        ("v1.3.99", "v1.3.99", "v1.3"),
    ],
)
def test_a_release_gets_the_rules_of_the_line_that_holds_it(release, asked, line):
    placed = place(release, LINES)
    assert (placed.asked, placed.line, placed.warning) == (asked, line, None)


@pytest.mark.parametrize("release", ["v1.4", "v1.4.0", "v1.4.0-rc.1", "2.0", "v10"])
def test_newer_than_the_newest_series_is_the_newest_rules_and_a_warning(release):
    placed = place(release, LINES)
    shown = release if release.startswith("v") else f"v{release}"
    assert (placed.line, placed.warning) == ("v1.3", NEWER.format(v=shown))


@pytest.mark.parametrize("release", ["v1.2.1", "v1.2", "1.0", "v0.9.9", "v1.2.1-rc.1"])
def test_older_than_the_oldest_line_is_an_error_naming_what_the_rules_cover(release):
    with pytest.raises(ModetableError) as caught:
        place(release, LINES)
    shown = release if release.startswith("v") else f"v{release}"
    assert str(caught.value) == OLDER.format(v=shown)


@pytest.mark.parametrize("text", ["banana", "", "v1.3-", "latest"])
def test_a_string_that_is_no_version_is_an_error(text):
    with pytest.raises(ModetableError) as caught:
        place(text, LINES)
    assert str(caught.value) == f"{text!r} is not an OME version (write it like v1.3.1)"


def test_a_long_or_spoofing_non_version_is_shown_shortened_and_escaped():
    """A value of 5,000 characters is not echoed whole, nor a terminal escape raw."""
    for text, shown in (
        ("v1." + "9" * 5000, "'v1." + "9" * 34 + "...'"),
        ("v1.\x1b[2J", "'v1.\\x1b[2J'"),
    ):
        with pytest.raises(ModetableError) as caught:
            place(text, LINES)
        assert str(caught.value) == f"{shown} is not an OME version (write it like v1.3.1)"


def test_a_long_version_is_named_shortened_in_the_warning_and_the_error():
    """`v1.` and 4,000 digits is a version: named quoted and shortened, not whole."""
    placed = place("v1." + "9" * 4000, LINES)
    assert placed.warning == NEWER.format(v="'v1." + "9" * 34 + "...'")
    with pytest.raises(ModetableError) as caught:
        place("v0." + "9" * 4000, LINES)
    assert str(caught.value) == OLDER.format(v="'v0." + "9" * 34 + "...'")


def test_the_policy_keeps_the_release_asked_and_the_line_used():
    policy = load_ruleset(RULES).at("1.3.2")
    assert (policy.release, policy.version, policy.warning) == ("v1.3.2", "v1.3", None)
    assert load_ruleset(RULES).at().release == "v1.3"


def _json(*argv: str):
    run = run_cli(*argv, "-o", "json")
    assert run.code in (0, 1), run.err
    return run, json.loads(run.out)


def test_a_patch_release_on_the_command_line(monkeypatch):
    monkeypatch.chdir(EXAMPLES.parent)
    run, data = _json("--ome-version", "v1.3.1", "select", "--isvc", ISVC, "examples/")
    assert (run.err, data["version"], data["rules"]["version"]) == ("", "v1.3.1", "v1.3")
    run, data = _json("--ome-version", "1.2.5", "select", "--isvc", ISVC, "examples/")
    assert (run.err, data["version"], data["rules"]["version"]) == ("", "v1.2.5", "v1.2.2")


def test_the_warning_and_the_error_are_one_line_each(monkeypatch):
    monkeypatch.chdir(EXAMPLES.parent)
    run = run_cli("--ome-version", "v1.4.0", "admit", "--isvc", ISVC, "examples/")
    assert run.code == 1  # denied: no runtime qualifies (the page's example)
    assert run.err == f"modetable: warning: {NEWER.format(v='v1.4.0')}\n"
    run = run_cli("admit", "--ome-version", "v1.2.1", "--isvc", ISVC, "examples/")
    assert (run.code, run.out) == (2, "")
    assert run.err == f"modetable: error: {OLDER.format(v='v1.2.1')}\n"


def test_the_environment_sets_the_version_and_the_option_wins(monkeypatch):
    monkeypatch.chdir(EXAMPLES.parent)
    monkeypatch.setenv("MODETABLE_OME_VERSION", "v1.2.3")
    _run, data = _json("effective", "--isvc", ISVC, "examples/")
    assert (data["version"], data["rules"]["version"]) == ("v1.2.3", "v1.2.2")
    _run, data = _json("--ome-version", "v1.3.1", "effective", "--isvc", ISVC, "examples/")
    assert (data["version"], data["rules"]["version"]) == ("v1.3.1", "v1.3")
    monkeypatch.setenv("MODETABLE_OME_VERSION", "")  # empty: not set
    _run, data = _json("effective", "--isvc", ISVC, "examples/")
    assert data["version"] == "v1.3"


def test_a_bad_version_from_the_environment_names_the_variable(monkeypatch):
    """Set long ago, the variable is not on the command line the error follows."""
    monkeypatch.chdir(EXAMPLES.parent)
    for value, message in (
        ("bogus", "'bogus' is not an OME version (write it like v1.3.1)"),
        ("v1.2.1", OLDER.format(v="v1.2.1")),
    ):
        monkeypatch.setenv("MODETABLE_OME_VERSION", value)
        run = run_cli("select", "--isvc", ISVC, "examples/")
        assert (run.code, run.out) == (2, "")
        assert run.err == f"modetable: error: {message} (from $MODETABLE_OME_VERSION)\n"
        # The option wins, and its own error is said as it was.
        run = run_cli("--ome-version", value, "select", "--isvc", ISVC, "examples/")
        assert run.err == f"modetable: error: {message}\n"


def _with_unreleased_line(tmp_path):
    """A copy of the rules that lists v1.4 ahead of its release."""
    return rules_copy(
        tmp_path / "rules" / "modes.yaml",
        ('versions: ["v1.2.2", "v1.3"]\n', 'versions: ["v1.2.2", "v1.3", "v1.4"]\n'),
    )


def test_an_unreleased_line_does_not_move_the_default(tmp_path):
    ruleset = load_ruleset(_with_unreleased_line(tmp_path))
    assert (ruleset.default_version, ruleset.newest) == ("v1.3", "v1.4")
    assert ruleset.at().version == "v1.3"
    # Asked for, it applies, and v1.3.x stays on the v1.3 line.
    assert [ruleset.at(v).version for v in ("v1.4.0", "v1.3.7", "v1.4.2")] == [
        "v1.4",
        "v1.3",
        "v1.4",
    ]
    assert ruleset.at("v1.5").warning == (
        "OME v1.5 is newer than these rules describe: they were written for v1.4 (v1.4.x); "
        "using the v1.4 rules"
    )


def test_without_a_default_version_the_newest_line_is_the_default(tmp_path):
    rules = _with_unreleased_line(tmp_path)
    rules.write_text(rules.read_text().replace('default_version: "v1.3"\n', ""))
    assert load_ruleset(rules).at().version == "v1.4"


def test_the_default_version_must_name_a_listed_version(tmp_path):
    rules = _with_unreleased_line(tmp_path)
    rules.write_text(
        rules.read_text().replace('default_version: "v1.3"', 'default_version: "v1.5"')
    )
    run = run_cli("--rules", str(rules), "rules", "check")
    assert run.code == 1
    assert "error: undefined-ref: unknown version 'v1.5' (did you mean 'v1.4'?)" in run.out
