"""The checks on each runtime, their order, their reasons (verbatim), the score
and the ranking: selection-facts sections 3 to 7."""

from __future__ import annotations

import pytest
from conftest import (
    cluster_of,
    format_entry,
    isvc_doc,
    llama_model_spec,
    mode_annotation,
    model_doc,
    runtime_doc,
)

from modetable.selection import select

MODE_REASON = (
    "runtime engine deployment mode MultiNode does not match "
    "requested engine deployment mode OMENative"
)
LABEL = "mt:safetensors:1.0.0:LlamaForCausalLM:transformers:4.45.0.dev0"


def outcome(policy, *runtimes, isvc=None, model=None):
    isvc = isvc or isvc_doc(model={"name": "m"}, engine={})
    model = model or model_doc(**llama_model_spec())
    cluster = cluster_of(policy, isvc, model, *runtimes)
    return select(policy, cluster, cluster.isvcs[0])


def reason(policy, runtime, **kwargs):
    found = outcome(policy, runtime, **kwargs).candidates
    assert len(found) == 1
    return found[0].reason


def runtime(**spec):
    spec.setdefault("supportedModelFormats", [format_entry()])
    return runtime_doc(**spec)


# --- section 3: each check's reason, verbatim --------------------------------


def test_disabled(v13):
    assert reason(v13, runtime(disabled=True)) == "runtime is disabled"


def test_accelerator_class(v13):
    isvc = isvc_doc(model={"name": "m"}, engine={}, acceleratorSelector={"acceleratorClass": "a"})
    assert reason(v13, runtime(), isvc=isvc) == (
        "runtime does not support the required accelerator class"
    )


def test_deployment_mode_engine(v13):
    isvc = isvc_doc(model={"name": "m"}, engine=mode_annotation("OMENative"))
    rt = runtime(engineConfig=mode_annotation("MultiNode"))
    assert reason(v13, rt, isvc=isvc) == MODE_REASON


def test_deployment_mode_decoder(v13):
    isvc = isvc_doc(model={"name": "m"}, engine={}, decoder=mode_annotation("RawDeployment"))
    rt = runtime(decoderConfig=mode_annotation("OMENative"))
    assert reason(v13, rt, isvc=isvc) == (
        "runtime decoder deployment mode OMENative does not match "
        "requested decoder deployment mode RawDeployment"
    )


def test_model_format(v13):
    rt = runtime(supportedModelFormats=[format_entry(modelArchitecture="MistralForCausalLM")])
    assert reason(v13, rt) == (
        f"model format '{LABEL}' not in supported formats: "
        "architecture mismatch (model=LlamaForCausalLM, runtime=MistralForCausalLM)"
    )


def test_model_size(v13):
    rt = runtime(modelSizeRange={"min": "500M", "max": "2B"})
    assert reason(v13, rt) == "model size 3.21B is outside supported range [500M, 2B]"


def test_no_auto_select_entry(v13):
    rt = runtime(supportedModelFormats=[format_entry(autoSelect=None)])
    assert reason(v13, rt) == (
        "supports the model but has no supportedModelFormats[].autoSelect=true entry, "
        "so automatic selection skips it (pin it explicitly via spec.runtime.name instead)"
    )


def test_matching_entry_not_auto_select(v13):
    """The entry that matches sets false; an entry for another framework sets true."""
    other = format_entry(modelFramework={"name": "vllm", "version": "0.6.0"})
    rt = runtime(supportedModelFormats=[format_entry(autoSelect=False), other])
    assert reason(v13, rt) == (
        "matching format safetensors is not autoSelect-enabled (a different "
        "supportedModelFormats entry on this runtime has autoSelect=true, but not the "
        "one that matches this model)"
    )


def test_the_score_check_says_score_0_when_no_other_entry_selects(v13):
    """The only entry sets autoSelect false: the auto-select check fails first, and
    the score check (run for a full trace) must not claim another entry is true."""
    from modetable.inputs.formats import model_facts
    from modetable.selection import assess, make_context
    from modetable.selection.rules import selection_rules

    isvc = isvc_doc(model={"name": "m"}, engine={})
    model = model_doc(**llama_model_spec())
    cluster = cluster_of(
        v13, isvc, model, runtime(supportedModelFormats=[format_entry(autoSelect=False)])
    )
    facts = model_facts(selection_rules(v13), cluster.models[0])
    ctx = make_context(v13, cluster, facts, cluster.isvcs[0], "ns")
    checks = assess(ctx, cluster.runtimes[0], full=True).checks
    assert [(c.check, c.state, c.reason) for c in checks[-2:]] == [
        (
            "auto-select",
            "failed",
            "supports the model but has no supportedModelFormats[].autoSelect=true entry, "
            "so automatic selection skips it (pin it explicitly via spec.runtime.name instead)",
        ),
        ("score", "failed", "auto-select score is 0"),
    ]


