"""The scenarios of OME's docs pages around the matching page, run end to end
on the real catalog runtimes where the page uses them: troubleshooting,
accelerator classes, model versions, size ranges, `kubectl ome runtime explain`."""

from __future__ import annotations

from pathlib import Path

import yaml
from conftest import (
    CATALOG,
    EXAMPLES,
    format_entry,
    llama_model_spec,
    model_doc,
    need,
    run_cli,
    runtime_doc,
    write,
)

WEBHOOK = 'admission webhook "inferenceservice.ome-webhook-server.validator" denied the request: '


def catalog_runtime(path: str) -> str:
    return str(need(CATALOG / "runtimes" / "srt" / path))


def dump(tmp_path, name, *docs):
    return str(write(tmp_path, name, yaml.safe_dump_all(docs, sort_keys=False)))


# --- troubleshoot-runtime-selection.md ---------------------------------------

MISTRAL_REASON = (
    "model format 'mt:safetensors:1.0.0:Qwen2ForCausalLM:transformers:4.40.1' not in "
    "supported formats: architecture mismatch (model=Qwen2ForCausalLM, "
    "runtime=MistralForCausalLM), framework version mismatch (model=4.40.1, runtime=4.36.0)"
)
QWEN_MESSAGE = (
    "no runtime found to support model safetensors with format safetensors in namespace demo. "
    "Checked 2 runtimes (0 namespace-scoped, 2 cluster-scoped). Excluded runtimes: "
    "srt-mistral-7b-instruct (model format "
    "'mt:safetensors:1.0.0:Qwen2ForCausalLM:transformers:4.40.1' not in supported formats: "
    "architecture mismatch (model=Qwen2ForCausalLM, runtime=MistralForCausalLM), "
    "framework version mismatch (model=4.40.1, runtime=4.36.0))"
)


def troubleshoot_inputs(tmp_path):
    """qwen2-5-7b as OME has filled it in once Ready, its InferenceService in
    `demo`, and the two catalog runtimes the page uses."""
    model = model_doc(
        "qwen2-5-7b",
        modelFormat={"name": "safetensors", "version": "1.0.0"},
        modelArchitecture="Qwen2ForCausalLM",
        modelFramework={"name": "transformers", "version": "4.40.1"},
    )
    model["status"] = {"state": "Ready"}  # no modelParameterSize: the page shows none
    isvc = {
        "apiVersion": "ome.io/v1beta1",
        "kind": "InferenceService",
        "metadata": {"name": "qwen2-5-7b", "namespace": "demo"},
        "spec": {"model": {"name": "qwen2-5-7b"}, "engine": {"minReplicas": 1}},
    }
    return [
        dump(tmp_path, "isvc.yaml", isvc),
        dump(tmp_path, "model.yaml", model),
        catalog_runtime("mistral-7b-instruct-rt.yaml"),
        catalog_runtime("Qwen/qwen2-5-7b-rt.yaml"),
    ]


def test_troubleshoot_the_message_the_condition_and_the_event(tmp_path):
    isvc, *rest = troubleshoot_inputs(tmp_path)
    run = run_cli("select", "--isvc", isvc, *rest, "-o", "json")
    assert run.code == 1, run.err
    data = run.json()
    assert data["message"] == QWEN_MESSAGE
    assert data["admission"]["message"] == (
        WEBHOOK + "no supporting runtime found for model qwen2-5-7b and engine does not have "
        "complete runner configuration: " + QWEN_MESSAGE
    )
    assert data["conditions"] == [
        {
            "type": "RuntimeReady",
            "status": "False",
            "reason": "RuntimeNotFound",
            "message": QWEN_MESSAGE,
            "severity": "Info",
            "outcome": "none",
        }
    ]
    assert data["events"] == [
        {"type": "Warning", "reason": "RuntimeNotFound", "message": QWEN_MESSAGE, "outcome": "none"}
    ]


def test_troubleshoot_on_v122_the_event_starts_with_failed_to_find(tmp_path):
    isvc, *rest = troubleshoot_inputs(tmp_path)
    data = run_cli("--ome-version", "v1.2.2", "select", "--isvc", isvc, *rest, "-o", "json").json()
    assert data["events"] == [
        {
            "type": "Warning",
            "reason": "RuntimeSelectionError",
            "message": "Failed to find runtime for model qwen2-5-7b: " + QWEN_MESSAGE,
            "outcome": "none",
        }
    ]
    assert data["conditions"] == []


def test_troubleshoot_explain_gives_the_reason_the_message_leaves_out(tmp_path):
    _isvc, *rest = troubleshoot_inputs(tmp_path)
    data = run_cli("explain", "--model", "demo/qwen2-5-7b", *rest, "-o", "json").json()
    rows = [(r["name"], r["scope"], r["compatible"], r["reason"]) for r in data["runtimes"]]
    assert rows == [
        ("srt-mistral-7b-instruct", "Cluster", False, MISTRAL_REASON),
        (
            "srt-qwen2-5-7b",
            "Cluster",
            False,
            "supports the model but has no supportedModelFormats[].autoSelect=true entry, so "
            "automatic selection skips it (pin it explicitly via spec.runtime.name instead)",
        ),
    ]


