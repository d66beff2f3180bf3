"""`modetable explain`: the table of `kubectl ome runtime explain` (its order,
columns, the stderr note, no runtimes) and --why, one runtime's full trace."""

from __future__ import annotations

import yaml
from conftest import (
    EXAMPLES,
    format_entry,
    isvc_doc,
    llama_model_spec,
    model_doc,
    run_cli,
    runtime_doc,
    write,
)

NO_AUTO_SELECT = (
    "supports the model but has no supportedModelFormats[].autoSelect=true entry, so "
    "automatic selection skips it (pin it explicitly via spec.runtime.name instead)"
)


def team_a(tmp_path, *, named=False):
    """kubectl-ome runtime.md's explain example, in team-a."""
    model = model_doc(
        "llama-3-2-3b-instruct", kind="BaseModel", namespace="team-a", **llama_model_spec()
    )
    weighted = format_entry(
        modelFormat={"name": "safetensors", "version": "1.0.0", "weight": 2}, priority=2
    )
    spec = {"model": {"name": "llama-3-2-3b-instruct"}, "engine": {}}
    if named:
        spec["runtime"] = {"name": "vllm-llama"}
    docs = [
        isvc_doc("llama-chat", "team-a", **spec),
        model,
        runtime_doc(
            "team-llama",
            "ServingRuntime",
            namespace="team-a",
            supportedModelFormats=[format_entry()],
        ),
        runtime_doc("vllm-llama", supportedModelFormats=[weighted]),
        runtime_doc(
            "srt-llama-1b",
            supportedModelFormats=[format_entry()],
            modelSizeRange={"min": "500M", "max": "2B"},
        ),
        runtime_doc("vllm-base", supportedModelFormats=[format_entry(autoSelect=False)]),
        runtime_doc("vllm-legacy", supportedModelFormats=[format_entry()], disabled=True),
    ]
    return str(write(tmp_path, "team-a.yaml", yaml.safe_dump_all(docs, sort_keys=False)))


EXPECTED_ROWS = [
    ["team-llama", "Namespaced", "Yes", "1", "2", "-"],
    ["vllm-llama", "Cluster", "Yes", "2", "6", "-"],
    [
        "srt-llama-1b",
        "Cluster",
        "No",
        "-",
        "-",
        "model size 3.21B is outside supported range [500M, 2B]",
    ],
    ["vllm-base", "Cluster", "No", "-", "-", NO_AUTO_SELECT],
    ["vllm-legacy", "Cluster", "No", "-", "-", "runtime is disabled"],
]


def table_rows(text):
    import re

    return [re.split(r"\s{2,}", line.strip()) for line in text.splitlines() if line.strip()]


def test_model_table_as_the_reference_page_shows_it(tmp_path):
    run = run_cli("explain", "--model", "team-a/llama-3-2-3b-instruct", team_a(tmp_path))
    assert (run.code, run.err) == (0, "")
    rows = table_rows(run.out)
    assert rows[0] == ["RUNTIME", "SCOPE", "COMPATIBLE", "PRIORITY", "WEIGHT", "REASON"]
    assert rows[1:] == EXPECTED_ROWS


def test_isvc_table_and_the_note_when_it_names_a_runtime(tmp_path):
    path = team_a(tmp_path, named=True)
    run = run_cli("explain", "--isvc", "team-a/llama-chat", path)
    assert run.code == 0
    assert table_rows(run.out)[1:] == EXPECTED_ROWS
    # The InferenceService asks for a ClusterBaseModel (spec.model.kind unset)
    # and team-a has a BaseModel of that name: explain and the webhook use it,
    # the controller stops (tests/test_model_lookup.py).
    lookup = (
        "Model: the webhook finds BaseModel team-a/llama-3-2-3b-instruct by name, and "
        "admission and its runtime resolution use it; the controller looks up ClusterBaseModel "
        "llama-3-2-3b-instruct, the kind spec.model asks for, finds none and stops: no workload "
        'and no event, only the log line "Failed to get referenced ClusterBaseModel"\n'
    )
    assert run.err == (
        "Note: spec.runtime is explicit; automatic selection below is hypothetical.\n" + lookup
    )
    plain = run_cli("explain", "--isvc", "team-a/llama-chat", team_a(tmp_path))
    assert plain.err == lookup