def test_matching_entry_unset_with_a_negative_weight_gives_the_same_reason(v13):
    """rt.md: the matching entry leaves autoSelect unset, the cause is elsewhere."""
    matching = format_entry(
        autoSelect=None, modelFormat={"name": "safetensors", "version": "1.0.0", "weight": -5}
    )
    other = format_entry(modelFramework={"name": "vllm", "version": "0.6.0"})
    rt = runtime(supportedModelFormats=[matching, other])
    assert reason(v13, rt).startswith("matching format safetensors is not autoSelect-enabled")


def test_score_zero(v13):
    entry = format_entry(modelFormat={"name": "safetensors", "version": "1.0.0", "weight": -5})
    assert reason(v13, runtime(supportedModelFormats=[entry])) == "auto-select score is 0"


# --- the order: the first failure is the reason -------------------------------


def test_disabled_comes_first(v13):
    isvc = isvc_doc(
        model={"name": "m"},
        engine=mode_annotation("OMENative"),
        acceleratorSelector={"acceleratorClass": "a"},
    )
    rt = runtime(
        disabled=True,
        engineConfig=mode_annotation("MultiNode"),
        supportedModelFormats=[format_entry(modelArchitecture="X")],
    )
    assert reason(v13, rt, isvc=isvc) == "runtime is disabled"


def test_accelerator_class_before_mode_and_format(v13):
    isvc = isvc_doc(
        model={"name": "m"},
        engine=mode_annotation("OMENative"),
        acceleratorSelector={"acceleratorClass": "a"},
    )
    rt = runtime(
        engineConfig=mode_annotation("MultiNode"),
        supportedModelFormats=[format_entry(modelArchitecture="X")],
    )
    assert reason(v13, rt, isvc=isvc) == "runtime does not support the required accelerator class"


def test_mode_before_format_so_runtimes_for_other_models_show_it(v13):
    isvc = isvc_doc(model={"name": "m"}, engine=mode_annotation("OMENative"))
    rt = runtime(
        engineConfig=mode_annotation("MultiNode"),
        supportedModelFormats=[format_entry(modelFormat={"name": "gguf"})],
    )
    assert reason(v13, rt, isvc=isvc) == MODE_REASON


def test_format_before_size(v13):
    rt = runtime(
        modelSizeRange={"min": "500M", "max": "2B"},
        supportedModelFormats=[format_entry(modelArchitecture="X")],
    )
    assert reason(v13, rt).startswith("model format ")


# --- section 4: format matching ---------------------------------------------


def test_the_documented_label(v13):
    model = model_doc(
        modelFormat={"name": "safetensors", "version": "1.0.0"},
        modelArchitecture="Qwen2ForCausalLM",
        modelFramework={"name": "transformers", "version": "4.40.1"},
    )
    rt = runtime(supportedModelFormats=[format_entry()])
    assert reason(v13, rt, model=model).startswith(
        "model format 'mt:safetensors:1.0.0:Qwen2ForCausalLM:transformers:4.40.1' not in"
    )


def test_label_decisions_quantization_after_architecture_and_unset_parts_left_out(v13):
    model = model_doc(
        modelFormat={"name": "safetensors"},
        modelArchitecture="DeepseekV3ForCausalLM",
        quantization="fp8",
        modelFramework={"name": "transformers", "version": "4.33.1"},
    )
    rt = runtime(supportedModelFormats=[format_entry()])
    assert reason(v13, rt, model=model).startswith(
        "model format 'mt:safetensors:DeepseekV3ForCausalLM:fp8:transformers:4.33.1' not in"
    )


def entry_reason(policy, *entries, **model_overrides):
    model = model_doc(**llama_model_spec(**model_overrides))
    text = reason(policy, runtime(supportedModelFormats=list(entries)), model=model)
    prefix = "not in supported formats: "
    return text[text.index(prefix) + len(prefix) :]


