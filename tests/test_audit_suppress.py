"""Accepting findings, with a trace: `--ignore`, the config file's ignores (each
with its reason) and defaults, the objects' `modetable.io/ignore` annotation.
A suppressed finding is counted and listed (`-v`, JSON), never fails
`--fail-on`; an exception that suppresses nothing is a warning."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from conftest import rules_copy, run_cli, write
from test_audit import fleet_documents, write_fleet

from modetable.inputs.config import find_config

PINNED_MODE = {
    "severity": "warning",
    "id": "mode/MultiNode",
    "message": "engine runs in MultiNode, which is deprecated: move it to OMENative",
    "location": {"file": "fleet/apps/isvcs.yaml", "line": 9, "col": 30},
    "object": {"kind": "InferenceService", "namespace": "a", "name": "pinned"},
    "hint": None,
    "related": [],
    "pending": False,
}
PINNED_LINE = (
    "fleet/apps/isvcs.yaml:9:30: warning: engine runs in MultiNode, which is deprecated: "
    "move it to OMENative [mode/MultiNode]"
)
# b/routed's findings stand at its spec.runtime.name, the runtime's field beside.
ROUTED_SEE = "see ClusterServingRuntime router-mn at fleet/runtimes.yaml:79:30"
ROUTED_MODE_LINE = (
    "fleet/apps/isvcs.yaml:33:11: warning: router runs in MultiNode, which is deprecated: "
    "move it to OMENative [mode/MultiNode]"
)
LOST_LINE = (
    'fleet/apps/isvcs.yaml:45:11: error: admission webhook "inferenceservice.ome-webhook-'
    'server.validator" denied the request: referenced model "absent" not found in namespace '
    '"b": ensure a BaseModel exists in this namespace or a ClusterBaseModel exists '
    "cluster-wide with this name [admission/model-exists]"
)
ROUTED_FAILURE_LINE = (
    "fleet/apps/isvcs.yaml:33:11: error: router: Failed to reconcile component: invalid "
    "deployment mode for router [run_failure/router-invalid-mode]"
)
ZERO = {"error": 0, "warning": 0, "info": 0}


@pytest.fixture
def fleet(tmp_path, monkeypatch):
    write_fleet(tmp_path)
    monkeypatch.chdir(tmp_path)
    return "fleet"


def _findings(run) -> dict[str, tuple[list[str], list[str], list[dict]]]:
    """Each item's (ids counting, ids known, suppressed entries)."""
    return {
        item["isvc"]: (
            [f["id"] for f in item["findings"]],
            [f["id"] for f in item["known"]],
            item["suppressed"],
        )
        for item in run.json()["items"]
    }


# --- --ignore ---------------------------------------------------------------------


def test_ignore_suppresses_by_glob_and_leaves_a_trace(fleet):
    run = run_cli("audit", fleet, "-o", "json", "--ignore", "mode/*", "--fail-on", "warning")
    # The two errors still fail; the warnings no longer count.
    assert (run.code, run.err) == (1, "")
    by_option = {"by": "option", "id": "mode/*", "reason": None, "at": None}
    found = _findings(run)
    assert found["a/pinned"] == ([], [], [{**PINNED_MODE, "suppressed": by_option}])
    assert found["b/routed"][0] == ["run_failure/router-invalid-mode"]
    assert [s["id"] for s in found["b/routed"][2]] == ["mode/MultiNode"]
    summary = run.json()["summary"]
    assert (summary["ok"], summary["severity"], summary["findings"], summary["suppressed"]) == (
        2,
        {"error": 2, "warning": 0, "info": 0},
        {"error": 2, "warning": 0, "info": 0},
        {"error": 0, "warning": 2, "info": 0},
    )
    assert run.json()["unused_suppressions"] == []


def test_suppressed_findings_never_fail(fleet):
    argv = ("audit", fleet, "--fail-on", "warning", "-n", "a")
    assert run_cli(*argv).code == 1
    run = run_cli(*argv, "--ignore", "mode/MultiNode")
    assert (run.code, run.err) == (0, "")


