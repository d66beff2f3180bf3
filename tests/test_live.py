"""`--live PATH`: objects as the cluster holds them, joined to the manifests
(inputs/live.py), on the command line and in the Python API."""

from __future__ import annotations

import json

import pytest
import yaml
from conftest import (
    CATALOG,
    EXAMPLES,
    format_entry,
    isvc_doc,
    llama_model_spec,
    model_doc,
    need,
    run_cli,
    runtime_doc,
    write,
)

import modetable


def _dump(*objects: dict) -> str:
    """What `kubectl get ... -A -o yaml` prints: one `kind: List`."""
    return yaml.safe_dump(
        {"apiVersion": "v1", "kind": "List", "items": list(objects)}, sort_keys=False
    )


def _live(doc: dict, **status: object) -> dict:
    """A copy of `doc` as the cluster holds it: metadata the API server adds, a status."""
    copy = json.loads(json.dumps(doc))
    copy["metadata"].update({"resourceVersion": "4711", "uid": "0b7d9e3c-6a2f-4c58"})
    if status:
        copy["status"] = dict(status)
    return copy


# The model as a repository declares it: storage only, no format yet.
_DECLARED = model_doc("m", modelParameterSize="3.21B")
# The same model once OME's model agent has read it.
_READ = _live(model_doc("m", **llama_model_spec()), state="Ready")


def _selected(tmp_path, manifests: list[dict], live: list[dict]) -> dict:
    files = write(tmp_path, "manifests.yaml", yaml.safe_dump_all(manifests, sort_keys=False))
    dump = write(tmp_path, "cluster.yaml", _dump(*live))
    run = run_cli("select", "--isvc", "ns/svc", str(files), "--live", str(dump), "-o", "json")
    assert run.err == ""
    return run.json()


def test_the_live_model_fills_in_what_the_model_agent_writes(tmp_path):
    data = _selected(
        tmp_path,
        [
            isvc_doc(engine={"minReplicas": 1}),
            _DECLARED,
            runtime_doc(supportedModelFormats=[format_entry()]),
        ],
        [_READ],
    )
    assert data["result"] == "picked"
    assert data["runtime"] == {
        "name": "rt",
        "kind": "ClusterServingRuntime",
        "read_from": "manifest",
    }
    assert data["model"] == {
        "kind": "ClusterBaseModel",
        "namespace": None,
        "name": "m",
        "at": f"{tmp_path / 'manifests.yaml'}:12:1",
        "read_from": "both",
    }
    assert data["read_from"] == "manifest"


def test_without_the_live_dump_the_same_manifests_have_no_format(tmp_path):
    files = write(
        tmp_path,
        "manifests.yaml",
        yaml.safe_dump_all(
            [
                isvc_doc(engine={"minReplicas": 1}),
                _DECLARED,
                runtime_doc(supportedModelFormats=[format_entry()]),
            ],
            sort_keys=False,
        ),
    )
    data = run_cli("select", "--isvc", "ns/svc", str(files), "-o", "json").json()
    # The model waits for OME's model agent: pending, the runtime picked once filled in.
    assert (data["result"], data["pending"]["runtimes"]) == ("pending", ["rt"])
    assert data["pending"]["fields"] == ["modelFormat", "modelFramework", "modelArchitecture"]
    assert data["model"]["read_from"] == "manifest"


def test_the_manifests_own_spec_wins_but_for_what_the_model_agent_fills_in(tmp_path):
    isvc = isvc_doc(engine={"minReplicas": 1})
    runtime = runtime_doc(
        supportedModelFormats=[format_entry()], modelSizeRange={"min": "1B", "max": "5B"}
    )
    # `disabled` is the manifest's (what will be applied), whatever the live copy says.
    manifest = model_doc("m", **llama_model_spec(), disabled=True)
    live = _live(model_doc("m", **llama_model_spec(), disabled=False), state="Ready")
    assert _selected(tmp_path, [isvc, manifest, runtime], [live])["result"] == "model_disabled"
    # modelParameterSize is one the model agent fills in: the live copy's wins
    # (3.21B, inside the runtime's range, where the manifest says 70B).
    manifest = model_doc("m", **llama_model_spec(modelParameterSize="70B"))
    live = _live(model_doc("m", **llama_model_spec()), state="Ready")
    assert _selected(tmp_path, [isvc, manifest, runtime], [live])["result"] == "picked"
    assert _selected(tmp_path, [isvc, manifest, runtime], [])["result"] == "none"