@pytest.mark.parametrize(
    ("entry", "model", "expected"),
    [
        (
            {"modelFormat": {"name": "safetensors", "version": "1.0.0"}},
            {"modelFormat": {"name": "gguf", "version": "1.0.0"}},
            "format name mismatch (model=gguf, runtime=safetensors)",
        ),
        (
            {"modelFramework": {"name": "transformers", "version": "4.45.0.dev0"}},
            {"modelFramework": {"name": "diffusers", "version": "4.45.0.dev0"}},
            "framework name mismatch (model=diffusers, runtime=transformers)",
        ),
        (
            {"modelFormat": {"name": "safetensors", "version": "1.0.0"}},
            {"modelFormat": {"name": "safetensors", "version": "2.0.0"}},
            "format version mismatch (model=2.0.0, runtime=1.0.0)",
        ),
        (
            {},
            {"modelFramework": {"name": "transformers", "version": "4.46.0"}},
            "framework version mismatch (model=4.46.0, runtime=4.45.0.dev0)",
        ),
        (
            {"modelFormat": {"name": "safetensors", "version": "1.0.0"}},
            {"modelFormat": {"name": "safetensors"}},
            "model has no format version but runtime requires 1.0.0",
        ),
        (
            {},
            {"modelFramework": {"name": "transformers"}},
            "model has no framework version but runtime requires 4.45.0.dev0",
        ),
        (
            {"modelFormat": {"name": "safetensors"}},
            {},
            "model has format version but runtime has no version requirement",
        ),
        (
            {"modelFramework": {"name": "transformers"}},
            {},
            "model has framework version but runtime has no version requirement",
        ),
        (
            {},
            {"modelFramework": None},
            "model has no framework but runtime requires transformers",
        ),
        (
            {"modelArchitecture": "MistralForCausalLM"},
            {},
            "architecture mismatch (model=LlamaForCausalLM, runtime=MistralForCausalLM)",
        ),
        (
            {"modelArchitecture": None},
            {},
            "model has architecture LlamaForCausalLM but runtime has no architecture requirement",
        ),
        # Decided by the pattern of the documented architecture texts.
        (
            {},
            {"modelArchitecture": None},
            "model has no architecture but runtime requires LlamaForCausalLM",
        ),
        (
            {"quantization": "int4"},
            {"quantization": "fp8"},
            "quantization mismatch (model=fp8, runtime=int4)",
        ),
        (
            {"quantization": "fp8"},
            {},
            "model has no quantization but runtime requires fp8",
        ),
        (
            {},
            {"quantization": "fp8"},
            "model has quantization fp8 but runtime has no quantization requirement",
        ),
        # Names are case-sensitive; a malformed or empty version never matches.
        (
            {"modelFormat": {"name": "SafeTensors", "version": "1.0.0"}},
            {},
            "format name mismatch (model=safetensors, runtime=SafeTensors)",
        ),
        (
            {"modelFormat": {"name": "safetensors", "version": ""}},
            {"modelFormat": {"name": "safetensors", "version": ""}},
            "format version mismatch (model=, runtime=)",
        ),
    ],
)
def test_each_difference(v13, entry, model, expected):
    assert entry_reason(v13, format_entry(**entry), **model) == expected


def test_every_difference_of_an_entry_joined_by_comma(v13):
    entry = format_entry(
        modelArchitecture="MistralForCausalLM",
        modelFramework={"name": "transformers", "version": "4.36.0"},
    )
    assert entry_reason(v13, entry) == (
        "architecture mismatch (model=LlamaForCausalLM, runtime=MistralForCausalLM), "
        "framework version mismatch (model=4.45.0.dev0, runtime=4.36.0)"
    )


def test_one_part_per_entry_joined_by_semicolon(v13):
    first = format_entry(modelArchitecture="A")
    second = format_entry(modelFormat={"name": "gguf", "version": "1.0.0"})
    assert entry_reason(v13, first, second) == (
        "architecture mismatch (model=LlamaForCausalLM, runtime=A); "
        "format name mismatch (model=safetensors, runtime=gguf)"
    )


def test_no_entries(v13):
    assert reason(v13, runtime(supportedModelFormats=[])) == (
        f"model format '{LABEL}' not in supported formats: no supported formats defined"
    )


PIPELINE = {"className": "FluxPipeline", "vae": {"library": "diffusers", "type": "AutoencoderKL"}}


