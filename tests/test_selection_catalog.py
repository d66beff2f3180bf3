"""Selection over the real catalog (../shared/ome-catalog, read once: tests/corpus.py):
every sample InferenceService gets a verdict, and a handful of verdicts reasoned
out by hand are pinned (the reasoning is in each test's docstring)."""

from __future__ import annotations

import json

import pytest
from conftest import CATALOG
from corpus import catalog, rules
from test_fleet_evaluator import assert_memo_agrees

from modetable.selection import select
from modetable.views.converter import unstructure
from modetable.views.select import OutcomeView

WEBHOOK = 'admission webhook "inferenceservice.ome-webhook-server.validator" denied the request: '


@pytest.fixture(scope="module")
def clusters():
    return {version: catalog(version) for version in rules().versions}


def outcome(clusters, ref, version="v1.3"):
    ome = clusters[version]
    return select(ome.policy, ome.cluster, ome.cluster.find_isvc(ref))


# The version whose every-step outcomes the fleet's evaluator is compared with.
REFERENCE = "v1.3"


@pytest.mark.slow
def test_every_sample_gets_a_verdict_in_every_version(clusters):
    """In the reference version, the outcomes with every step run (the test
    below compares the fleet's evaluator with them); in the others, the fleet's
    evaluator's, which give the same for a tenth of the work."""
    assert REFERENCE in clusters
    for version, ome in clusters.items():
        cluster = ome.cluster
        assert len(cluster.isvcs) > 100
        outcomes = ome.outcomes if version == REFERENCE else ome.memoised_outcomes
        for isvc in cluster.isvcs:
            result = outcomes[isvc.ref]
            data = json.loads(json.dumps(unstructure(OutcomeView.of(result))))
            # A verdict: a runtime is used, or there is a message saying why not.
            assert (data["runtime"] is None) == (data["message"] is not None), (version, isvc.ref)
            # Selection ran over every runtime whenever the model was found.
            expected = len(cluster.runtimes) if result.model is not None else 0
            assert len(data["candidates"]) == expected, (version, isvc.ref)


@pytest.mark.slow
def test_the_fleet_evaluator_agrees_on_the_catalog(clusters):
    """The fleet's evaluator (tests/test_fleet_evaluator.py) against the outcomes
    of every step run that the test above made: here, so that they are made
    once whichever worker runs which module."""
    ome = clusters[REFERENCE]
    assert len(assert_memo_agrees(ome.policy, ome.cluster, ome.outcomes)) == len(ome.cluster.isvcs)


def test_qwen2_5_72b_goes_to_the_deepseek_distill_runtime(clusters):
    """The model (safetensors 1.0.0, Qwen2ForCausalLM, transformers 4.43.1, 72B)
    matches three autoSelect runtimes, each scoring (1 + 1) x 1 = 2. Two of them,
    the DeepSeek-R1 distills of Qwen 14B and 32B, set no modelSizeRange: distance
    0, ahead of srt-qwen2-5-72b-instruct's 70B-75B (distance 5B). Then by name."""
    result = outcome(clusters, "qwen2-5-72b-instruct/qwen2-5-72b-instruct")
    assert result.result == "picked"
    assert result.runtime.name == "srt-deepseek-r1-distill-qwen-14b"
    qualifying = [(c.name, c.score, c.distance) for c in result.candidates if c.compatible]
    assert qualifying == [
        ("srt-deepseek-r1-distill-qwen-14b", 2, 0),
        ("srt-deepseek-r1-distill-qwen-32b", 2, 0),
        ("srt-qwen2-5-72b-instruct", 2, 5e9),
    ]
    assert result.admission.warnings == (
        "Runtime srt-deepseek-r1-distill-qwen-14b will be auto-selected for model "
        "qwen2-5-72b-instruct",
    )


def test_gpt_oss_20b_goes_to_a_120b_runtime_by_name_until_its_size_is_filled_in(clusters):
    """gpt-oss-20b sets no modelParameterSize, so until OME's model agent fills
    it in every range passes and the distance does not count: three runtimes tie
    at 2, and by name srt-gpt-oss-120b-grpc ('1' < '2') comes before
    srt-gpt-oss-20b, which the webhook announces. Once the size is filled in,
    the size check decides among the same three: the outcome is pending."""
    result = outcome(clusters, "openai-test/gpt-oss-20b")
    compatible = ["srt-gpt-oss-120b-grpc", "srt-gpt-oss-20b", "srt-gpt-oss-20b-grpc"]
    assert (result.result, result.runtime) == ("pending", None)
    assert [c.name for c in result.candidates if c.compatible] == compatible
    assert result.message == (
        "the runtime is picked once OME's model agent has filled in the model; "
        "these pass every check decided now: " + ", ".join(compatible)
    )
    assert result.pending.fields == ("modelParameterSize",)
    assert result.pending.answer == (
        "Runtime srt-gpt-oss-120b-grpc will be auto-selected for model gpt-oss-20b"
    )


