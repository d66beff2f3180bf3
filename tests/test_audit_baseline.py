"""`audit --write-baseline` and `--baseline`: the findings of a run accepted as
known (listed, counted apart, never failing), only new ones failing, those no
longer found reported fixed; fingerprints that survive lines moving."""

from __future__ import annotations

import json
import shutil

import pytest
import yaml
from conftest import CATALOG, isvc_doc, need, run_cli, write
from test_audit import write_fleet

ENTRIES = [
    {
        "fingerprint": "ad232a95be3634d0a49dbeaee75254e9",
        "id": "mode/MultiNode",
        "severity": "warning",
        "subject": "a/pinned",
        "object": "InferenceService a/pinned",
        "message": "engine runs in MultiNode, which is deprecated: move it to OMENative",
    },
    {
        "fingerprint": "a85dc584c6d56d5fba0c29a610bc2f3d",
        "id": "admission/model-exists",
        "severity": "error",
        "subject": "b/lost",
        "object": "InferenceService b/lost",
        "message": 'admission webhook "inferenceservice.ome-webhook-server.validator" denied '
        'the request: referenced model "absent" not found in namespace "b": ensure a '
        "BaseModel exists in this namespace or a ClusterBaseModel exists cluster-wide with "
        "this name",
    },
    {
        "fingerprint": "878546c35465a4bb429beb2f524e222c",
        "id": "mode/MultiNode",
        "severity": "warning",
        "subject": "b/routed",
        "object": "ClusterServingRuntime router-mn",
        "message": "router runs in MultiNode, which is deprecated: move it to OMENative",
    },
    {
        "fingerprint": "7616320783e08537c593298d31d4d163",
        "id": "run_failure/router-invalid-mode",
        "severity": "error",
        "subject": "b/routed",
        "object": "ClusterServingRuntime router-mn",
        "message": "router: Failed to reconcile component: invalid deployment mode for router",
    },
]


@pytest.fixture
def fleet(tmp_path, monkeypatch):
    write_fleet(tmp_path)
    monkeypatch.chdir(tmp_path)
    return "fleet"


def test_the_baseline_file_is_the_runs_findings_an_entry_a_line(fleet, tmp_path):
    run = run_cli("audit", fleet, "--write-baseline", "base.json", "-q")
    assert (run.code, run.err) == (1, "")  # the audit's verdict, as without it
    text = (tmp_path / "base.json").read_text()
    lines = [json.dumps(entry, ensure_ascii=False) for entry in ENTRIES]
    assert text == (
        '{\n  "modetable_baseline": 1,\n  "findings": [\n    '
        + ",\n    ".join(lines)
        + "\n  ]\n}\n"
    )


def test_known_findings_are_shown_counted_apart_and_never_fail(fleet, tmp_path):
    write(tmp_path, "base.json", json.dumps({"modetable_baseline": 1, "findings": ENTRIES}))
    run = run_cli("audit", fleet, "--baseline", "base.json", "--fail-on", "warning", "-o", "json")
    assert (run.code, run.err) == (0, "")
    data = run.json()
    assert [(i["isvc"], i["findings"], [f["id"] for f in i["known"]]) for i in data["items"]] == [
        ("a/native", [], []),
        ("a/pinned", [], ["mode/MultiNode"]),
        ("b/lost", [], ["admission/model-exists"]),
        ("b/routed", [], ["run_failure/router-invalid-mode", "mode/MultiNode"]),
    ]
    assert data["baseline"] == {"file": "base.json", "fixed": []}
    summary = data["summary"]
    assert (summary["findings"], summary["known"], summary["fixed"]) == (
        {"error": 0, "warning": 0, "info": 0},
        {"error": 2, "warning": 2, "info": 0},
        0,
    )
    table = run_cli("audit", fleet, "--baseline", "base.json", "--no-headers").out
    assert table.splitlines()[-1] == (
        "4 InferenceServices (v1.3): 4 ok, 0 with errors, 0 with warnings, 0 with info; "
        "findings: 0 errors, 0 warnings, 0 info; baseline: 4 known, 0 fixed"
    )
    assert (
        "  b/routed:\n"
        "    fleet/apps/isvcs.yaml:33:11: error: router: Failed to reconcile component: invalid "
        "deployment mode for router [run_failure/router-invalid-mode] (known: in the baseline)\n"
    ) in table