@pytest.mark.parametrize(
    ("entry_pipeline", "model_pipeline", "expected"),
    [
        (PIPELINE, None, "diffusion pipeline required by runtime but not specified in model"),
        (
            PIPELINE,
            {"vae": PIPELINE["vae"]},
            "pipeline class mismatch (model=<nil>, runtime=FluxPipeline)",
        ),
        (
            PIPELINE,
            {"className": "SDPipeline"},
            "pipeline class mismatch (model=SDPipeline, runtime=FluxPipeline)",
        ),
        (
            PIPELINE,
            {"className": "FluxPipeline"},
            "component vae required by runtime but not specified in model",
        ),
        (
            PIPELINE,
            {"className": "FluxPipeline", "vae": {"library": "other", "type": "AutoencoderKL"}},
            "vae library mismatch (model=other, runtime=diffusers)",
        ),
        (
            {"additionalComponents": {"refiner": {"library": "x"}}},
            {},
            "diffusion pipeline missing required additional components",
        ),
        (
            {"additionalComponents": {"refiner": {"library": "x"}}},
            {"additionalComponents": {"other": {"library": "x"}}},
            "diffusion component refiner missing in model",
        ),
    ],
)
def test_pipeline_names_only_its_first_mismatch(v13, entry_pipeline, model_pipeline, expected):
    entry = format_entry(diffusionPipeline=entry_pipeline)
    assert entry_reason(v13, entry, diffusionPipeline=model_pipeline) == expected


# --- section 5: size range --------------------------------------------------


@pytest.mark.parametrize(
    ("size_range", "size", "expected"),
    [
        (
            {"min": "500M", "max": "2B"},
            "3.21B",
            "model size 3.21B is outside supported range [500M, 2B]",
        ),
        (
            {"min": "2B", "max": "4b"},
            "3.21B",
            "model size 3.21B is outside supported range [2B, 4b]",
        ),
        ({"min": "70B"}, "7B", "model size 7B is outside supported range [70B, inf)"),
        ({"max": "2B"}, "7B", "model size 7B is outside supported range (-inf, 2B]"),
        ({"min": "2B", "max": "4B"}, "4B", None),
        ({"min": "1B", "max": "4B"}, "1500M", None),
        ({"min": "70B"}, "405B", None),
        ({"min": "2B", "max": "4B"}, None, None),
    ],
)
def test_size_range(v13, size_range, size, expected):
    rt = runtime(modelSizeRange=size_range)
    model = model_doc(**llama_model_spec(modelParameterSize=size))
    assert reason(v13, rt, model=model) == expected


def test_no_range_passes_every_size(v13):
    assert (
        reason(v13, runtime(), model=model_doc(**llama_model_spec(modelParameterSize="1T"))) is None
    )


def test_one_range_covers_all_entries(v13):
    entries = [format_entry(modelArchitecture="A"), format_entry()]
    rt = runtime(supportedModelFormats=entries, modelSizeRange={"min": "70B", "max": "75B"})
    assert reason(v13, rt) == "model size 3.21B is outside supported range [70B, 75B]"


def test_v122_needs_both_bounds(v122):
    rt = runtime(modelSizeRange={"min": "70B"})
    model = model_doc(**llama_model_spec(modelParameterSize="405B"))
    assert reason(v122, rt, model=model) == "model size 405B is outside supported range [70B, ]"


# --- section 6: accelerator classes -----------------------------------------

H100_H200 = {"acceleratorRequirements": {"acceleratorClasses": ["nvidia-h100", "nvidia-h200"]}}


def isvc_with_classes(engine=None, decoder=None, selector=None, annotation=None):
    spec = {"model": {"name": "m"}, "engine": {}}
    if engine:
        spec["engine"] = {"acceleratorOverride": {"acceleratorClass": engine}}
    if decoder:
        spec["decoder"] = {"acceleratorOverride": {"acceleratorClass": decoder}}
    if selector is not None:
        spec["acceleratorSelector"] = {"acceleratorClass": selector}
    doc = isvc_doc(**spec)
    if annotation is not None:
        doc["metadata"]["annotations"] = {"ome.io/accelerator-class": annotation}
    return doc


CLASS_ERROR = "runtime does not support the required accelerator class"


