"""The broken-input corpus (tests/broken/cases.yaml): each case's whole answer."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, run_cli

BROKEN = ROOT / "tests" / "broken"
BROKEN_ARG = "tests/broken"
CASES = yaml.safe_load((BROKEN / "cases.yaml").read_text(encoding="utf-8"))["cases"]


def _expand(text: str) -> str:
    return text.replace("{broken}", BROKEN_ARG)


def _run(argv: list[str], stdin: str = ""):
    return run_cli(*(_expand(a) for a in argv), stdin=stdin)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_broken_input_gets_its_whole_answer(case, monkeypatch):
    monkeypatch.chdir(ROOT)
    run = _run(case["argv"], case.get("stdin", ""))
    assert (run.code, run.err) == (case["exit"], _expand(case["stderr"]))
    if case["exit"] == 2:
        assert run.out == "", "bad input must leave standard output empty"
        assert run.err.count("\n") == 1, "bad input is one line"
    if "stdout" in case:
        assert run.out == _expand(case["stdout"])
    if "same_as" in case:
        twin = _run(case["same_as"])
        assert (run.code, run.out) == (twin.code, twin.out)
    if "json" in case:
        output = json.loads(run.out)
        assert {key: output[key] for key in case["json"]} == case["json"]


def test_every_case_has_a_unique_id_and_every_field_is_known():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    known = {"id", "why", "argv", "stdin", "exit", "stderr", "stdout", "same_as", "json"}
    for case in CASES:
        assert set(case) <= known, case["id"]
        assert {"id", "why", "argv", "exit", "stderr"} <= set(case), case["id"]


def test_every_file_of_the_corpus_is_used_by_a_case():
    """A broken file nobody runs proves nothing."""
    used = set()
    for case in CASES:
        for argument in [*case["argv"], *case.get("same_as", [])]:
            if argument.startswith("{broken}/"):
                used.add(argument.removeprefix("{broken}/").split("/")[0])
    present = {p.name for p in BROKEN.iterdir() if p.name != "cases.yaml"}
    assert present - used == set()
    assert {u for u in used if not Path(BROKEN, u).exists()} == {"missing.yaml"}


LIMITS_PAGE = ROOT / "docs" / "limits.md"
# A place before the message: FILE, FILE:LINE or FILE:LINE:COL.
PLACE = re.compile(r"^[^\s:]+(?::\d+){0,2}: ")


def documented_messages() -> list[re.Pattern[str]]:
    """The messages of the table in docs/limits.md, `<...>` standing for anything."""
    text = LIMITS_PAGE.read_text(encoding="utf-8")
    table = text.split("## Error messages", 1)[1]
    patterns = []
    for line in table.splitlines():
        if not line.startswith("| `"):
            continue
        first_cell = line.split(" | ")[0]
        for message in re.findall(r"`([^`]+)`", first_cell):
            parts = re.split(r"<[^>]+>", message)
            patterns.append(re.compile(".+".join(re.escape(p) for p in parts)))
    return patterns


def test_every_error_of_the_corpus_is_documented_in_the_limits_page():
    patterns = documented_messages()
    assert len(patterns) > 30
    undocumented = []
    for case in CASES:
        if case["exit"] != 2:
            continue
        message = case["stderr"].strip().split("\n")[-1].removeprefix("modetable: error: ")
        message = PLACE.sub("", _expand(message), count=1)
        if not any(p.fullmatch(message) for p in patterns):
            undocumented.append((case["id"], message))
    assert undocumented == []