def test_a_status_is_the_clusters_and_the_conditions_it_records_count(tmp_path):
    # picked sets RuntimeReady True only where the InferenceService already
    # records the condition (the rules' `when: [recorded]`): a live status.
    isvc = isvc_doc(engine={"minReplicas": 1})
    manifest_isvc = {**isvc, "status": {"conditions": [{"type": "Ready", "status": "True"}]}}
    live_isvc = _live(isvc, conditions=[{"type": "RuntimeReady", "status": "False"}])
    data = _selected(
        tmp_path,
        [
            manifest_isvc,
            model_doc("m", **llama_model_spec()),
            runtime_doc(supportedModelFormats=[format_entry()]),
        ],
        [live_isvc],
    )
    assert data["read_from"] == "both"
    assert [(c["type"], c["status"], c["reason"]) for c in data["conditions"]] == [
        ("RuntimeReady", "True", "RuntimeResolved")
    ]


def test_objects_only_in_the_dump_are_part_of_the_cluster(tmp_path):
    installed = runtime_doc("platform-rt", supportedModelFormats=[format_entry()])
    data = _selected(
        tmp_path,
        [isvc_doc(engine={"minReplicas": 1}), model_doc("m", **llama_model_spec())],
        [_live(installed)],
    )
    assert data["result"] == "picked"
    assert data["runtime"] == {
        "name": "platform-rt",
        "kind": "ClusterServingRuntime",
        "read_from": "live",
    }


def test_the_example_dump_gives_the_example_a_runtime_installed_by_others():
    run = run_cli(
        "select",
        "--isvc",
        str(EXAMPLES / "inference-service.yaml"),
        str(EXAMPLES),
        "--live",
        str(EXAMPLES / "cluster.live"),
        "-o",
        "json",
    )
    assert run.code == 0, run.err
    data = run.json()
    assert data["result"] == "picked"
    assert data["runtime"] == {
        "name": "srt-llama-3-3-70b-instruct-omenative",
        "kind": "ClusterServingRuntime",
        "read_from": "live",
    }
    assert data["model"]["read_from"] == "both"
    assert data["components"] == {"engine": {"mode": "OMENative", "source": "ComponentAnnotation"}}


def test_live_alone_is_enough(tmp_path):
    dump = write(
        tmp_path,
        "cluster.yaml",
        _dump(
            _live(isvc_doc(engine={"minReplicas": 1})),
            _live(model_doc("m", **llama_model_spec())),
            _live(runtime_doc(supportedModelFormats=[format_entry()])),
        ),
    )
    data = run_cli("select", "--isvc", "ns/svc", "--live", str(dump), "-o", "json").json()
    assert (data["result"], data["read_from"], data["runtime"]["read_from"]) == (
        "picked",
        "live",
        "live",
    )


def test_live_on_standard_input(tmp_path):
    files = write(
        tmp_path,
        "manifests.yaml",
        yaml.safe_dump_all(
            [
                isvc_doc(engine={"minReplicas": 1}),
                _DECLARED,
                runtime_doc(supportedModelFormats=[format_entry()]),
            ],
            sort_keys=False,
        ),
    )
    run = run_cli(
        "select", "--isvc", "ns/svc", str(files), "--live", "-", "-o", "json", stdin=_dump(_READ)
    )
    assert run.json()["result"] == "picked"
    assert run.json()["model"]["read_from"] == "both"


def test_standard_input_for_both_sides_is_refused(tmp_path):
    run = run_cli("audit", "-", "--live", "-", stdin=_dump(_READ))
    assert run.code == 2
    assert run.err == (
        "modetable: error: - (standard input) may be given for the manifests or for --live, "
        "not both\n"
    )


def test_bad_live_input_is_one_line_and_exit_2(tmp_path):
    dump = write(tmp_path, "cluster.yaml", "apiVersion: v1\nkind: List\nitems:\n  - kind: [\n")
    files = write(tmp_path, "m.yaml", yaml.safe_dump(isvc_doc()))
    for command in (["audit", str(files)], ["select", "--isvc", "ns/svc", str(files)]):
        run = run_cli(*command, "--live", str(dump))
        assert run.code == 2
        assert run.out == ""
        assert run.err == (
            f"modetable: error: {dump}:5:1: invalid YAML: did not find expected node content\n"
        )


def test_a_bad_live_object_stops_the_audit_which_is_lenient_with_manifests(tmp_path):
    # The audit leaves out a manifest that does not read; a live dump is the
    # cluster's own and is read strictly.
    dump = write(
        tmp_path,
        "cluster.yaml",
        _dump({"apiVersion": "ome.io/v1beta1", "kind": "ClusterBaseModel", "metadata": {}}),
    )
    files = write(tmp_path, "m.yaml", yaml.safe_dump(isvc_doc()))
    run = run_cli("audit", str(files), "--live", str(dump))
    assert run.code == 2
    assert run.err == f"modetable: error: {dump}:6:13: ClusterBaseModel has no metadata.name\n"


