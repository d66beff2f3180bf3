"""One rules file for every command: a policy author edits a copy of the rules
(adds a version, rewords a message, deprecates a mode from that version) and
runs `rules check`, `rules diff`, `docs --check`, `select` and `audit` from the
copy's folder without --rules. All of them read the edited file, and their
answers agree with each other."""

from __future__ import annotations

import json
import re
import shutil

import pytest
import yaml
from conftest import EXAMPLES, ROOT, RULES, rules_copy, run_cli

OLD_TEXT = "does not match requested {component} deployment mode"
NEW_TEXT = "differs from the requested {component} mode"
REWORDED = (
    "runtime engine deployment mode MultiNode differs from the requested engine mode OMENative"
)
HERE = {"path": "rules/modes.yaml"}


@pytest.fixture
def copy(tmp_path, monkeypatch):
    """A clone's folder: the rules and docs, edited; the example manifests; a
    fleet with a VirtualDeployment InferenceService."""
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    virtual = "  - name: VirtualDeployment\n    status: legacy\n"
    rules_copy(
        tmp_path / "rules" / "modes.yaml",
        ('versions: ["v1.2.2", "v1.3"]', 'versions: ["v1.2.2", "v1.3", "v1.4"]'),
        (OLD_TEXT, NEW_TEXT),
        (
            virtual,
            virtual + "    statuses:\n      - status: deprecated\n        replacement: OMENative\n"
            '        since: "v1.4"\n',
        ),
    )
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    virtual_isvc = {
        "apiVersion": "ome.io/v1beta1",
        "kind": "InferenceService",
        "metadata": {
            "name": "virtual",
            "namespace": "llama-demo",
            "annotations": {"ome.io/deploymentMode": "VirtualDeployment"},
        },
        "spec": {"model": {"name": "llama-3-3-70b-instruct"}, "engine": {}},
    }
    (tmp_path / "examples" / "virtual.yaml").write_text(yaml.safe_dump(virtual_isvc))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _json(*argv: str, code: int | None = None):
    run = run_cli(*argv, "-o", "json")
    assert run.code in ((0, 1) if code is None else (code,)), run.err
    assert run.err == ""
    return json.loads(run.out)


def test_every_command_reads_the_edited_copy_and_they_agree(copy):
    # rules check: the copy, with its new line, passes.
    checked = _json("rules", "check", code=0)
    assert checked["rules"] == {**HERE, "version": None}

    # rules diff: the new line deprecates VirtualDeployment; against the shipped
    # file, the reworded message in every shared version, v1.4 named as new.
    lines = _json("rules", "diff", "v1.3", "v1.4", code=1)
    assert lines["rules"] == {**HERE, "version": None, "from": "v1.3", "to": "v1.4"}
    changed = {s["title"]: s["changes"] for s in lines["sections"] if s["changes"]}
    assert changed["mode values"] == [
        {
            "inputs": {"value": "VirtualDeployment"},
            "before": "a mode (legacy)",
            "after": "a mode (deprecated, use OMENative)",
            "why": "modes VirtualDeployment: deprecated since v1.4",
        }
    ]
    assert [c["inputs"]["rule"] for c in changed["rules in force"]] == [
        "modes[VirtualDeployment].status",
        "modes[VirtualDeployment].replacement",
    ]
    against = _json("rules", "diff", "--against", str(RULES), code=1)
    assert (against["only_before"], against["only_after"]) == ([], ["v1.4"])
    assert [c["after"] for c in against["comparisons"]] == [
        "rules/modes.yaml (v1.2.2)",
        "rules/modes.yaml (v1.3)",
    ]
    for comparison in against["comparisons"]:
        assert [(c["inputs"], c["why"]) for s in comparison["sections"] for c in s["changes"]] == [
            ({"rule": "messages.mode_mismatch.text"}, "OME message mode_mismatch reworded")
        ]

    # docs: the pages quote the reworded message once rendered from the copy.
    assert run_cli("docs", "--check").code == 1
    assert run_cli("docs").code == 0
    assert run_cli("docs", "--check").code == 0
    page = (copy / "docs" / "deployment-mode-matching.md").read_text()
    assert f"runtime {{component}} deployment mode {{runtime_mode}} {NEW_TEXT}" in page
    assert REWORDED in page  # the mismatch-message region's filled example
    assert OLD_TEXT not in page
    out = copy / "v1.4"
    assert run_cli("docs", "--ome-version", "v1.4.0", "--out", str(out)).code == 0
    v14 = (out / "deployment-mode-matching.md").read_text()
    assert re.search(r"\| `VirtualDeployment` +\| deprecated, use `OMENative` +\|", v14)
    assert not re.search(r"\| `VirtualDeployment` +\| deprecated", page)  # v1.3: legacy

    # select: the new line answers v1.4.x without a warning, with the new text.
    isvc = "examples/inference-service.yaml"
    selected = _json("--ome-version", "v1.4.0", "select", "--isvc", isvc, "examples/")
    assert selected["rules"] == {**HERE, "version": "v1.4"}
    assert selected["version"] == "v1.4.0"
    assert REWORDED in selected["message"]

    # audit: the same text, and the deprecation from v1.4 on only.
    audits = {
        version: _json("--ome-version", version, "audit", "examples/")
        for version in ("v1.3.2", "v1.4.0")
    }
    for version, line in (("v1.3.2", "v1.3"), ("v1.4.0", "v1.4")):
        assert audits[version]["rules"] == {**HERE, "version": line}
        assert audits[version]["summary"]["version"] == version
    items = {item["name"]: item for item in audits["v1.4.0"]["items"]}
    assert REWORDED in items["llama-3-70b"]["message"]
    assert [d["mode"] for d in items["virtual"]["deprecations"]] == ["VirtualDeployment"]
    assert all(not item["deprecations"] for item in audits["v1.3.2"]["items"])
    assert audits["v1.4.0"]["summary"]["deprecated"] == 1

    # The default version stays the released line: v1.4 is listed, not released.
    assert _json("select", "--isvc", isvc, "examples/")["rules"]["version"] == "v1.3"


def test_the_variable_names_the_same_file_from_anywhere(copy, tmp_path_factory, monkeypatch):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("MODETABLE_RULES", str(copy / "rules" / "modes.yaml"))
    path = str(copy / "rules" / "modes.yaml")
    isvc = str(copy / "examples" / "inference-service.yaml")
    selected = _json("--ome-version", "v1.4", "select", "--isvc", isvc, str(copy / "examples"))
    assert selected["rules"] == {"path": path, "version": "v1.4"}
    assert REWORDED in selected["message"]
    assert _json("rules", "check", code=0)["rules"]["path"] == path
    run = run_cli("docs", "--docs-dir", str(copy / "docs"), "--check")
    assert run.code == 1  # the copy's pages, not yet rendered from the copy's rules