def test_the_table_counts_them_and_v_lists_them(fleet):
    argv = ("audit", fleet, "--ignore", "mode/MultiNode", "--no-headers")
    plain = run_cli(*argv)
    rows = plain.out.splitlines()[:4]
    assert [row.split("  ")[-1].strip() for row in rows] == [
        "-",
        "1 suppressed",
        "1 error",
        "1 error, 1 suppressed",
    ]
    after_rows = "\n".join(plain.out.splitlines()[4:])
    assert after_rows == "\n".join(
        [
            "",
            "Findings:",
            "  b/lost:",
            f"    {LOST_LINE}",
            "  b/routed:",
            f"    {ROUTED_FAILURE_LINE}",
            f"        {ROUTED_SEE}",
            "",
            "4 InferenceServices (v1.3): 2 ok, 2 with errors, 0 with warnings, 0 with info; "
            "findings: 2 errors, 0 warnings, 0 info; suppressed: 2 warnings",
        ]
    )
    verbose = run_cli(*argv, "-v").out
    assert f"    {PINNED_LINE} (suppressed by --ignore mode/MultiNode)\n" in verbose
    assert (
        f"  b/routed:\n    {ROUTED_FAILURE_LINE}\n        {ROUTED_SEE}\n"
        f"    {ROUTED_MODE_LINE} (suppressed by --ignore mode/MultiNode)\n        {ROUTED_SEE}\n"
    ) in verbose


def test_an_ignore_that_suppresses_nothing_is_a_warning(fleet):
    run = run_cli("audit", fleet, "-o", "json", "--ignore", "mode/Multinode", "--ignore", "x*")
    assert run.err == (
        "modetable: warning: --ignore mode/Multinode: suppresses no finding\n"
        "modetable: warning: --ignore x*: suppresses no finding\n"
    )
    assert run.json()["unused_suppressions"] == [
        {"by": "option", "id": "mode/Multinode", "object": None, "kind": None, "reason": None,
         "at": None},
        {"by": "option", "id": "x*", "object": None, "kind": None, "reason": None, "at": None},
    ]  # fmt: skip


# --- the config file --------------------------------------------------------------

CONFIG = """\
fail-on: warning
ignore:
  - id: mode/MultiNode
    object: a/*
    reason: a moves to OMENative in Q3
  - id: "*"
    kind: ClusterServingRuntime
    object: router-*
    reason: the router's runtime is replaced next week
  - id: outcome/*
    kind: ServingRuntime
    reason: no such finding here
"""


def test_the_config_file_suppresses_with_reasons_and_sets_fail_on(fleet, tmp_path):
    write(tmp_path, ".modetable.yaml", CONFIG)
    run = run_cli("audit", fleet, "-o", "json")
    found = _findings(run)
    assert found["a/pinned"] == (
        [],
        [],
        [
            {
                **PINNED_MODE,
                "suppressed": {
                    "by": "config",
                    "id": "mode/MultiNode",
                    "reason": "a moves to OMENative in Q3",
                    "at": ".modetable.yaml:3:5",
                },
            }
        ],
    )
    # Both of the router's runtime's findings: the error too.
    routed = found["b/routed"]
    assert (routed[0], [(s["id"], s["suppressed"]["at"]) for s in routed[2]]) == (
        [],
        [("run_failure/router-invalid-mode", ".modetable.yaml:6:5"),
         ("mode/MultiNode", ".modetable.yaml:6:5")],
    )  # fmt: skip
    # fail-on: warning from the config; b/lost's error still fails.
    assert run.code == 1
    assert run.err == (
        "modetable: warning: .modetable.yaml:10:5: ignore outcome/* kind ServingRuntime: "
        "suppresses no finding\n"
    )
    assert run.json()["unused_suppressions"] == [
        {"by": "config", "id": "outcome/*", "object": None, "kind": "ServingRuntime",
         "reason": "no such finding here", "at": ".modetable.yaml:10:5"},
    ]  # fmt: skip
    verbose = run_cli("audit", fleet, "-v").out
    assert (
        f"    {PINNED_LINE} (suppressed by .modetable.yaml:3:5: a moves to OMENative in Q3)\n"
    ) in verbose


def test_the_command_line_wins_over_the_config(fleet, tmp_path):
    write(tmp_path, ".modetable.yaml", "fail-on: warning\nome-version: v1.2.2\n")
    older = run_cli("audit", fleet, "-n", "a", "-o", "json").json()
    # v1.2.2: MultiNode is current (no finding); its CRD has no spec.deploymentMode,
    # so the API server refuses a/native (Strict).
    assert older["summary"]["version"] == "v1.2.2"
    assert [i["findings"] for i in older["items"]] == [[]]
    assert [f["id"] for f in older["manifest_findings"]] == ["schema/unknown-field"]
    run = run_cli("audit", fleet, "-n", "a", "--ome-version", "v1.3", "-o", "json")
    assert (run.code, run.json()["summary"]["version"]) == (1, "v1.3")
    assert (
        run_cli("audit", fleet, "-n", "a", "--ome-version", "v1.3", "--fail-on", "error").code == 0
    )