@pytest.mark.parametrize("command", ["match", "explain", "effective", "admit", "audit"])
def test_every_command_reads_live(tmp_path, command):
    files = write(
        tmp_path,
        "manifests.yaml",
        yaml.safe_dump_all([isvc_doc(engine={"minReplicas": 1}), _DECLARED], sort_keys=False),
    )
    dump = write(
        tmp_path,
        "cluster.yaml",
        _dump(_READ, _live(runtime_doc(supportedModelFormats=[format_entry()]))),
    )
    argv = (
        [command, str(files)] if command == "audit" else [command, "--isvc", "ns/svc", str(files)]
    )
    run = run_cli(*argv, "--live", str(dump), "-o", "json")
    assert run.err == ""
    data = run.json()
    if command == "audit":
        (item,) = data["items"]
        assert (item["result"], item["runtime"]["read_from"]) == ("picked", "live")
    elif command == "explain":
        assert data["model"] == {"name": "m", "kind": "ClusterBaseModel", "read_from": "both"}
        assert [(r["name"], r["compatible"]) for r in data["runtimes"]] == [("rt", True)]
    elif command == "match":
        assert [r["name"] for r in data["runtimes"]] == ["rt"]
    elif command == "effective":
        assert data["runtime"] == {
            "name": "rt",
            "kind": "ClusterServingRuntime",
            "read_from": "live",
        }
    else:
        assert data["admission"]["allowed"] is True


def test_the_api_reads_live_paths_and_objects(tmp_path):
    policy = modetable.load_rules().at("v1.3")
    manifests = [
        isvc_doc(engine={"minReplicas": 1}),
        _DECLARED,
        runtime_doc(supportedModelFormats=[format_entry()]),
    ]
    files = write(tmp_path, "manifests.yaml", yaml.safe_dump_all(manifests, sort_keys=False))
    dump = write(tmp_path, "cluster.yaml", _dump(_READ))
    from_paths = modetable.Cluster.from_paths(files, rules=policy, live=[dump])
    from_objects = modetable.Cluster.from_objects(manifests, rules=policy, live=[_READ])
    for cluster in (from_paths, from_objects):
        found = modetable.select(policy, cluster, "ns/svc").to_json()
        assert (found["result"], found["model"]["read_from"]) == ("picked", "both")
    # Without the live objects, the same manifests leave the model waiting for
    # OME's model agent: pending.
    alone = modetable.Cluster.from_objects(manifests, rules=policy)
    waiting = modetable.select(policy, alone, "ns/svc")
    assert (waiting.result, waiting.pending) == ("pending", True)