def test_qwen2_5_14b_model_has_no_format_yet(clusters):
    """The catalog's ClusterBaseModel qwen2-5-14b-instruct carries no modelFormat (OME
    fills it in once it reads the files); the InferenceService names no runtime
    and has an engine with no image of its own, so until then the webhook
    rejects with SelectRuntime's error, wrapped as every error of it is: that
    is the pending model's answer, and the outcome is pending."""
    result = outcome(clusters, "qwen2-5-14b-instruct/qwen2-5-14b-instruct")
    text = "invalid model specification: modelFormat.name: model format name is required"
    assert (result.result, result.runtime) == ("pending", None)
    assert result.pending.fields == (
        "modelFormat",
        "modelFramework",
        "modelArchitecture",
        "modelParameterSize",
    )
    assert result.pending.answer == (
        WEBHOOK
        + "no supporting runtime found for model qwen2-5-14b-instruct and engine does not "
        + "have complete runner configuration: "
        + text
    )
    assert "srt-qwen2-5-14b-instruct" in [c.name for c in result.candidates if c.compatible]


def test_exaone_sample_is_refused_for_its_unknown_fields(clusters):
    """Its spec.model holds modelName and runtime, and spec a deployment, fields
    OME's CRD does not have: under kubectl's default (Strict) the API server
    refuses it for them, before it validates (spec.model has no name either)."""
    result = outcome(clusters, "default/exaone-3-5-7-8b-instruct")
    assert result.admission.denied_by == "crd-schema"
    assert result.admission.message == (
        f'Error from server (BadRequest): error when creating "{CATALOG / EXAONE}": '
        'InferenceService in version "v1beta1" cannot be handled as a InferenceService: '
        'strict decoding error: unknown field "spec.deployment", unknown field '
        '"spec.model.modelName", unknown field "spec.model.runtime"'
    )


def test_glm_sample_is_refused_for_its_unknown_fields(clusters):
    """It uses spec.modelRef, spec.minReplicas, spec.maxReplicas and
    spec.scaleTarget, which OME's CRD does not have."""
    result = outcome(clusters, "zai-org-test/glm-4-5v-test")
    assert result.admission.message == (
        f'Error from server (BadRequest): error when creating "{CATALOG / GLM}": '
        'InferenceService in version "v1beta1" cannot be handled as a InferenceService: '
        'strict decoding error: unknown field "spec.maxReplicas", unknown field '
        '"spec.minReplicas", unknown field "spec.modelRef", unknown field "spec.scaleTarget"'
    )


EXAONE = "inferenceservices/LGAI-EXAONE/exaone-3-5-7-8b-instruct-isvc.yaml"
GLM = "inferenceservices/zai-org/glm-4-5v.yaml"


def test_llama_90b_fp8_dynamic_model_is_not_in_the_catalog(clusters):
    result = outcome(clusters, "llama-3-2-90b-fp8-dynamic/llama-3-2-90b-fp8-dynamic")
    assert result.message == (
        'referenced model "llama-3-2-90b-fp8-dynamic" not found in namespace '
        '"llama-3-2-90b-fp8-dynamic": ensure a BaseModel exists in this namespace or a '
        "ClusterBaseModel exists cluster-wide with this name"
    )


def test_bge_names_its_runtime_before_the_model_has_a_format(clusters):
    """Since v1.3 OME checks the model before it looks the named runtime up: one
    with no format yet is refused by the webhook (the pending model's answer).
    Once OME's model agent has filled it in, the runtime named is used, its
    model checks pending until then. v1.2.2's webhook says nothing."""
    result = outcome(clusters, "bge-large-en-v1-5/bge-large-en-v1-5")
    invalid = "invalid model specification: modelFormat.name: model format name is required"
    assert (result.result, result.runtime.name) == ("named", "srt-bge-large-en-v1-5")
    assert result.admission.allowed is True
    assert result.pending.answer == (
        WEBHOOK
        + "runtime srt-bge-large-en-v1-5 does not support model bge-large-en-v1-5: "
        + invalid
    )
    assert result.events == ()
    skipped = {c.check: c.skip_note for c in result.named_check.checks if c.skip_note}
    assert skipped["model-format"] == (
        "pending (modelFormat, modelFramework, modelArchitecture not filled in yet)"
    )
    old = outcome(clusters, "bge-large-en-v1-5/bge-large-en-v1-5", "v1.2.2")
    assert (old.runtime.name, old.named, old.result) == ("srt-bge-large-en-v1-5", True, "named")
    assert old.pending.answer is None
    assert old.events == ()


def test_llama_4_scout_metadata_annotation_counts_in_neither_version(clusters):
    """Its metadata.annotations set RawDeployment: only VirtualDeployment counts
    there, so the Default decides, in v1.3 and in v1.2.2 alike."""
    for version in ("v1.3", "v1.2.2"):
        found = outcome(
            clusters, "llama-4-scout-17b-16e-instruct/llama-4-scout-17b-16e-instruct", version
        )
        assert {n: (r.mode, r.source_label) for n, r in found.components.items()} == {
            "engine": ("RawDeployment", "Default"),
            "router": ("RawDeployment", "Default"),
        }, version