def test_the_environment_wins_over_the_config(fleet, tmp_path, monkeypatch):
    write(tmp_path, ".modetable.yaml", "ome-version: v1.2.2\n")
    monkeypatch.setenv("MODETABLE_OME_VERSION", "v1.3")
    assert run_cli("audit", fleet, "-o", "json").json()["summary"]["version"] == "v1.3"


def test_rules_are_found_from_the_config_files_folder(fleet, tmp_path):
    write(tmp_path, "repo/.modetable.yaml", "rules: policy/none.yaml\n")
    os.chdir(tmp_path / "repo")
    run = run_cli("audit", "../fleet")
    assert (run.code, run.out) == (2, "")
    assert run.err == "modetable: error: policy/none.yaml: no such file or directory\n"


def test_config_and_no_config(fleet, tmp_path):
    write(tmp_path, ".modetable.yaml", "fail-on: never\n")
    write(tmp_path, "strict.yaml", "fail-on: warning\n")
    assert run_cli("audit", fleet, "-n", "a").code == 0
    assert run_cli("audit", fleet, "-n", "a", "--config", "strict.yaml").code == 1
    assert run_cli("audit", fleet, "-n", "a", "--no-config", "--fail-on", "warning").code == 1
    assert run_cli("audit", fleet, "-n", "a", "--no-config").code == 0  # error: none
    run = run_cli("audit", fleet, "--config", "missing.yaml")
    assert (run.code, run.err) == (
        2,
        "modetable: error: missing.yaml: no such file or directory\n",
    )
    run = run_cli("audit", fleet, "--config", "strict.yaml", "--no-config")
    assert run.code == 2
    assert "--no-config: not allowed with argument --config" in run.err


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("fail_on: warning\n", ".modetable.yaml:1:1: unknown setting 'fail_on' "
         "(the settings: ome-version, fail-on, rules, docs-url, ignore)"),
        ("fail-on: info\n", ".modetable.yaml:1:10: fail-on is one of error, warning, never, "
         "not the string 'info'"),
        ("ome-version: 1.3\n", ".modetable.yaml:1:14: ome-version is a non-empty string, "
         "not the number 1.3"),
        ("- ignore\n", ".modetable.yaml:1:1: a config file is a mapping of ome-version, fail-on, "
         "rules, docs-url, ignore, not a list"),
        ("ignore:\n  id: x\n", ".modetable.yaml:2:3: ignore is a list of exceptions "
         "(id, object, kind, reason), not a mapping"),
        ("ignore:\n  - mode/*\n", ".modetable.yaml:2:5: an ignore is a mapping of id, object, "
         "kind, reason, not the string 'mode/*'"),
        ("ignore:\n  - id: mode/*\n", ".modetable.yaml:2:5: an ignore has no reason: "
         "every exception says why"),
        ("ignore:\n  - id: mode/*\n    reason: ' '\n", ".modetable.yaml:3:13: an ignore's "
         "reason is a non-empty string, not the string ' '"),
        ("ignore:\n  - reason: why\n", ".modetable.yaml:2:5: an ignore has no id"),
        ("ignore:\n  - id: mode/*\n    reason: why\n    namespace: a\n", ".modetable.yaml:4:5: "
         "unknown key 'namespace' in an ignore (its keys: id, object, kind, reason)"),
        ("fail-on: error\n---\nfail-on: never\n", ".modetable.yaml:3:1: a config file holds "
         "one YAML document"),
        ("fail-on: [error\n", ".modetable.yaml:2:1: "),
    ],
)  # fmt: skip
def test_a_bad_config_is_one_line_exit_2(fleet, tmp_path, text, error):
    write(tmp_path, ".modetable.yaml", text)
    run = run_cli("audit", fleet)
    assert (run.code, run.out) == (2, "")
    assert run.err.startswith(f"modetable: error: {error}")
    assert run.err.count("\n") == 1


def test_an_empty_config_changes_nothing(fleet, tmp_path):
    write(tmp_path, ".modetable.yaml", "# nothing yet\n")
    assert run_cli("audit", fleet).out == run_cli("audit", fleet, "--no-config").out