def test_fingerprints_survive_lines_moving(fleet, tmp_path):
    run_cli("audit", fleet, "--write-baseline", "base.json")
    for name in ("fleet/runtimes.yaml", "fleet/apps/isvcs.yaml"):
        path = tmp_path / name
        path.write_text("# moved down\n\n\n" + path.read_text())
    run = run_cli("audit", fleet, "--baseline", "base.json", "-o", "json")
    assert run.code == 0
    assert run.json()["summary"]["known"] == {"error": 2, "warning": 2, "info": 0}
    # The places moved; the findings are the same ones.
    [known] = run.json()["items"][1]["known"]
    assert known["location"] == {"file": "fleet/apps/isvcs.yaml", "line": 12, "col": 30}


def test_a_place_quoted_in_a_message_is_not_part_of_the_fingerprint(fleet, tmp_path):
    """A duplicate's message names where the first copy is: moving it keeps
    the finding known."""
    extra = yaml.safe_dump(isvc_doc("native", "a", deploymentMode="OMENative", engine={}))
    write(tmp_path, "fleet/again.yaml", extra)
    run_cli("audit", fleet, "--write-baseline", "base.json")
    entry = json.loads((tmp_path / "base.json").read_text())["findings"][0]
    assert (entry["id"], entry["subject"]) == ("manifest/duplicate", "")
    assert "(first at fleet/again.yaml:1:1)" in entry["message"]
    path = tmp_path / "fleet/again.yaml"
    path.write_text("# moved down\n\n" + path.read_text())
    run = run_cli("audit", fleet, "--baseline", "base.json", "-o", "json")
    assert run.json()["manifest_findings"] == []
    [known] = run.json()["manifest_known"]
    assert known["id"] == "manifest/duplicate"
    assert "(first at fleet/again.yaml:3:1)" in known["message"]


def test_entries_no_longer_found_are_fixed(fleet, tmp_path):
    fixed = {
        "fingerprint": "1" * 32,
        "id": "outcome/none",
        "severity": "error",
        "subject": "c/gone",
        "object": "InferenceService c/gone",
        "message": "no runtime found",
    }
    write(
        tmp_path,
        "base.json",
        json.dumps({"modetable_baseline": 1, "findings": [*ENTRIES[:2], fixed]}),
    )
    run = run_cli("audit", fleet, "--baseline", "base.json", "-o", "json")
    assert run.code == 1  # b/routed's error is new
    assert run.json()["baseline"] == {"file": "base.json", "fixed": [fixed]}
    assert run.json()["summary"]["fixed"] == 1
    assert [f["id"] for f in run.json()["items"][3]["findings"]] == [
        "run_failure/router-invalid-mode",
        "mode/MultiNode",
    ]
    table = run_cli("audit", fleet, "--baseline", "base.json", "-v").out
    assert table.endswith(
        "\nFixed (in the baseline, no longer found):\n"
        "  c/gone: error: no runtime found [outcome/none]\n"
        "\n4 InferenceServices (v1.3): 3 ok, 1 with errors, 0 with warnings, 0 with info; "
        "findings: 1 error, 1 warning, 0 info; baseline: 2 known, 1 fixed\n"
    )
    assert "Fixed" not in run_cli("audit", fleet, "--baseline", "base.json").out


def test_a_baseline_rewritten_keeps_the_known_and_drops_the_fixed(fleet, tmp_path):
    run_cli("audit", fleet, "--write-baseline", "base.json", "-n", "a")
    first = json.loads((tmp_path / "base.json").read_text())["findings"]
    assert [e["subject"] for e in first] == ["a/pinned"]
    run = run_cli("audit", fleet, "--baseline", "base.json", "--write-baseline", "base.json")
    assert run.code == 1
    again = json.loads((tmp_path / "base.json").read_text())["findings"]
    assert again == ENTRIES