def test_troubleshoot_step_5_after_setting_auto_select(tmp_path):
    isvc, model, mistral, qwen = troubleshoot_inputs(tmp_path)
    patched = yaml.safe_load(Path(qwen).read_text())
    patched["spec"]["supportedModelFormats"][0]["autoSelect"] = True
    run = run_cli("select", "--isvc", isvc, model, mistral, dump(tmp_path, "qwen.yaml", patched))
    assert run.code == 0, run.err
    assert "Warning: Runtime srt-qwen2-5-7b will be auto-selected for model qwen2-5-7b" in (
        run.out.splitlines()
    )


def test_troubleshoot_naming_the_runtime_instead(tmp_path):
    isvc, *rest = troubleshoot_inputs(tmp_path)
    named = yaml.safe_load(Path(isvc).read_text())
    named["spec"]["runtime"] = {"name": "srt-qwen2-5-7b"}
    data = run_cli(
        "select", "--isvc", dump(tmp_path, "named.yaml", named), *rest, "-o", "json"
    ).json()
    assert (data["runtime"]["name"], data["named"], data["events"]) == ("srt-qwen2-5-7b", True, [])


# --- runtime-accelerator-class-matching.md ----------------------------------


def hopper(tmp_path, accelerator, runtime_name=None):
    runtime = runtime_doc(
        "llama-3-3-70b-hopper",
        supportedModelFormats=[
            format_entry(modelFramework={"name": "transformers", "version": "4.47.0.dev0"})
        ],
        modelSizeRange={"min": "60B", "max": "75B"},
        acceleratorRequirements={"acceleratorClasses": ["nvidia-h100", "nvidia-h200"]},
    )
    spec = {
        "model": {"name": "llama-3-3-70b-instruct"},
        "acceleratorSelector": {"acceleratorClass": accelerator},
        "engine": {"minReplicas": 1, "maxReplicas": 1},
    }
    if runtime_name:
        spec["runtime"] = {"name": runtime_name}
    isvc = {
        "apiVersion": "ome.io/v1beta1",
        "kind": "InferenceService",
        "metadata": {"name": "llama-3-3-70b", "namespace": "llama-demo"},
        "spec": spec,
    }
    files = [dump(tmp_path, "isvc.yaml", isvc), dump(tmp_path, "rt.yaml", runtime)]
    return run_cli(
        "select",
        "--isvc",
        files[0],
        files[1],
        str(EXAMPLES / "model.yaml"),
        *([catalog_runtime("meta/llama-3-3-70b-instruct-rt.yaml")] if runtime_name else []),
        "-o",
        "json",
    )


def test_accelerator_page_the_class_picks_the_hopper_runtime(tmp_path):
    data = hopper(tmp_path, "nvidia-h100").json()
    assert data["admission"]["warnings"] == [
        "Runtime llama-3-3-70b-hopper will be auto-selected for model llama-3-3-70b-instruct"
    ]


def test_accelerator_page_a100_finds_no_runtime(tmp_path):
    data = hopper(tmp_path, "nvidia-a100").json()
    assert data["message"] == (
        "no runtime found to support model safetensors with format safetensors in namespace "
        "llama-demo. Checked 1 runtimes (0 namespace-scoped, 1 cluster-scoped). Excluded "
        "runtimes: llama-3-3-70b-hopper (runtime does not support the required accelerator class)"
    )


def test_accelerator_page_naming_a_catalog_runtime_without_classes(tmp_path):
    data = hopper(tmp_path, "nvidia-h100", "srt-llama-3-3-70b-instruct").json()
    assert data["admission"]["warnings"] == [
        'runtime "srt-llama-3-3-70b-instruct" does not declare support for model '
        '"llama-3-3-70b-instruct" (runtime srt-llama-3-3-70b-instruct does not support model : '
        "runtime does not support the required accelerator class); proceeding because the "
        "runtime was named explicitly"
    ]


# --- model-version-matching.md and model-size-range-matching.md ----------------


def llama_3b(tmp_path, **overrides):
    model = model_doc(
        "llama-3-2-3b-instruct",
        kind="BaseModel",
        namespace="llama-demo",
        **llama_model_spec(**overrides),
    )
    return dump(tmp_path, "model.yaml", model)


def test_version_page_framework_4_46_against_the_catalog_3b_runtime(tmp_path):
    model = llama_3b(tmp_path, modelFramework={"name": "transformers", "version": "4.46.0"})
    data = run_cli(
        "explain",
        "--model",
        "llama-demo/llama-3-2-3b-instruct",
        model,
        catalog_runtime("meta/llama-3-2-3b-instruct-rt.yaml"),
        "-o",
        "json",
    ).json()
    assert data["runtimes"][0]["reason"] == (
        "model format 'mt:safetensors:1.0.0:LlamaForCausalLM:transformers:4.46.0' not in "
        "supported formats: framework version mismatch (model=4.46.0, runtime=4.45.0.dev0)"
    )


def test_size_page_the_catalog_1b_runtime_against_a_3_21b_model(tmp_path):
    data = run_cli(
        "explain",
        "--model",
        "llama-demo/llama-3-2-3b-instruct",
        llama_3b(tmp_path),
        catalog_runtime("meta/llama-3-2-1b-instruct-rt.yaml"),
        catalog_runtime("meta/llama-3-2-3b-instruct-rt.yaml"),
        "-o",
        "json",
    ).json()
    reasons = {r["name"]: r["reason"] for r in data["runtimes"]}
    assert reasons["srt-llama-3-2-1b-instruct"] == (
        "model size 3.21B is outside supported range [500M, 2B]"
    )
    # Both catalog runtimes set autoSelect: false.
    assert reasons["srt-llama-3-2-3b-instruct"].startswith("supports the model but has no")