def _git_root(folder: Path) -> Path:
    (folder / ".git").mkdir(parents=True)
    return folder


def test_discovery_walks_up_to_the_repository_root(tmp_path, monkeypatch):
    repo = _git_root(tmp_path / "repo")
    deep = repo / "deploy" / "apps"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert find_config() is None
    write(repo, ".modetable.yml", "")
    assert find_config() == Path("../../.modetable.yml")
    write(repo, "deploy/.modetable.yaml", "")
    assert find_config() == Path("../.modetable.yaml")  # the nearest
    monkeypatch.chdir(repo)
    assert find_config() == Path(".modetable.yml")


def test_discovery_stops_at_the_repository_root(tmp_path, monkeypatch):
    write(tmp_path, ".modetable.yaml", "")  # above the repository: not its config
    repo = _git_root(tmp_path / "repo")
    (repo / "sub").mkdir()
    monkeypatch.chdir(repo / "sub")
    assert find_config() is None
    # A worktree's or a submodule's .git is a file: the root all the same.
    (repo / ".git").rmdir()
    (repo / ".git").write_text("gitdir: elsewhere\n")
    assert find_config() is None


def test_outside_a_repository_only_the_working_directory_is_looked_at(tmp_path, monkeypatch):
    write(tmp_path, ".modetable.yaml", "")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert find_config() is None
    monkeypatch.chdir(tmp_path)
    assert find_config() == Path(".modetable.yaml")


def test_both_names_in_one_folder_is_an_error(fleet, tmp_path):
    write(tmp_path, ".modetable.yaml", "")
    write(tmp_path, ".modetable.yml", "")
    run = run_cli("audit", fleet)
    assert (run.code, run.err) == (
        2,
        "modetable: error: .modetable.yml: .modetable.yaml and .modetable.yml are both here: "
        "keep one\n",
    )


# --- the annotation -----------------------------------------------------------------


def _annotated(folder: Path, index: int, value: object) -> None:
    """The fleet with document `index` annotated `modetable.io/ignore: value`."""
    documents = fleet_documents()
    documents[index]["metadata"].setdefault("annotations", {})["modetable.io/ignore"] = value
    write(folder, "fleet/runtimes.yaml", yaml.safe_dump_all(documents[:4], sort_keys=False))
    write(folder, "fleet/apps/isvcs.yaml", yaml.safe_dump_all(documents[4:], sort_keys=False))


def test_an_annotation_on_an_isvc_suppresses_its_findings(fleet, tmp_path):
    _annotated(tmp_path, 4, "mode/MultiNode, mode_move/*: waits for the OMENative image\n")
    run = run_cli("audit", fleet, "-o", "json", "--fail-on", "warning", "-n", "a")
    # mode_move/* suppresses nothing: said once, where the annotation is.
    assert (run.code, run.err) == (
        0,
        "modetable: warning: fleet/apps/isvcs.yaml:7:26: ignore mode_move/*: "
        "suppresses no finding\n",
    )
    [suppressed] = _findings(run)["a/pinned"][2]
    assert suppressed["suppressed"] == {
        "by": "annotation",
        "id": "mode/MultiNode",
        "reason": "waits for the OMENative image",
        "at": "fleet/apps/isvcs.yaml:7:26",
    }
    line = (tmp_path / "fleet/apps/isvcs.yaml").read_text().splitlines()[6]
    # Column 26: where the value (a quoted scalar) begins.
    assert line[25:] == "'mode/MultiNode, mode_move/*: waits for the OMENative image"
    # Another namespace's annotation is not this audit's to warn about.
    assert run_cli("audit", fleet, "-n", "b").err == ""


def test_an_annotation_on_a_runtime_travels_with_it(fleet, tmp_path):
    _annotated(tmp_path, 3, "run_failure/*: the router is retired with this runtime")
    run = run_cli("audit", fleet, "-o", "json")
    routed = _findings(run)["b/routed"]
    assert routed[0] == ["mode/MultiNode"]
    assert [(s["id"], s["suppressed"]["by"]) for s in routed[2]] == [
        ("run_failure/router-invalid-mode", "annotation")
    ]


