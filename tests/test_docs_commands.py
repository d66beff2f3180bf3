"""The console examples of docs/commands.md, run: each prints what the page
shows. A `...` line stands for any lines; a line ending in ` ...` for any line
that begins so. (The examples of effective, match and admit are held whole by
tests/test_docs_core_examples.py.)"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, format_entry, isvc_doc, model_doc, run_cli, runtime_doc
from test_audit import write_fleet
from test_upgrade import documents as upgrade_documents

PAGE = ROOT / "docs" / "commands.md"
MORE = "..."


def examples(heading: str) -> list[str]:
    """The console blocks under `heading`, up to the next heading of its level."""
    text = PAGE.read_text()
    start = text.index(f"\n{heading}\n")
    level = len(heading.split(" ")[0])
    end = re.compile(rf"\n#{{1,{level}}} ").search(text, start + 1)
    section = text[start : end.start() if end else len(text)]
    return re.findall(r"^```console\n(.*?)^```$", section, re.M | re.S)


def commands(block: str) -> list[tuple[list[str], list[str]]]:
    """Each `$ modetable ...` line of a block with the lines it shows."""
    found: list[tuple[list[str], list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            found.append((shlex.split(line[2:]), []))
        else:
            found[-1][1].append(line)
    return found


def assert_shows(out: str, shown: list[str]) -> None:
    got = out.splitlines()
    position = 0
    skipping = False
    for line in shown:
        if line.strip() == MORE:
            skipping = True
            continue
        prefix = line.endswith(" " + MORE)
        wanted = line[: -len(MORE)].rstrip() if prefix else line

        def fits(real: str, wanted: str = wanted, prefix: bool = prefix) -> bool:
            if prefix:
                return re.sub(" +", " ", real).startswith(re.sub(" +", " ", wanted))
            return real == wanted

        while skipping and position < len(got) and not fits(got[position]):
            position += 1
        assert position < len(got), f"docs/commands.md shows {line!r}; the output:\n{out}"
        assert fits(got[position]), f"docs/commands.md shows {line!r}; the output:\n{out}"
        position += 1
        skipping = False
    assert skipping or position == len(got), f"the output goes on:\n{out}"


def run_example(block: str, exit_code: int) -> None:
    [(argv, shown)] = commands(block)
    assert argv[0] == "modetable"
    run = run_cli(*argv[1:])
    assert run.code == exit_code, run.err
    assert_shows(run.out, shown)


@pytest.fixture
def here(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_select(here):
    [block] = examples("## `modetable select`")
    run_example(block, 1)


def test_explain_why(here):
    _model, why = examples("## `modetable explain`")
    run_example(why, 0)


def test_explain_by_default_and_all(tmp_path, monkeypatch):
    """The reference page's example (tests/test_explain.py's team-a) as manifests/."""
    from test_explain import team_a

    folder = tmp_path / "manifests"
    folder.mkdir()
    team_a(folder)
    monkeypatch.chdir(tmp_path)
    model, _why = examples("## `modetable explain`")
    runs = commands(model)
    assert [argv[-1] for argv, _shown in runs] == ["manifests/", "--all"]
    for argv, shown in runs:
        run = run_cli(*argv[1:])
        assert (run.code, run.err) == (0, "")
        assert_shows(run.out, shown)


def _write(folder: Path, name: str, documents: list[dict]) -> None:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump_all(documents, sort_keys=False))


def test_audit(tmp_path, monkeypatch):
    write_fleet(tmp_path)  # the fleet of tests/test_audit.py
    monkeypatch.chdir(tmp_path)
    block = examples("## `modetable audit`")[0]  # the next is the upgrade's
    run_example(block, 1)


def test_audit_of_a_repository(tmp_path, monkeypatch):
    """A model written without its format, as a repository holds it: denied,
    with the hint the rules give."""
    model = model_doc("llama-3-2-1b-instruct")
    model["spec"] = {"storage": {"storageUri": "hf://meta-llama/Llama-3.2-1B-Instruct"}}
    runtime = "srt-llama-3-2-1b-instruct"
    uses = {"model": {"name": "llama-3-2-1b-instruct"}, "engine": {}}
    _write(tmp_path, "repo/models.yaml", [model])
    _write(
        tmp_path,
        "repo/apps.yaml",
        [
            runtime_doc(runtime, supportedModelFormats=[format_entry()]),
            isvc_doc("chat", "team-a", **uses),
            isvc_doc("pinned", "team-a", **uses, runtime={"name": runtime}),
        ],
    )
    monkeypatch.chdir(tmp_path)
    [block] = examples("### Manifests from a repository, or a dump of a live cluster")
    run_example(block, 1)


def test_upgrade_impact(tmp_path, monkeypatch):
    _write(tmp_path, "fleet/fleet.yaml", upgrade_documents())  # tests/test_upgrade.py's
    monkeypatch.chdir(tmp_path)
    [block] = examples("### `--from V [--to V]`: upgrade impact")
    run_example(block, 1)


def test_docs(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    page = tmp_path / "docs" / "deployment-mode-matching.md"
    page.write_text(page.read_text().replace("| `OMENative`      ", "| `OMENatvie`      ", 1))
    monkeypatch.chdir(tmp_path)
    [block] = examples("## `modetable docs`")
    (write, written), (check, checked), (echo, code) = commands(block)
    run = run_cli(*write[1:])
    assert (run.code, run.out.splitlines()) == (0, written)
    run = run_cli(*check[1:])
    assert (run.code, run.out.splitlines()) == (0, checked)
    assert echo == ["echo", "$?"]
    assert code == ["0"]


def test_rules(here):
    check, diff = examples("## `modetable rules`")
    run_example(check, 0)
    run_example(diff, 1)