def test_suppressed_findings_stay_out_of_the_baseline(fleet, tmp_path):
    run_cli("audit", fleet, "--ignore", "mode/*", "--write-baseline", "base.json")
    written = json.loads((tmp_path / "base.json").read_text())["findings"]
    assert written == [ENTRIES[1], ENTRIES[3]]


def test_severity_does_not_narrow_the_baseline(fleet, tmp_path):
    run = run_cli("audit", fleet, "--severity", "error", "--write-baseline", "base.json")
    assert "a/pinned" not in run.out
    assert json.loads((tmp_path / "base.json").read_text())["findings"] == ENTRIES


def test_the_baseline_and_the_files_are_written_together(fleet, tmp_path):
    run = run_cli(
        "audit", fleet, "--write-baseline", "base.json", "--output-file", "json=audit.json"
    )
    assert run.code == 1
    assert json.loads((tmp_path / "base.json").read_text())["findings"] == ENTRIES
    assert (tmp_path / "audit.json").exists()
    run = run_cli("audit", fleet, "--write-baseline", "a.json", "--output-file", "json=a.json")
    assert (run.code, run.err) == (
        2,
        "modetable: error: --write-baseline and --output-file name 'a.json'\n",
    )
    # Bad input writes nothing.
    run = run_cli("audit", fleet, "--write-baseline", "new.json", "-n", "nosuch")
    assert run.code == 2
    assert not (tmp_path / "new.json").exists()


def test_upgrade_mode_takes_no_baseline(fleet):
    run = run_cli("audit", "--from", "v1.2.2", fleet, "--baseline", "b.json")
    assert (run.code, run.err) == (
        2,
        "modetable: error: --baseline/--write-baseline applies to an audit, not to --from\n",
    )


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("[]", "base.json:1:1: a baseline is one JSON object: "
         '{"modetable_baseline": 1, "findings": [...]}'),
        ('{"modetable_baseline": 2, "findings": []}', "base.json:1:24: modetable_baseline must "
         "be 1, not the number 2 (a baseline another modetable wrote: write it again with "
         "--write-baseline)"),
        ('{"modetable_baseline": true, "findings": []}', "base.json:1:24: modetable_baseline "
         "must be 1, not the boolean true (a baseline another modetable wrote: write it again "
         "with --write-baseline)"),
        ('{"modetable_baseline": 1, "findings": {}}', "base.json:1:39: findings must be a "
         "list, not a mapping"),
        ('{"modetable_baseline": 1, "findings": [], "extra": 1}', "base.json:1:43: unknown "
         "key 'extra': a baseline is one JSON object: "
         '{"modetable_baseline": 1, "findings": [...]}'),
        ('{"modetable_baseline": 1, "findings": [1]}', "base.json:1:40: a baseline entry is an "
         "object, not the number 1"),
        ('{"modetable_baseline": 1, "findings": [{"id": "x"}]}', "base.json:1:40: a baseline "
         "entry's fingerprint is a string, not missing"),
        ('{"modetable_baseline": 1,\n "findings": [{"fingerprint": 1}]}', "base.json:2:31: a "
         "baseline entry's fingerprint is a string, not the number 1"),
        ('{"modetable_baseline": 1, "findings": [{"line": 3}]}', "base.json:1:41: unknown key "
         "'line' in a baseline entry (its keys: fingerprint, id, severity, subject, object, "
         "message)"),
        ("", "base.json:1:1: a baseline is one JSON object: "
         '{"modetable_baseline": 1, "findings": [...]}'),
        ("{", "base.json:2:1: "),
        (None, "base.json: no such file or directory"),
    ],
)  # fmt: skip
def test_a_bad_baseline_is_one_line_exit_2(fleet, tmp_path, text, error):
    if text is not None:
        write(tmp_path, "base.json", text)
    run = run_cli("audit", fleet, "--baseline", "base.json")
    assert (run.code, run.out) == (2, "")
    assert run.err.startswith(f"modetable: error: {error}")
    assert run.err.count("\n") == 1