@pytest.mark.parametrize(
    ("value", "error"),
    [
        ("mode/MultiNode", "'mode/MultiNode' is not"),
        ("mode/MultiNode:  ", "'mode/MultiNode:' is not"),
        (", mode/*: why", "', mode/*: why' is not"),
    ],
)
def test_an_annotation_without_its_reason_is_an_error(fleet, tmp_path, value, error):
    _annotated(tmp_path, 4, value)
    run = run_cli("audit", fleet)
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        "modetable: error: fleet/apps/isvcs.yaml:7:26: annotation modetable.io/ignore: "
        f"{error} each line {{finding id}}[, {{finding id}}...]: {{reason}} "
        "(every exception says why)\n"
    )


# --- every format -------------------------------------------------------------------

GONE = {
    "fingerprint": "1" * 32,
    "id": "outcome/none",
    "severity": "error",
    "subject": "c/gone",
    "object": "InferenceService c/gone",
    "message": "no runtime found",
}
PINNED_ENTRY = {
    "fingerprint": "ad232a95be3634d0a49dbeaee75254e9",
    "id": "mode/MultiNode",
    "severity": "warning",
    "subject": "a/pinned",
    "object": "InferenceService a/pinned",
    "message": "engine runs in MultiNode, which is deprecated: move it to OMENative",
}
MIXED_SUMMARY = (
    "4 InferenceServices (v1.3): 2 ok, 1 with errors, 1 with warnings, 0 with info; "
    "findings: 1 error, 1 warning, 0 info; suppressed: 1 error; baseline: 1 known, 1 fixed"
)
LOST_MESSAGE = LOST_LINE.split(": error: ", 1)[1].removesuffix(" [admission/model-exists]")


@pytest.fixture
def mixed(fleet, tmp_path):
    """The fleet audited with every kind of finding: a/pinned's known, b/routed's
    run failure suppressed, b/lost's error and b/routed's mode new, c/gone fixed."""
    write(
        tmp_path,
        "base.json",
        json.dumps({"modetable_baseline": 1, "findings": [PINNED_ENTRY, GONE]}),
    )
    return ("audit", fleet, "--baseline", "base.json", "--ignore", "run_failure/*")


def test_the_table_with_everything(mixed):
    run = run_cli(*mixed, "-v")
    assert run.code == 1
    assert run.out.split("\n\n", 1)[1] == "\n".join(
        [
            "Findings:",
            "  a/pinned:",
            f"    {PINNED_LINE} (known: in the baseline)",
            "        ClusterServingRuntime lws spec.engineConfig.leader.runner.command[2] uses the "
            "variable LWS_LEADER_ADDRESS, which OMENative does not set: use OME_LEADER_ADDRESS",
            "        ClusterServingRuntime lws spec.engineConfig.leader.runner.command[4] uses the "
            "variable LWS_GROUP_SIZE, which OMENative does not set: use OME_INSTANCE_POD_COUNT",
            "        ClusterServingRuntime lws spec.engineConfig.worker.runner.command[2] uses the "
            "variable LWS_LEADER_ADDRESS, which OMENative does not set: use OME_LEADER_ADDRESS",
            "        ClusterServingRuntime lws spec.engineConfig.worker.runner.command[4] uses the "
            "variable LWS_GROUP_SIZE, which OMENative does not set: use OME_INSTANCE_POD_COUNT",
            "  b/lost:",
            f"    {LOST_LINE}",
            "  b/routed:",
            f"    {ROUTED_MODE_LINE}",
            f"        {ROUTED_SEE}",
            f"    {ROUTED_FAILURE_LINE} (suppressed by --ignore run_failure/*)",
            f"        {ROUTED_SEE}",
            "",
            "Fixed (in the baseline, no longer found):",
            "  c/gone: error: no runtime found [outcome/none]",
            "",
            MIXED_SUMMARY,
            "",
        ]
    )
    rows = [row.split("  ")[-1].strip() for row in run.out.splitlines()[1:5]]
    assert rows == ["-", "1 known", "1 error", "1 warning, 1 suppressed"]


def test_github_annotates_only_what_counts_and_counts_the_rest(mixed):
    run = run_cli(*mixed, "-o", "github")
    assert (run.code, run.out) == (
        1,
        "::error file=fleet/apps/isvcs.yaml,line=45,col=11,title=modetable admission/model-exists "
        f"(InferenceService b/lost)::{LOST_MESSAGE}\n"
        "::warning file=fleet/apps/isvcs.yaml,line=33,col=11,title=modetable mode/MultiNode "
        "(ClusterServingRuntime router-mn)::router runs in MultiNode, which is deprecated: "
        f"move it to OMENative ({ROUTED_SEE})\n"
        f"{MIXED_SUMMARY}\n",
    )


