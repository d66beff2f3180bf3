"""The examples of docs/commands.md and docs/json.md for effective, match and
admit are real runs: each is run on the inputs its text describes (the shipped
examples/, or a `manifests/` folder holding the scenario the text states) and
compared whole."""

from __future__ import annotations

import json
import re
import shlex

import pytest
import yaml
from conftest import ROOT, isvc_doc, mode_annotation, run_cli, runtime_doc

COMMANDS = (ROOT / "docs" / "commands.md").read_text()
CONTRACTS = (ROOT / "docs" / "json.md").read_text()

# The scenarios the pages state in words, for the examples that read `manifests/`.
SCENARIOS = {
    # "`ns/svc` declares an engine and a router and names `rt`, whose
    # `engineConfig` and `routerConfig` declare `MultiNode`"
    "effective": [
        isvc_doc(engine={}, router={}, runtime={"name": "rt"}),
        runtime_doc(
            "rt",
            engineConfig=mode_annotation("MultiNode"),
            routerConfig=mode_annotation("MultiNode"),
        ),
    ],
    # "`ns/svc`'s engine annotation asks for `OMENative` and its decoder sets no mode"
    "admit": [isvc_doc(engine=mode_annotation("OMENative"), decoder={})],
}


def block_after(page: str, heading: str, language: str) -> str:
    """The first fenced block of `language` under `heading` (before the next heading)."""
    section = page[page.index(heading + "\n") :]
    following = re.search(r"\n## ", section[1:])
    section = section[: following.start() + 1] if following else section
    found = re.search(rf"```{language}\n(.*?)```", section, re.S)
    assert found, f"no {language} block under {heading}"
    return found.group(1)


def run_in(tmp_path, monkeypatch, command: str, argv: list[str]):
    """Run `argv` from the checkout (examples/) or from a folder holding the
    command's scenario as manifests/."""
    if "manifests/" in argv:
        folder = tmp_path / "manifests"
        folder.mkdir()
        docs = SCENARIOS[command]
        (folder / "m.yaml").write_text(yaml.safe_dump_all(docs, sort_keys=False))
        # As in a checkout: the rules file read is rules/modes.yaml, the bundled one.
        (tmp_path / "rules").symlink_to(ROOT / "rules")
        monkeypatch.chdir(tmp_path)
    else:
        monkeypatch.chdir(ROOT)
    return run_cli(*argv)


@pytest.mark.parametrize("command", ["effective", "match", "admit"])
def test_the_console_example_is_a_real_run(tmp_path, monkeypatch, command):
    block = block_after(COMMANDS, f"## `modetable {command}`", "console")
    first, *shown = block.splitlines()
    assert first.startswith("$ modetable ")
    run = run_in(tmp_path, monkeypatch, command, shlex.split(first)[2:])
    assert run.out.splitlines() == shown
    assert run.err == ""


# The command each json.md example states, and its exit code.
JSON_RUNS = {
    "effective": ("effective --isvc ns/svc manifests/ -o json", 0),
    "match": (
        "match --isvc examples/inference-service.yaml examples/ "
        "--runtime srt-llama-3-3-70b-instruct-multinode -o json",
        1,
    ),
    "admit": ("admit --isvc svc manifests/ -o json", 1),
}


@pytest.mark.parametrize("command", ["effective", "match", "admit"])
def test_the_json_contract_example_is_a_real_run(tmp_path, monkeypatch, command):
    section = CONTRACTS[CONTRACTS.index(f"## `{command}`\n") :]
    line, code = JSON_RUNS[command]
    assert f"`modetable {line}`" in section.split("```json")[0]
    documented = json.loads(block_after(CONTRACTS, f"## `{command}`", "json"))
    run = run_in(tmp_path, monkeypatch, command, shlex.split(line))
    assert (run.code, run.json()) == (code, documented)
