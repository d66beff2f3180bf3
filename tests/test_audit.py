"""`modetable audit`: a fleet's outcomes, problems, deprecations and summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from conftest import (
    EXAMPLES,
    format_entry,
    isvc_doc,
    llama_model_spec,
    mode_annotation,
    model_doc,
    rules_used,
    run_cli,
    runtime_doc,
    write,
)

LWS_COMMAND = [
    "python3",
    "--nccl-init",
    "$(LWS_LEADER_ADDRESS):5000",
    "--nnodes",
    "$(LWS_GROUP_SIZE)",
]
# What the move to OMENative breaks in runtime lws, whose leader and worker both
# run LWS_COMMAND: each place (path) with its message, in the order found.
LWS_BREAKS = [
    (
        f"spec.engineConfig.{side}.runner.command[{index}]",
        f"ClusterServingRuntime lws spec.engineConfig.{side}.runner.command[{index}] uses "
        f"the variable {name}, which OMENative does not set: use {replacement}",
    )
    for side in ("leader", "worker")
    for index, name, replacement in (
        (2, "LWS_LEADER_ADDRESS", "OME_LEADER_ADDRESS"),
        (4, "LWS_GROUP_SIZE", "OME_INSTANCE_POD_COUNT"),
    )
]


def fleet_documents() -> list[dict]:
    lws = {"runner": {"name": "ome-container", "command": LWS_COMMAND}}
    return [
        model_doc("m", **llama_model_spec()),
        runtime_doc(
            "lws",
            supportedModelFormats=[format_entry(priority=2)],
            engineConfig={**mode_annotation("MultiNode"), "leader": lws, "worker": lws},
        ),
        runtime_doc("plain", supportedModelFormats=[format_entry()]),
        runtime_doc(
            "router-mn",
            supportedModelFormats=[format_entry(autoSelect=False)],
            routerConfig=mode_annotation("MultiNode"),
        ),
        isvc_doc("pinned", "a", engine=mode_annotation("MultiNode")),
        isvc_doc("native", "a", deploymentMode="OMENative", engine={}),
        isvc_doc("routed", "b", engine={}, router={}, runtime={"name": "router-mn"}),
        isvc_doc("lost", "b", engine={}, model={"name": "absent"}),
    ]


def write_fleet(folder: Path) -> Path:
    """The fleet as files under FOLDER/fleet: its runtimes and model, and apps/
    with its InferenceServices (the layout the docs' examples show)."""
    documents = fleet_documents()
    write(folder, "fleet/runtimes.yaml", yaml.safe_dump_all(documents[:4], sort_keys=False))
    write(folder, "fleet/apps/isvcs.yaml", yaml.safe_dump_all(documents[4:], sort_keys=False))
    return folder / "fleet"


@pytest.fixture
def fleet(tmp_path):
    return write_fleet(tmp_path)


def _items(run) -> dict[str, dict]:
    return {item["isvc"]: item for item in run.json()["items"]}


def test_every_isvc_with_its_runtime_problems_and_deprecations(fleet):
    run = run_cli("audit", str(fleet), "-o", "json")
    assert run.code == 1, run.err
    assert run.err == ""
    items = _items(run)
    # Sorted by namespace, then name, as kubectl lists them.
    assert list(items) == ["a/native", "a/pinned", "b/lost", "b/routed"]
    summary = {
        name: (item["runtime"]["name"] if item["runtime"] else None, item["problems"])
        for name, item in items.items()
    }
    assert summary == {
        "a/native": ("plain", []),
        "a/pinned": ("lws", []),
        "b/lost": (None, ["denied", "no_runtime"]),
        "b/routed": ("router-mn", ["run_failure"]),
    }
    assert items["b/routed"]["reconcile"] == {"router": "invalid deployment mode for router"}
    assert items["a/pinned"]["components"] == {
        "engine": {"mode": "MultiNode", "source": "ComponentAnnotation"}
    }
    assert items["a/native"]["deprecations"] == []


def test_a_deprecated_mode_comes_with_the_move_and_what_it_breaks(fleet):
    items = _items(run_cli("audit", str(fleet), "-o", "json"))
    [deprecation] = items["a/pinned"]["deprecations"]
    runtime_file = str(fleet / "runtimes.yaml")
    changes = deprecation.pop("changes")
    assert deprecation == {
        "component": "engine",
        "mode": "MultiNode",
        "source": "ComponentAnnotation",
        "replacement": "OMENative",
        "message": "engine runs in MultiNode, which is deprecated: move it to OMENative",
    }
    assert [(c["path"], c["message"]) for c in changes] == LWS_BREAKS
    assert all(c["at"].startswith(runtime_file + ":") for c in changes)
    assert {c["in"] for c in changes} == {"ClusterServingRuntime lws"}


def test_no_deprecation_in_a_version_without_the_replacement(fleet):
    """v1.2.2 has no OMENative: MultiNode is its only multi-node mode, with no move
    to tell anyone about."""
    run = run_cli("--ome-version", "v1.2.2", "audit", str(fleet), "-o", "json")
    items = _items(run)
    assert items["a/pinned"]["components"]["engine"]["mode"] == "MultiNode"
    assert [item["deprecations"] for item in items.values()] == [[]] * len(items)
    assert run.json()["summary"]["deprecated"] == 0


def test_each_item_is_selects_json_with_the_identity(fleet):
    for name, item in _items(run_cli("audit", str(fleet), "-o", "json")).items():
        select = run_cli("select", "--isvc", name, str(fleet), "-o", "json").json()
        del select["candidates"]
        identity = {key: item.pop(key) for key in ("namespace", "name", "at")}
        item.pop("problems")
        item.pop("deprecations")
        assert select.pop("rules") == rules_used()
        for key in ("findings", "known", "suppressed"):
            item.pop(key)
        assert item == select
        assert f"{identity['namespace']}/{identity['name']}" == name
        assert identity["at"].startswith(str(fleet / "apps" / "isvcs.yaml") + ":")


def test_candidates_on_request_are_selects(fleet):
    items = _items(run_cli("audit", str(fleet), "-o", "json", "--candidates"))
    for name, item in items.items():
        select = run_cli("select", "--isvc", name, str(fleet), "-o", "json").json()
        assert item["candidates"] == select["candidates"]
    assert "candidates" not in run_cli("audit", str(fleet), "-o", "json").json()["items"][0]


def test_the_summary_counts(fleet):
    assert run_cli("audit", str(fleet), "-o", "json").json()["summary"] == {
        "version": "v1.3",
        "isvcs": 4,
        # ok: no finding of any severity (a/pinned runs a deprecated mode)
        "ok": 1,
        "denied": 1,
        "no_runtime": 1,
        "run_failure": 1,
        # the router running MultiNode is deprecated too, besides failing
        "deprecated": 2,
        "results": {"model_missing": 1, "named": 1, "picked": 2},
        "modes": {
            "engine": {"MultiNode": 1, "OMENative": 1, "RawDeployment": 2},
            "router": {"MultiNode": 1},
        },
        # by the most severe finding: b/lost and b/routed, then a/pinned (deprecated)
        "severity": {"error": 2, "warning": 1, "info": 0},
        # b/lost's model, b/routed's router failing; b/routed's and a/pinned's
        # MultiNode (router-mn's routerConfig mode sets the router's: no finding of its own)
        "findings": {"error": 2, "warning": 2, "info": 0},
        # no baseline, no exception
        "known": {"error": 0, "warning": 0, "info": 0},
        "suppressed": {"error": 0, "warning": 0, "info": 0},
        "fixed": None,
    }


def test_yaml_holds_the_same_data(fleet):
    as_json = run_cli("audit", str(fleet), "-o", "json").json()
    as_yaml = yaml.safe_load(run_cli("audit", str(fleet), "-o", "yaml").out)
    assert as_yaml == as_json


def test_a_kubectl_list_on_stdin(fleet):
    dump = yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": fleet_documents()})
    from_stdin = run_cli("audit", "-", "-o", "json", stdin=dump)
    from_files = run_cli("audit", str(fleet), "-o", "json")
    assert from_stdin.code == from_files.code == 1

    def without_places(run):
        items = run.json()["items"]
        for item in items:
            item.pop("at")
            if item["model"] is not None:
                item["model"].pop("at")
            for deprecation in item["deprecations"]:
                for change in deprecation["changes"]:
                    change.pop("at")
            for finding in item["findings"]:
                finding.pop("location")
                for place in finding["related"]:
                    for key in ("file", "line", "col"):
                        place.pop(key)
        return items

    assert without_places(from_stdin) == without_places(from_files)
    assert from_stdin.json()["items"][0]["at"].startswith("<stdin>:")


def test_the_table_for_people(fleet):
    run = run_cli("audit", str(fleet))
    assert run.code == 1
    lines = run.out.splitlines()
    assert lines[0].split() == ["NAMESPACE", "NAME", "RUNTIME", "ENGINE", "ROUTER", "FINDINGS"]
    assert lines[2].split() == [
        "a",
        "pinned",
        "lws",
        "MultiNode",
        "(ComponentAnnotation)",
        "-",
        "1",
        "warning",
    ]
    isvcs = str(fleet / "apps" / "isvcs.yaml")
    runtimes = str(fleet / "runtimes.yaml")
    findings = lines[lines.index("Findings:") + 1 : -2]
    assert [line for line in findings if not line.startswith("        ")] == [
        "  a/pinned:",
        # where the mode is set: the engine's annotation
        f"    {isvcs}:9:30: warning: engine runs in MultiNode, which is deprecated: "
        "move it to OMENative [mode/MultiNode]",
        "  b/lost:",
        # at spec.model.name, the model that is not found
        f'    {isvcs}:45:11: error: admission webhook "inferenceservice.ome-webhook-server.'
        'validator" denied the request: referenced model "absent" not found in namespace "b": '
        "ensure a BaseModel exists in this namespace or a ClusterBaseModel exists cluster-wide "
        "with this name [admission/model-exists]",
        "  b/routed:",
        # the router's mode comes from the runtime's routerConfig: at the
        # InferenceService's spec.runtime.name, the runtime's annotation beside it
        f"    {isvcs}:33:11: error: router: Failed to reconcile component: invalid deployment "
        "mode for router "
        "[run_failure/router-invalid-mode]",
        f"    {isvcs}:33:11: warning: router runs in MultiNode, which is deprecated: "
        "move it to OMENative [mode/MultiNode]",
    ]
    assert findings[-1] == f"        see ClusterServingRuntime router-mn at {runtimes}:79:30"
    # Under the deprecation, what the move to the replacement changes.
    assert findings[2] == (
        "        ClusterServingRuntime lws spec.engineConfig.leader.runner.command[2] uses the "
        "variable LWS_LEADER_ADDRESS, which OMENative does not set: use OME_LEADER_ADDRESS"
    )
    assert lines[-1] == (
        "4 InferenceServices (v1.3): 1 ok, 2 with errors, 1 with warnings, 0 with info; "
        "findings: 2 errors, 2 warnings, 0 info"
    )


def test_one_inference_service_is_counted_in_the_singular(tmp_path):
    documents = fleet_documents()
    path = write(
        tmp_path, "one.yaml", yaml.safe_dump_all([*documents[:3], documents[5]], sort_keys=False)
    )
    run = run_cli("audit", str(path))
    assert run.code == 0
    assert run.out.splitlines() == [
        "NAMESPACE    NAME    RUNTIME    ENGINE                   FINDINGS",
        "a            native  plain      OMENative (ServiceSpec)  -",
        "",
        "1 InferenceService (v1.3): 1 ok, 0 with errors, 0 with warnings, 0 with info; "
        "findings: 0 errors, 0 warnings, 0 info",
    ]
    upgrade = run_cli("audit", str(path), "--from", "v1.2.2")
    assert upgrade.out.splitlines()[0] == (
        "Upgrade v1.2.2 -> v1.3: 1 InferenceService, 1 change (0 breaking), 0 stay as they are."
    )
    page = run_cli("audit", str(path), "-o", "html").out
    assert _meta_sentence(page) == "1 InferenceService under OME v1.3."
    assert 'Showing <output id="shown">1</output> of 1 InferenceService.</p>' in page
    page = run_cli("audit", str(path), "--from", "v1.2.2", "-o", "html").out
    assert _meta_sentence(page) == "1 InferenceService."


def _meta_sentence(page: str) -> str:
    """The page's first sentence under its title (the rules line follows it)."""
    meta = page.split('<p class="meta">', 1)[1].split("</p>", 1)[0]
    return meta.split(" Rules: ", 1)[0]


def test_a_healthy_fleet_exits_0(tmp_path):
    documents = fleet_documents()
    path = write(
        tmp_path, "ok.yaml", yaml.safe_dump_all([*documents[:4], documents[5]], sort_keys=False)
    )
    run = run_cli("audit", str(path), "-o", "json")
    assert run.code == 0, run.out
    assert run.json()["summary"]["ok"] == 1


def test_no_inferenceservices_is_an_empty_audit(tmp_path):
    path = write(tmp_path, "rt.yaml", yaml.safe_dump(runtime_doc("plain")))
    run = run_cli("audit", str(path), "-o", "json")
    assert run.code == 0
    assert json.loads(run.out)["items"] == []
    assert run.json()["summary"]["isvcs"] == 0


def test_the_page_example_is_refused_with_its_message():
    run = run_cli("audit", str(EXAMPLES), "-o", "json")
    assert run.code == 1
    [item] = run.json()["items"]
    assert item["message"] == (
        "no runtime found to support model safetensors with format safetensors in namespace "
        "llama-demo. Checked 2 runtimes (0 namespace-scoped, 2 cluster-scoped). Excluded "
        "runtimes: srt-llama-3-3-70b-instruct-multinode (runtime engine deployment mode "
        "MultiNode does not match requested engine deployment mode OMENative)"
    )


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["--to", "v1.3"], "modetable: error: --to needs --from (the version upgraded from)\n"),
        (
            ["--from", "v1.2.2", "--candidates"],
            "modetable: error: --candidates applies to an audit, not to --from\n",
        ),
        (
            ["--from", "v1.2.2", "--within", "."],
            "modetable: error: --within applies to an audit, not to --from\n",
        ),
        (
            ["--from", "v1.2"],
            "modetable: error: OME v1.2 is older than these rules describe: "
            "they cover v1.2.2 to v1.3.x\n",
        ),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(fleet, argv, error):
    run = run_cli("audit", str(fleet), *argv)
    assert (run.code, run.out, run.err) == (2, "", error)


def test_no_manifests_is_an_error():
    run = run_cli("audit")
    assert run.code == 2
    assert run.err == "modetable: error: no manifests given (pass files, folders or -)\n"


@pytest.mark.parametrize("count", [0, 1, 3])
def test_streamed_output_is_the_document_render_gives(count):
    import io

    from modetable.audit.output import write_json, write_yaml
    from modetable.output.render import dump

    items = [{"isvc": f"ns/s{i}", "problems": [], "nested": {"a": [1, "é"]}} for i in range(count)]
    summary = {"isvcs": count, "modes": {"engine": {"OMENative": count}}}
    streamed_yaml, whole_yaml, streamed_json = io.StringIO(), io.StringIO(), io.StringIO()
    trailer = {"manifest_findings": [], "summary": summary}
    write_yaml(streamed_yaml, iter(items), lambda: trailer)
    dump({"items": items, **trailer}, "yaml", whole_yaml)
    assert streamed_yaml.getvalue() == whole_yaml.getvalue()
    write_json(streamed_json, iter(items), lambda: trailer)
    assert json.loads(streamed_json.getvalue()) == {"items": items, **trailer}