def test_markdown_tables_what_counts_and_says_what_is_accepted(mixed):
    out = run_cli(*mixed, "-o", "markdown").out
    head, table = out.split("\n\n| Severity", 1)
    assert head == (
        "### modetable audit (v1.3)\n\n"
        f"{MIXED_SUMMARY}\n\n"
        "Not in the table: 1 known (the baseline) and 1 suppressed, which never fail; "
        "`-v` and `-o json` list them."
    )
    assert [line.split("|")[2].strip() for line in table.splitlines()[2:]] == [
        "`admission/model-exists`",
        "`mode/MultiNode`",
    ]
    everything = run_cli("audit", "fleet", "--ignore", "*", "-o", "markdown").out
    assert everything.endswith(
        "findings: 0 errors, 0 warnings, 0 info; suppressed: 2 errors, 2 warnings\n\n"
        "Not in the table: 4 suppressed, which never fail; `-v` and `-o json` list them.\n\n"
        "No findings.\n"
    )


def test_junit_fails_on_what_counts_and_marks_the_rest(mixed):
    import xml.etree.ElementTree as ET

    suite = ET.fromstring(run_cli(*mixed, "-o", "junit", "--fail-on", "warning").out)[0]
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert (suite.get("tests"), suite.get("failures")) == ("4", "2")
    assert cases["a/pinned"].find("failure") is None
    assert cases["a/pinned"].find("system-out").text == f"{PINNED_LINE} (known: in the baseline)"
    assert cases["b/routed"].find("failure").text == f"{ROUTED_MODE_LINE} ({ROUTED_SEE})"
    assert cases["b/routed"].find("system-out").text == (
        f"{ROUTED_FAILURE_LINE} ({ROUTED_SEE}) (suppressed by --ignore run_failure/*)"
    )


def test_sarif_says_suppressions_and_baseline_states_its_own_way(mixed, tmp_path):
    import jsonschema

    document = json.loads(run_cli(*mixed, "-o", "sarif").out)
    schema = json.loads((Path(__file__).with_name("sarif-schema-2.1.0.json")).read_text())
    jsonschema.Draft4Validator(schema).validate(document)
    results = document["runs"][0]["results"]
    assert [
        (r["ruleId"], r["properties"]["name"], r.get("baselineState"), r.get("suppressions"))
        for r in results
    ] == [
        ("mode/MultiNode", "pinned", "unchanged", None),
        ("admission/model-exists", "lost", "new", None),
        ("mode/MultiNode", "router-mn", "new", None),
        (
            "run_failure/router-invalid-mode",
            "router-mn",
            None,
            [
                {
                    "kind": "external",
                    "status": "accepted",
                    "justification": "suppressed by --ignore run_failure/*",
                }
            ],
        ),
    ]
    # The config's exception: its reason and place; the annotation's: in the source.
    write(tmp_path, ".modetable.yaml", CONFIG)
    _annotated(tmp_path, 4, "mode/*: waits for the OMENative image")
    results = json.loads(run_cli("audit", "fleet", "-o", "sarif").out)["runs"][0]["results"]
    suppressions = {
        (r["ruleId"], r["properties"]["name"]): r["suppressions"]
        for r in results
        if "suppressions" in r
    }
    assert suppressions == {
        ("mode/MultiNode", "pinned"): [
            {
                "kind": "external",
                "status": "accepted",
                "justification": "a moves to OMENative in Q3",
                "location": {
                    "physicalLocation": {
                        "artifactLocation": {"uri": ".modetable.yaml"},
                        "region": {"startLine": 3, "startColumn": 5},
                    }
                },
            }
        ],
        **{
            (rule, "router-mn"): [
                {
                    "kind": "external",
                    "status": "accepted",
                    "justification": "the router's runtime is replaced next week",
                    "location": {
                        "physicalLocation": {
                            "artifactLocation": {"uri": ".modetable.yaml"},
                            "region": {"startLine": 6, "startColumn": 5},
                        }
                    },
                }
            ]
            for rule in ("run_failure/router-invalid-mode", "mode/MultiNode")
        },
    }
    assert all("baselineState" not in r for r in results)  # no baseline read
    # Without the config, the annotation suppresses a/pinned's mode, in source.
    results = json.loads(run_cli("audit", "fleet", "-o", "sarif", "--no-config").out)
    [pinned] = [r for r in results["runs"][0]["results"] if "suppressions" in r]
    assert pinned["suppressions"] == [
        {
            "kind": "inSource",
            "status": "accepted",
            "justification": "waits for the OMENative image",
            "location": {
                "physicalLocation": {
                    "artifactLocation": {"uri": "fleet/apps/isvcs.yaml"},
                    "region": {"startLine": 7, "startColumn": 26},
                }
            },
        }
    ]


