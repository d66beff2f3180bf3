"""`modetable explain`: the table of `kubectl ome runtime explain` (its order,
columns, the stderr note, no runtimes), cut by default to the runtime picked
or the closest, those the mode rule rejects and a line counting the rest;
--all, every runtime; --why, one runtime's full trace alone."""

from __future__ import annotations

import pytest
import yaml
from conftest import (
    EXAMPLES,
    format_entry,
    isvc_doc,
    llama_model_spec,
    mode_annotation,
    model_doc,
    run_cli,
    runtime_doc,
    write,
)

PAGE_REASON = (
    "runtime engine deployment mode MultiNode does not match requested engine deployment "
    "mode OMENative"
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
    run = run_cli("explain", "--model", "team-a/llama-3-2-3b-instruct", team_a(tmp_path), "--all")
    assert (run.code, run.err) == (0, "")
    rows = table_rows(run.out)
    assert rows[0] == ["RUNTIME", "SCOPE", "COMPATIBLE", "PRIORITY", "WEIGHT", "REASON"]
    assert rows[1:] == EXPECTED_ROWS


def test_by_default_the_runtime_picked_and_the_rest_counted(tmp_path):
    run = run_cli("explain", "--model", "team-a/llama-3-2-3b-instruct", team_a(tmp_path))
    assert (run.code, run.err) == (0, "")
    assert run.out.splitlines() == [
        "Picked: team-llama (ServingRuntime, Namespaced), the first of the 2 that qualify",
        "RUNTIME     SCOPE       COMPATIBLE    PRIORITY    WEIGHT    REASON",
        "team-llama  Namespaced  Yes           1           2         -",
        "4 more runtimes not shown: 1 qualifies but ranks lower; 3 fail a check (disabled 1, "
        "model-size 1, auto-select 1). --all lists every runtime, --why NAME traces one.",
    ]


def test_isvc_table_and_the_note_when_it_names_a_runtime(tmp_path):
    path = team_a(tmp_path, named=True)
    run = run_cli("explain", "--isvc", "team-a/llama-chat", path, "--all")
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
    assert run_cli("explain", "--model", "m", str(path), "--all") == run


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


def test_why_prints_that_runtimes_trace_alone(tmp_path):
    """Every check in order with what it read, the mode check's sources on each
    side, and nothing else: no table."""
    run = run_cli(
        "explain",
        "--isvc",
        str(EXAMPLES / "inference-service.yaml"),
        str(EXAMPLES),
        "--why",
        "srt-llama-3-3-70b-instruct-multinode",
    )
    assert (run.code, run.err) == (0, "")
    not_reached = "not reached (an earlier check failed)"
    assert run.out.splitlines() == [
        "srt-llama-3-3-70b-instruct-multinode (ClusterServingRuntime, Cluster): No",
        "1. disabled: passes",
        "     spec.disabled: (not set)",
        "2. accelerator-class: passes",
        "     spec.acceleratorRequirements.acceleratorClasses: (not set)",
        "3. deployment-mode: fails",
        f"     {PAGE_REASON}",
        "     engine: Rejected: the runtime declares a different mode",
        "       InferenceService's engine mode: OMENative "
        "from the InferenceService's spec.deploymentMode",
        "       Runtime's `engineConfig` mode: MultiNode "
        "from the runtime's spec.engineConfig annotation ome.io/deploymentMode",
        "         passed over spec.engineConfig.leader or spec.engineConfig.worker: "
        "leader: does not count for matching",
        f"4. model-format: passes; {not_reached}",
        "     model: mt:safetensors:1.0.0:LlamaForCausalLM:transformers:4.47.0.dev0",
        "     spec.supportedModelFormats[0]: matches",
        f"5. model-size: passes; {not_reached}",
        "     spec.modelParameterSize: 70.6B",
        "     spec.modelSizeRange: [60B, 75B]",
        f"6. auto-select: passes; {not_reached}",
        "     spec.supportedModelFormats[].autoSelect=true: [0]",
        f"7. score: passes; {not_reached}",
        "     score: 4",
    ]
    assert "--all" in run_cli("explain", "--isvc", "x", "--all", "--why", "y").err


def test_the_page_example_shows_the_closest_and_the_mode_rejection():
    """None qualifies: the runtime that came closest (the last check), and the one
    the mode rule rejects, which is every runtime here."""
    run = run_cli("explain", "--isvc", str(EXAMPLES / "inference-service.yaml"), str(EXAMPLES))
    assert (run.code, run.err) == (0, "")
    assert run.out.splitlines() == [
        "None of the 2 runtimes checked qualifies; below, the closest (furthest through the "
        "checks)",
        "RUNTIME                               SCOPE    COMPATIBLE    PRIORITY    WEIGHT    REASON",
        f"srt-llama-3-3-70b-instruct            Cluster  No            -           -         "
        f"{NO_AUTO_SELECT}",
        f"srt-llama-3-3-70b-instruct-multinode  Cluster  No            -           -         "
        f"{PAGE_REASON}",
    ]


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


def _closest_cluster(tmp_path, near: int):
    """An InferenceService asking OMENative of a llama model; `near` runtimes whose
    entry differs from it in one way (the architecture), two in two ways, and one
    the mode rule rejects."""
    docs = [
        isvc_doc("chat", "team-a", engine=mode_annotation("OMENative")),
        model_doc("m", **llama_model_spec()),
        runtime_doc(
            "far-a",
            supportedModelFormats=[
                format_entry(modelArchitecture="X", modelFormat={"name": "onnx"})
            ],
        ),
        runtime_doc(
            "far-b",
            supportedModelFormats=[
                format_entry(modelArchitecture="X", modelFormat={"name": "onnx"})
            ],
        ),
        runtime_doc(
            "multi",
            supportedModelFormats=[format_entry()],
            engineConfig=mode_annotation("MultiNode"),
        ),
    ]
    docs += [
        runtime_doc(f"near-{n}", supportedModelFormats=[format_entry(modelArchitecture="X")])
        for n in range(near)
    ]
    return str(write(tmp_path, "c.yaml", yaml.safe_dump_all(docs, sort_keys=False)))


def test_the_closest_differ_from_the_model_in_fewest_ways(tmp_path):
    run = run_cli("explain", "--isvc", "team-a/chat", _closest_cluster(tmp_path, 1))
    assert (run.code, run.err) == (0, "")
    [first, header, near, multi, rest] = run.out.splitlines()
    assert first == (
        "None of the 4 runtimes checked qualifies; below, the closest (furthest through the checks)"
    )
    assert table_rows(header) == [
        ["RUNTIME", "SCOPE", "COMPATIBLE", "PRIORITY", "WEIGHT", "REASON"]
    ]
    assert table_rows(near)[0][:3] == ["near-0", "Cluster", "No"]
    assert table_rows(multi)[0][:3] == ["multi", "Cluster", "No"]
    assert table_rows(multi)[0][5].startswith("runtime engine deployment mode MultiNode")
    assert rest == (
        "2 more runtimes not shown: 2 fail a check (model-format 2). "
        "--all lists every runtime, --why NAME traces one."
    )


def test_at_most_three_of_the_closest(tmp_path):
    run = run_cli("explain", "--isvc", "team-a/chat", _closest_cluster(tmp_path, 5))
    lines = run.out.splitlines()
    assert lines[0] == (
        "None of the 8 runtimes checked qualifies; below, 3 of the 5 closest "
        "(furthest through the checks)"
    )
    assert [table_rows(line)[0][0] for line in lines[2:-1]] == [
        "near-0",
        "near-1",
        "near-2",
        "multi",
    ]
    assert lines[-1] == (
        "4 more runtimes not shown: 4 fail a check (model-format 4). "
        "--all lists every runtime, --why NAME traces one."
    )
    every = run_cli("explain", "--isvc", "team-a/chat", _closest_cluster(tmp_path, 5), "--all")
    assert len(every.out.splitlines()) == 9


CATALOG_ISVCS = (
    "phi-2-test/phi-2-test",  # the model has no format yet: every runtime fails it
    "qwen2-5-72b-instruct/qwen2-5-72b-instruct",  # three qualify
    "hermes-2-pro-llama-3-8b/hermes-2-pro-llama-3-8b",  # the closest fail auto-select
    "xgen-7b-8k-inst/xgen-7b-8k-inst",  # one runtime differs least
    "deepseek-r1/deepseek-r1",
)


@pytest.mark.parametrize("isvc", CATALOG_ISVCS)
def test_a_catalog_inference_service_fits_one_screen(catalog, catalog_read_once, isvc):
    """All of it, standard error included, in at most 40 lines (of 203 runtimes)."""
    run = run_cli("explain", "--isvc", isvc, str(catalog))
    assert run.code == 0, run.err
    assert len((run.err + run.out).splitlines()) <= 40
    every = run_cli("explain", "--isvc", isvc, str(catalog), "--all")
    assert len(every.out.splitlines()) == 204
    # The line counting the rest adds up to what --all lists.
    shown = len(run.out.splitlines()) - 3
    hidden = int(run.out.splitlines()[-1].split()[0])
    assert shown + hidden == 203


def test_why_on_the_catalog_is_that_runtimes_trace_alone(catalog, catalog_read_once):
    run = run_cli("explain", "--isvc", "phi-2-test/phi-2-test", str(catalog), "--why", "srt-phi-2")
    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[0] == "srt-phi-2 (ClusterServingRuntime, Cluster): No"
    assert [line.split(":")[0] for line in lines if line[:1].isdigit()] == [
        "1. disabled",
        "2. accelerator-class",
        "3. deployment-mode",
        "4. model-format",
        "5. model-size",
        "6. auto-select",
        "7. score",
    ]
    assert not any(line.startswith("RUNTIME") for line in lines)
    assert len(lines) == 22  # with the whole table first, 227 lines were printed


def test_match_explain_on_the_catalog(catalog, catalog_read_once):
    """The runtime named, the one other runtimes' count, and the InferenceService's
    side said once (it took 1,426 lines)."""
    run = run_cli("match", "--isvc", "phi-2-test/phi-2-test", str(catalog), "--explain")
    assert run.code == 0
    assert run.out.splitlines() == [
        "InferenceService phi-2-test/phi-2-test asks: engine none",
        "RUNTIME            SCOPE    RESULT    RULE    REASON",
        "srt-phi-2 (named)  Cluster  Passes    -       -",
        "202 more runtimes pass the mode rule; --all lists every runtime.",
        "",
        "InferenceService phi-2-test/phi-2-test:",
        "  engine: none",
        "    passed over metadata.annotations[ome.io/deploymentMode]: RawDeployment: "
        "does not count for matching",
        "",
        "srt-phi-2 (ClusterServingRuntime):",
        "  engine: Passes: the InferenceService asks for no mode",
        "    runtime: none",
    ]
    every = run_cli("match", "--isvc", "phi-2-test/phi-2-test", str(catalog), "--explain", "--all")
    assert every.out.count("passed over metadata.annotations") == 1
    assert every.out.count(" (ClusterServingRuntime):") == 203


def test_why_states_an_ordering_operators_comparison_beside_omes_text(tmp_path):
    """OME compares the entry's version (left) with the model's: an entry at
    4.33.1 with GreaterThanOrEqual accepts models up to 4.33.1. Beside OME's
    `framework version mismatch`, the trace says the comparison OME made."""
    entry = format_entry(
        modelFramework={
            "name": "transformers",
            "version": "4.33.1",
            "operator": "GreaterThanOrEqual",
        },
        modelFormat={"name": "safetensors", "version": "1.0.0", "operator": "GreaterThan"},
    )
    docs = [
        isvc_doc(runtime={"name": "rt"}),
        model_doc(**llama_model_spec(modelFramework={"name": "transformers", "version": "4.46.0"})),
        runtime_doc(supportedModelFormats=[entry]),
    ]
    path = write(tmp_path, "all.yaml", yaml.safe_dump_all(docs, sort_keys=False))
    run = run_cli("explain", "--isvc", "ns/svc", str(path), "--why", "rt")
    assert (run.code, run.err) == (
        0,
        "Note: spec.runtime is explicit; automatic selection below is hypothetical.\n",
    )
    words = "is false: OME compares the runtime's version to the model's"
    assert run.out.splitlines() == [
        "rt (ClusterServingRuntime, Cluster): No",
        "1. disabled: passes",
        "     spec.disabled: (not set)",
        "2. accelerator-class: passes",
        "     spec.acceleratorRequirements.acceleratorClasses: (not set)",
        "3. deployment-mode: passes",
        "     engine: Passes: the InferenceService asks for no mode",
        "       InferenceService's engine mode: none",
        "       Runtime's `engineConfig` mode: none",
        "4. model-format: fails",
        "     model format 'mt:safetensors:1.0.0:LlamaForCausalLM:transformers:4.46.0' not in "
        "supported formats: format version mismatch (model=1.0.0, runtime=1.0.0), framework "
        "version mismatch (model=4.46.0, runtime=4.33.1)",
        "     model: mt:safetensors:1.0.0:LlamaForCausalLM:transformers:4.46.0",
        "     spec.supportedModelFormats[0]: format version mismatch (model=1.0.0, "
        "runtime=1.0.0); framework version mismatch (model=4.46.0, runtime=4.33.1)",
        f"       1.0.0 > 1.0.0 {words}",
        f"       4.33.1 >= 4.46.0 {words}",
        "5. model-size: passes; not reached (an earlier check failed)",
        "     spec.modelParameterSize: 3.21B",
        "     spec.modelSizeRange: (not set)",
        "6. auto-select: passes; not reached (an earlier check failed)",
        "     spec.supportedModelFormats[].autoSelect=true: [0]",
        "7. score: fails; not reached (an earlier check failed)",
        "     auto-select score is 0",
        "     score: 0",
    ]
    # JSON carries the same sentences beside OME's text, on the entry they concern.
    data = run_cli("explain", "--isvc", "ns/svc", str(path), "--why", "rt", "-o", "json").json()
    model_format = next(c for c in data["why"]["checks"] if c["check"] == "model-format")
    assert model_format["inputs"] == [
        {"what": "model", "value": "mt:safetensors:1.0.0:LlamaForCausalLM:transformers:4.46.0"},
        {
            "what": "spec.supportedModelFormats[0]",
            "value": "format version mismatch (model=1.0.0, runtime=1.0.0); "
            "framework version mismatch (model=4.46.0, runtime=4.33.1)",
            "comparisons": [f"1.0.0 > 1.0.0 {words}", f"4.33.1 >= 4.46.0 {words}"],
        },
    ]
