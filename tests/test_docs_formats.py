"""The console examples of docs/formats.md, run on the fleet of docs/commands.md's
audit example: each prints what the page shows (`...` stands for any lines, a
line ending in ` ...` for any line that begins so)."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT, run_cli
from test_audit import write_fleet
from test_docs_commands import assert_shows, commands

PAGE = ROOT / "docs" / "formats.md"


def _blocks() -> list[str]:
    return re.findall(r"^```console\n(.*?)^```$", PAGE.read_text(), re.M | re.S)


@pytest.fixture
def fleet(tmp_path, monkeypatch):
    write_fleet(tmp_path)
    monkeypatch.chdir(tmp_path)


def test_every_format_has_its_example():
    shown = [argv for block in _blocks() for argv, _ in commands(block)]
    assert [argv[-1] for argv in shown] == ["github", "junit", "sarif", "markdown"]


@pytest.mark.parametrize("block", _blocks(), ids=["github", "junit", "sarif", "markdown"])
def test_each_example_prints_what_the_page_shows(fleet, block):
    [(argv, lines)] = commands(block)
    assert argv[0] == "modetable"
    run = run_cli(*argv[1:])
    assert run.code == 1, run.err
    assert_shows(run.out, lines)