def test_the_page_counts_and_lists_them(mixed):
    from modetable.html.audit_page import audit_page
    from modetable.views.audit import AuditView
    from modetable.views.converter import structure

    document = run_cli(*mixed, "-o", "json").json()
    page = run_cli(*mixed, "-o", "html").out
    assert page == audit_page(structure(document, AuditView))
    assert "<summary>Accepted findings: 1 suppressed, 1 known (the baseline)</summary>" in page
    for key, count in (("suppressed.error", 1), ("known.warning", 1), ("fixed", 1)):
        assert f'data-count="{key}">{count}<' in page
    assert '"Known: in the baseline"' in page
    assert (
        "router: Failed to reconcile component: invalid deployment mode for router "
        "(suppressed by --ignore run_failure/*)"
    ) in page


def test_a_partial_audit_says_only_its_own_unused_annotations(fleet, tmp_path):
    """With -n or --within, --ignore's and the config's exceptions may be about
    what the audit leaves out: not said; an annotation of an audited object is."""
    write(tmp_path, ".modetable.yaml", CONFIG)
    _annotated(tmp_path, 5, "outcome/*: never here")  # a/native
    argv = ("audit", fleet, "--ignore", "check/*", "-o", "json")
    for partial in (("-n", "a"), ("--within", fleet, "--", "fleet/apps/isvcs.yaml")):
        run = run_cli(*argv, *partial)
        assert run.err == (
            "modetable: warning: fleet/apps/isvcs.yaml:19:26: ignore outcome/*: "
            "suppresses no finding\n"
        ), partial
        assert [i["by"] for i in run.json()["unused_suppressions"]] == ["annotation"]
    everything = run_cli(*argv)
    assert [i["by"] for i in everything.json()["unused_suppressions"]] == [
        "option",
        "config",
        "annotation",
    ]


@pytest.mark.parametrize(
    ("separator", "key", "error"),
    [
        (":", "reason_separator", "the annotation's two separators differ"),
        ("", "ids_separator", "a separator of the annotation's value is one character or more"),
    ],
)
def test_the_rules_suppression_section_is_checked(tmp_path, separator, key, error):
    copy = rules_copy(
        tmp_path / "modes.yaml", ('  ids_separator: ","', f'  ids_separator: "{separator}"')
    )
    line = next(
        number
        for number, text in enumerate(copy.read_text().splitlines(), 1)
        if text.startswith(f"  {key}:")
    )
    run = run_cli("rules", "check", str(copy))
    assert (run.code, run.out) == (
        1,
        f"{copy}:{line}:3: error: incomplete-rule: {error}\n"
        f"{copy}: 1 error, 0 warnings; 0 of 0 example runs passed\n",
    )


def test_the_api_accepts_findings_as_the_command_does(fleet, tmp_path):
    import warnings

    import modetable

    write(tmp_path, "base.json", json.dumps({"modetable_baseline": 1, "findings": [GONE]}))
    policy = modetable.load_rules().at("v1.3")
    cluster = modetable.Cluster.from_paths("fleet", rules=policy)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        audit = modetable.audit_cluster(
            policy, cluster, ignore=["mode/*", "x*"], baseline=Path("base.json")
        )
    command = run_cli(
        "audit", "fleet", "--ignore", "mode/*", "--ignore", "x*", "--baseline", "base.json",
        "-o", "json", "--no-config",
    )  # fmt: skip
    assert audit.to_json() == command.json()
    assert [str(w.message) for w in said] == ["--ignore x*: suppresses no finding"]
    assert audit.summary["suppressed"] == {"error": 0, "warning": 2, "info": 0}
    assert audit.fails("warning") and not audit.fails(None)
    with pytest.raises(TypeError, match="ignore must be a sequence of str"):
        modetable.audit_cluster(policy, cluster, ignore="mode/*")