@pytest.mark.slow
def test_the_round_trip_on_a_copy_of_the_catalog(tmp_path, monkeypatch):
    """Write the catalog's baseline, pass with it, then fail on one bad
    InferenceService added, and on it alone."""
    shutil.copytree(need(CATALOG), tmp_path / "catalog")
    monkeypatch.chdir(tmp_path)
    first = run_cli("audit", "catalog", "--write-baseline", "base.json", "-o", "json")
    assert first.code == 1  # the catalog has errors
    counted = first.json()["summary"]["findings"]
    written = json.loads((tmp_path / "base.json").read_text())["findings"]
    # Every finding but the pending (OME's model agent has yet to fill in
    # their models: no debt, they never fail).
    assert len(written) == sum(counted.values()) == 50
    assert first.json()["summary"]["pending_findings"] == 120

    passing = run_cli("audit", "catalog", "--baseline", "base.json", "--fail-on", "warning")
    assert passing.code == 0
    assert passing.out.splitlines()[-1].endswith(
        f"findings: 0 errors, 0 warnings, 0 info, 120 pending; baseline: {len(written)} known, "
        "0 fixed"
    )

    bad = isvc_doc("bad", "catalog-new", engine={}, model={"name": "no-such-model"})
    write(tmp_path, "catalog/inferenceservices/bad.yaml", yaml.safe_dump(bad))
    failing = run_cli("audit", "catalog", "--baseline", "base.json", "-o", "json")
    assert failing.code == 1
    data = failing.json()
    new = [(i["isvc"], f["id"]) for i in data["items"] for f in i["findings"] if not f["pending"]]
    assert new == [("catalog-new/bad", "admission/model-exists")]
    assert data["manifest_findings"] == []
    assert data["summary"]["known"] == first.json()["summary"]["findings"]
    assert data["baseline"]["fixed"] == []


def test_a_partial_audit_leaves_the_rest_of_the_baseline_alone(fleet, tmp_path):
    """-n a: b's entries are neither known nor fixed, and written again as they
    were; a's entry no finding meets (a/gone) is fixed."""
    gone = {**ENTRIES[0], "fingerprint": "2" * 32, "subject": "a/gone",
            "object": "InferenceService a/gone"}  # fmt: skip
    write(
        tmp_path,
        "base.json",
        json.dumps({"modetable_baseline": 1, "findings": [*ENTRIES, gone]}),
    )
    argv = ("audit", fleet, "--baseline", "base.json", "-n", "a")
    run = run_cli(*argv, "-o", "json", "--write-baseline", "base.json")
    assert run.code == 0
    assert run.json()["baseline"] == {"file": "base.json", "fixed": [gone]}
    assert run.json()["summary"]["known"] == {"error": 0, "warning": 1, "info": 0}
    assert json.loads((tmp_path / "base.json").read_text())["findings"] == ENTRIES
    # --within: the InferenceServices whose runtime is in runtimes.yaml (not
    # b/lost, which has none): b/lost's entry is kept, a/gone's too (--within
    # cannot tell whether it is gone).
    findings = [gone, ENTRIES[1]]
    write(tmp_path, "base.json", json.dumps({"modetable_baseline": 1, "findings": findings}))
    within = run_cli(
        "audit", "--baseline", "base.json", "--within", fleet, "-o", "json",
        "--write-baseline", "base.json", "--", "fleet/runtimes.yaml",
    )  # fmt: skip
    assert [i["isvc"] for i in within.json()["items"]] == ["a/native", "a/pinned", "b/routed"]
    assert within.json()["baseline"]["fixed"] == []
    assert json.loads((tmp_path / "base.json").read_text())["findings"] == [gone, *ENTRIES]


def test_an_entry_is_written_with_the_keys_the_baseline_is_read_with():
    """The file's entries (views/baseline.py) and the reader (inputs/baseline.py)
    name the same keys in the same order."""
    import attrs

    from modetable.inputs.baseline import ENTRY_KEYS
    from modetable.views.baseline import BaselineEntryView

    assert tuple(f.name for f in attrs.fields(BaselineEntryView)) == ENTRY_KEYS