@pytest.mark.parametrize(
    ("isvc", "runtime_spec", "expected"),
    [
        (isvc_with_classes(), H100_H200, None),
        (isvc_with_classes(), {}, None),
        (isvc_with_classes(selector="nvidia-h100"), H100_H200, None),
        (isvc_with_classes(selector="nvidia-h100"), {}, CLASS_ERROR),
        (
            isvc_with_classes(selector="nvidia-h100"),
            {"acceleratorRequirements": {"acceleratorClasses": []}},
            CLASS_ERROR,
        ),
        (isvc_with_classes(selector="nvidia-a100"), H100_H200, CLASS_ERROR),
        (isvc_with_classes(engine="nvidia-h100", decoder="nvidia-h200"), H100_H200, None),
        (isvc_with_classes(engine="nvidia-h100", decoder="nvidia-a100"), H100_H200, CLASS_ERROR),
        # The annotation counts, matching is case-sensitive, an empty value rejects.
        (isvc_with_classes(annotation="nvidia-a100"), H100_H200, CLASS_ERROR),
        (isvc_with_classes(selector="NVIDIA-H100"), H100_H200, CLASS_ERROR),
        (isvc_with_classes(selector=""), H100_H200, CLASS_ERROR),
    ],
)
def test_accelerator_class_table(v13, isvc, runtime_spec, expected):
    assert reason(v13, runtime(**runtime_spec), isvc=isvc) == expected


def test_auto_selection_reads_the_runtimes_own_classes_not_inherited_ones(v13):
    parent = runtime_doc("parent", disabled=True, **H100_H200)
    child = runtime(annotations={"ome.io/inherit-from": "parent"})
    child["metadata"]["name"] = "child"
    isvc = isvc_with_classes(selector="nvidia-h100")
    found = {c.name: c.reason for c in outcome(v13, parent, child, isvc=isvc).candidates}
    assert found["child"] == CLASS_ERROR


# --- section 7: score, qualifying, ranking -----------------------------------


def score_of(policy, *entries):
    candidates = outcome(policy, runtime(supportedModelFormats=list(entries))).candidates
    return candidates[0].score


@pytest.mark.parametrize(
    ("format_weight", "framework_weight", "priority", "score"),
    [
        (None, None, None, 2),
        (None, None, 3, 6),
        (2, None, 2, 6),
        (0, None, 1, 11),  # a format weight of 0 counts as 10
        (None, 0, 1, 6),  # a framework weight of 0 counts as 5
        (0, 0, 2, 30),
        (-1, 3, 1, 2),  # negative weights lower the score
    ],
)
def test_score(v13, format_weight, framework_weight, priority, score):
    entry = format_entry(
        modelFormat={"name": "safetensors", "version": "1.0.0", "weight": format_weight},
        modelFramework={
            "name": "transformers",
            "version": "4.45.0.dev0",
            "weight": framework_weight,
        },
        priority=priority,
    )
    for side in ("modelFormat", "modelFramework"):
        entry[side] = {k: v for k, v in entry[side].items() if v is not None}
    assert score_of(v13, entry) == score


def test_score_is_the_best_entry_and_ignores_architecture(v13):
    low = format_entry(priority=1)
    high = format_entry(modelArchitecture="Other", priority=5)
    assert score_of(v13, low, high) == 10


def test_unset_auto_select_counts_toward_the_score(v13):
    unset = format_entry(autoSelect=None, priority=4)
    chosen = format_entry(modelArchitecture="Other")
    assert score_of(v13, unset, chosen) == 8


def test_a_false_entry_can_win_through_a_true_entry_with_the_same_format_and_framework(v13):
    """The matching entry needn't be true (section 7, Qualifying)."""
    matching = format_entry(autoSelect=False)
    same_sides = format_entry(modelArchitecture="Other", autoSelect=True)
    rt = runtime(supportedModelFormats=[matching, same_sides])
    result = outcome(v13, rt)
    assert result.result == "picked"
    assert result.runtime.name == "rt"


def worked_example(policy, small_priority=3):
    """runtime-selection-scoring.md, "Worked example"."""
    model = model_doc(
        "llama-3-2-3b-instruct", kind="BaseModel", namespace="llama-demo", **llama_model_spec()
    )
    isvc = isvc_doc(
        "llama",
        "llama-demo",
        model={"name": "llama-3-2-3b-instruct", "kind": "BaseModel"},
        engine={},
    )
    weighted = format_entry(
        modelFormat={"name": "safetensors", "version": "1.0.0", "weight": 2}, priority=2
    )
    runtimes = [
        runtime_doc(
            "team-llama",
            "ServingRuntime",
            namespace="llama-demo",
            supportedModelFormats=[format_entry()],
        ),
        runtime_doc("vllm-llama", supportedModelFormats=[weighted]),
        runtime_doc(
            "srt-llama-small",
            supportedModelFormats=[format_entry(priority=small_priority)],
            modelSizeRange={"min": "1B", "max": "8B"},
        ),
        runtime_doc(
            "srt-llama-large",
            supportedModelFormats=[format_entry(priority=3)],
            modelSizeRange={"min": "1B", "max": "70B"},
        ),
    ]
    cluster = cluster_of(policy, isvc, model, *runtimes)
    return select(policy, cluster, cluster.isvcs[0])