@pytest.mark.slow  # the catalog read with the live dump four times
def test_deepseek_r1_with_its_model_read_runs_its_named_runtime(tmp_path, catalog_read_once):
    """The catalog's deepseek-r1 declares storage only; the cluster's copy, once
    the model agent has read DeepSeek-R1's config, has its format: no
    model-format error is left, and it runs the runtime it names."""
    catalog = need(CATALOG)
    read = _live(
        model_doc(
            "deepseek-r1",
            modelCapabilities=["TEXT_TO_TEXT"],
            vendor="deepseek-ai",
            storage={"storageUri": "hf://deepseek-ai/DeepSeek-R1"},
            modelFormat={"name": "safetensors", "version": "1.0.0"},
            modelFramework={"name": "transformers", "version": "4.46.3"},
            modelArchitecture="DeepseekV3ForCausalLM",
            modelParameterSize="671B",
            quantization="fp8",
        ),
        state="Ready",
        nodesReady=["gpu-1"],
    )
    dump = write(tmp_path, "cluster.yaml", _dump(read))
    run = run_cli(
        "select",
        "--isvc",
        "deepseek-r1/deepseek-r1",
        str(catalog),
        "--live",
        str(dump),
        "-o",
        "json",
    )
    assert run.code == 0
    data = run.json()
    # It runs the runtime it names. The model's framework (4.46.3, as DeepSeek-R1's
    # config says) is newer than the runtime's entry accepts: OME warns and
    # proceeds, as for any runtime named explicitly.
    assert (data["result"], data["message"]) == ("named_unsupported", None)
    assert data["runtime"] == {
        "name": "srt-deepseek-rdma",
        "kind": "ClusterServingRuntime",
        "read_from": "manifest",
    }
    assert data["model"]["read_from"] == "both"
    # The live copy is filled in: nothing waits for OME's model agent. Without
    # it, the catalog's model lacks every field the agent fills in.
    assert data["pending"] is None
    alone = run_cli("select", "--isvc", "deepseek-r1/deepseek-r1", str(catalog), "-o", "json")
    assert alone.json()["pending"]["fields"] == [
        "modelFormat",
        "modelFramework",
        "modelArchitecture",
        "modelParameterSize",
    ]
    assert data["admission"]["allowed"] is True
    assert data["admission"]["warnings"] == [
        'runtime "srt-deepseek-rdma" does not declare support for model "deepseek-r1" (runtime '
        "srt-deepseek-rdma does not support model safetensors: model format "
        "'mt:safetensors:1.0.0:DeepseekV3ForCausalLM:fp8:transformers:4.46.3' not in supported "
        "formats: framework version mismatch (model=4.46.3, runtime=4.33.1)); proceeding because "
        "the runtime was named explicitly"
    ]
    assert data["hint"] is None
    assert data["components"]["engine"] == {"mode": "OMENative", "source": "LeaderWorkerShape"}
    # The runtime's entry has GreaterThanOrEqual 4.33.1: explain says, beside
    # OME's text, that OME compares the runtime's version to the model's.
    why = run_cli(
        "explain",
        "--isvc",
        "deepseek-r1/deepseek-r1",
        str(catalog),
        "--live",
        str(dump),
        "--why",
        "srt-deepseek-rdma",
    )
    lines = why.out.splitlines()
    at = lines.index("4. model-format: fails")
    assert lines[at + 2 : at + 5] == [
        "     model: mt:safetensors:1.0.0:DeepseekV3ForCausalLM:fp8:transformers:4.46.3",
        "     spec.supportedModelFormats[0]: framework version mismatch (model=4.46.3, "
        "runtime=4.33.1)",
        "       4.33.1 >= 4.46.3 is false: OME compares the runtime's version to the model's",
    ]
    # The audit has nothing of the model's format for it.
    audit = run_cli(
        "audit", str(catalog), "--live", str(dump), "-n", "deepseek-r1", "-o", "json"
    ).json()
    (item,) = audit["items"]
    ids = [f["id"] for f in item["findings"]]
    assert not [i for i in ids if "model_format" in i or "named_model_invalid" in i], ids
    # And the upgrade shows the real move: MultiNode -> OMENative, seven LWS uses.
    upgrade = run_cli(
        "audit",
        str(catalog),
        "--from",
        "v1.2.2",
        "--to",
        "v1.3",
        "--live",
        str(dump),
        "-n",
        "deepseek-r1",
        "-o",
        "json",
    ).json()
    (moved,) = upgrade["items"]
    engine = moved["components"]["engine"]
    assert (engine["from"]["mode"], engine["to"]["mode"], moved["breaking"]) == (
        "MultiNode",
        "OMENative",
        True,
    )
    assert [c["name"] for c in engine["changes"]] == [
        "leaderworkerset.sigs.k8s.io/worker-index=0",
        *["LWS_LEADER_ADDRESS", "LWS_GROUP_SIZE", "LWS_WORKER_INDEX"] * 2,
    ]


def test_the_walk_through_of_docs_commands_is_a_real_run(monkeypatch):
    from test_docs_commands import examples, run_example

    monkeypatch.chdir(EXAMPLES.parent)
    [block] = examples("### What the cluster holds: `--live`")
    run_example(block, 0)


def test_each_value_keeps_the_place_it_was_read_at(tmp_path, v13):
    from modetable.inputs.loading import load_paths
    from modetable.parsing.yamlio import where

    manifests = write(
        tmp_path,
        "manifests.yaml",
        yaml.safe_dump_all(
            [{**isvc_doc(), "status": {"url": "written by hand"}}, model_doc("m", vendor="meta")],
            sort_keys=False,
        ),
    )
    dump = write(tmp_path, "cluster.yaml", _dump(_READ, _live(isvc_doc())))
    cluster = load_paths(v13, [manifests], live=[dump])
    [model] = cluster.models
    [isvc] = cluster.isvcs
    spec = model.body["spec"]
    # The model agent's fields come from the dump, the rest from the manifest.
    assert spec == {"vendor": "meta", **_READ["spec"]}
    assert str(where(spec, "vendor")) == f"{manifests}:17:11"
    assert str(where(spec, "modelArchitecture")) == f"{dump}:11:24"
    assert str(where(spec["modelFormat"], "name")) == f"{dump}:13:13"
    assert str(where(model.body, "status")) == f"{dump}:22:5"
    assert (model.read_from, str(model.location), str(model.live_location)) == (
        "both",
        f"{manifests}:12:1",
        f"{dump}:4:3",
    )
    # The dump's copy has no status: the manifest's, never applied, is gone.
    assert "status" not in isvc.body
    assert isvc.body["spec"] == {"model": {"name": "m"}}