def test_isvc_checks_its_modes_and_classes(tmp_path):
    run = run_cli(
        "explain", "--isvc", str(EXAMPLES / "inference-service.yaml"), str(EXAMPLES), "-o", "json"
    )
    data = run.json()
    assert [(r["name"], r["check"]) for r in data["runtimes"]] == [
        ("srt-llama-3-3-70b-instruct", "auto-select"),
        ("srt-llama-3-3-70b-instruct-multinode", "deployment-mode"),
    ]
    by_model = run_cli(
        "explain", "--model", "llama-3-3-70b-instruct", str(EXAMPLES), "-o", "json"
    ).json()
    # Without the InferenceService no mode is asked for: the MultiNode runtime qualifies.
    assert [(r["name"], r["compatible"]) for r in by_model["runtimes"]] == [
        ("srt-llama-3-3-70b-instruct-multinode", True),
        ("srt-llama-3-3-70b-instruct", False),
    ]


def test_no_runtimes_at_all(tmp_path):
    path = write(tmp_path, "m.yaml", yaml.safe_dump(model_doc(**llama_model_spec())))
    run = run_cli("explain", "--model", "m", str(path))
    assert (run.code, run.out) == (0, "")
    assert run.err == "No serving runtimes found in the selected namespace or at cluster scope.\n"


def test_errors_as_kubectl_gives_them(tmp_path):
    path = str(write(tmp_path, "x.yaml", yaml.safe_dump(runtime_doc())))
    missing = run_cli("explain", "--model", "llama-3-2-3b-instruct", path)
    assert missing.code == 2
    assert missing.err == (
        'modetable: error: clusterbasemodels.ome.io "llama-3-2-3b-instruct" not found\n'
    )
    no_model = isvc_doc("svc", "ns", runtime={"name": "rt"})
    del no_model["spec"]["model"]
    path = str(write(tmp_path, "i.yaml", yaml.safe_dump(no_model)))
    run = run_cli("explain", "--isvc", "ns/svc", path)
    assert (
        run.err
        == 'modetable: error: InferenceService "svc" has no spec.model; pass --model instead\n'
    )
    both = run_cli("explain", "--isvc", "a", "--model", "b", path)
    assert both.code == 2


def test_why_traces_every_check_with_the_mode_sources(tmp_path):
    run = run_cli(
        "explain",
        "--isvc",
        str(EXAMPLES / "inference-service.yaml"),
        str(EXAMPLES),
        "--why",
        "srt-llama-3-3-70b-instruct-multinode",
    )
    assert run.code == 0
    trace = run.out.split("\n\n", 1)[1].splitlines()
    assert trace[0] == "srt-llama-3-3-70b-instruct-multinode (ClusterServingRuntime, Cluster): No"
    checks = [line for line in trace if line[:1].isdigit()]
    assert checks == [
        "1. disabled: passes",
        "2. accelerator-class: passes",
        "3. deployment-mode: fails",
        "4. model-format: passes; not reached (an earlier check failed)",
        "5. model-size: passes; not reached (an earlier check failed)",
        "6. auto-select: passes; not reached (an earlier check failed)",
        "7. score: passes; not reached (an earlier check failed)",
    ]
    text = "\n".join(trace)
    assert (
        "InferenceService's engine mode: OMENative from isvc-service-mode (spec.deploymentMode)"
        in text
    )
    assert (
        "Runtime's `engineConfig` mode: MultiNode from runtime-component-annotation "
        "(spec.engineConfig.annotations[ome.io/deploymentMode])"
    ) in text
    assert "passed over spec.engineConfig.leader or spec.engineConfig.worker" in text
    assert "spec.modelSizeRange: [60B, 75B]" in text


def test_why_json_and_unknown_runtime(tmp_path):
    path = team_a(tmp_path)
    data = run_cli(
        "explain",
        "--model",
        "team-a/llama-3-2-3b-instruct",
        path,
        "--why",
        "vllm-base",
        "-o",
        "json",
    ).json()
    states = [(c["check"], c["state"]) for c in data["why"]["checks"]]
    assert states == [
        ("disabled", "passed"),
        ("accelerator-class", "skipped"),
        ("deployment-mode", "skipped"),
        ("model-format", "passed"),
        ("model-size", "passed"),
        ("auto-select", "failed"),
        ("score", "failed"),
    ]
    assert data["why"]["checks"][1]["note"] == "not checked (explaining a model alone)"
    unknown = run_cli("explain", "--model", "team-a/llama-3-2-3b-instruct", path, "--why", "nope")
    assert unknown.code == 2
    assert unknown.err.startswith("modetable: error: no runtime 'nope' for namespace team-a")