def test_worked_example_ranking(v13):
    result = worked_example(v13)
    ranked = [(c.name, c.score) for c in result.candidates]
    assert ranked == [
        ("team-llama", 2),
        ("vllm-llama", 6),
        ("srt-llama-small", 6),
        ("srt-llama-large", 6),
    ]
    assert [c.distance for c in result.candidates] == [0, 0, 7e9, 69e9]
    assert result.runtime.name == "team-llama"
    assert result.admission.warnings == (
        "Runtime team-llama will be auto-selected for model llama-3-2-3b-instruct",
    )


def test_worked_example_with_priority_4(v13):
    result = worked_example(v13, small_priority=4)
    assert [c.name for c in result.candidates] == [
        "team-llama",
        "srt-llama-small",
        "vllm-llama",
        "srt-llama-large",
    ]


def test_size_distance_counts_only_for_a_model_with_a_size(v13):
    model = model_doc(**llama_model_spec(modelParameterSize=None))
    ranged = runtime_doc(
        "a-ranged",
        supportedModelFormats=[format_entry()],
        modelSizeRange={"min": "1B", "max": "70B"},
    )
    unranged = runtime_doc("b-unranged", supportedModelFormats=[format_entry()])
    result = outcome(v13, ranged, unranged, model=model)
    assert [c.name for c in result.candidates] == ["a-ranged", "b-unranged"]
    assert result.candidates[0].distance is None


def test_one_bound_counts_the_distance_to_that_bound(v13):
    one = runtime_doc("a-one", supportedModelFormats=[format_entry()], modelSizeRange={"min": "1B"})
    both = runtime_doc(
        "b-both",
        supportedModelFormats=[format_entry()],
        modelSizeRange={"min": "3B", "max": "3.3B"},
    )
    result = outcome(v13, one, both)
    assert [c.name for c in result.candidates] == ["b-both", "a-one"]
    assert result.candidates[1].distance == pytest.approx(2.21e9)


def test_namespaced_runtimes_first_whatever_their_scores_then_names(v13):
    rts = [
        runtime_doc("b", supportedModelFormats=[format_entry(priority=9)]),
        runtime_doc("a", supportedModelFormats=[format_entry(priority=9)]),
        runtime_doc("z", "ServingRuntime", namespace="ns", supportedModelFormats=[format_entry()]),
    ]
    assert [c.name for c in outcome(v13, *rts).candidates] == ["z", "a", "b"]


# --- bad input: a one-line error at the field, never a traceback ----------------


@pytest.mark.parametrize(
    ("entry_changes", "expected"),
    [
        (
            {"diffusionPipeline": {"additionalComponents": ["x"]}},
            "spec.supportedModelFormats[0].diffusionPipeline.additionalComponents must be a "
            "mapping, got a list",
        ),
        (
            {"diffusionPipeline": {"vae": {"library": 1}}},
            "spec.supportedModelFormats[0].diffusionPipeline.vae.library must be a string, "
            "got the number 1",
        ),
        (
            {"autoSelect": "yes"},
            "spec.supportedModelFormats[0].autoSelect must be true or false, got the string 'yes'",
        ),
        (
            {"modelFormat": {"name": "safetensors", "version": 1.0}},
            "spec.supportedModelFormats[0].modelFormat.version must be a string, "
            "got the number 1.0",
        ),
        (
            {"modelFormat": {"version": "1.0.0"}},
            "spec.supportedModelFormats[0].modelFormat.name is required",
        ),
    ],
)
def test_a_wrongly_typed_field_is_one_error_at_its_place(v13, entry_changes, expected):
    from modetable.errors import ModetableError

    with pytest.raises(ModetableError) as caught:
        outcome(v13, runtime(supportedModelFormats=[format_entry(**entry_changes)]))
    assert caught.value.message == expected
    assert caught.value.location.file == "test.yaml"
    assert caught.value.location.line is not None
