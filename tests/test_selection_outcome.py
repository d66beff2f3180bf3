"""What each outcome shows: the no-runtime message, the webhook, events and
conditions by version, a named runtime's advisory, and the failures around
selection (selection-facts sections 2, 8, 9 and 12; the page's two messages)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import (
    EXAMPLES,
    cluster_of,
    format_entry,
    isvc_doc,
    llama_model_spec,
    mode_annotation,
    model_doc,
)

from modetable.selection import select
from modetable.views.converter import unstructure
from modetable.views.select import OutcomeView

WEBHOOK = 'admission webhook "inferenceservice.ome-webhook-server.validator" denied the request: '
PAGE_MESSAGE = (
    "no runtime found to support model safetensors with format safetensors in namespace "
    "llama-demo. Checked 2 runtimes (0 namespace-scoped, 2 cluster-scoped). Excluded runtimes: "
    "srt-llama-3-3-70b-instruct-multinode (runtime engine deployment mode MultiNode does not "
    "match requested engine deployment mode OMENative)"
)
PAGE_EVENT = (
    "Runtime srt-llama-3-3-70b-instruct-multinode does not declare support for model "
    "llama-3-3-70b-instruct (runtime srt-llama-3-3-70b-instruct-multinode does not support "
    "model : runtime engine deployment mode MultiNode does not match requested engine "
    "deployment mode OMENative); proceeding because the runtime was named explicitly"
)


def example_docs() -> list[dict]:
    return [yaml.safe_load(p.read_text()) for p in sorted(Path(EXAMPLES).glob("*.yaml"))]


def page_example(policy, **spec_changes):
    """The page's example: its InferenceService, runtime, model and the runtime
    with no autoSelect entry, with `spec_changes` made to the InferenceService."""
    docs = example_docs()
    for doc in docs:
        if doc["kind"] == "InferenceService":
            doc["spec"].update(spec_changes)
    cluster = cluster_of(policy, *docs)
    return select(policy, cluster, cluster.isvcs[0])


def rt(name="rt", kind="ClusterServingRuntime", **spec):
    from conftest import runtime_doc

    spec.setdefault("supportedModelFormats", [format_entry()])
    return runtime_doc(name, kind, **spec)


def select_one(policy, *docs):
    cluster = cluster_of(policy, *docs)
    return select(policy, cluster, cluster.isvcs[0])


def model(**overrides):
    return model_doc(**llama_model_spec(**overrides))


# --- the page -----------------------------------------------------------------


def test_the_pages_no_runtime_message(v13):
    result = page_example(v13)
    assert result.runtime is None
    assert result.message == PAGE_MESSAGE
    assert result.admission.allowed is False
    assert result.admission.message == (
        WEBHOOK + "no supporting runtime found for model llama-3-3-70b-instruct and engine "
        "does not have complete runner configuration: " + PAGE_MESSAGE
    )


def test_the_pages_named_runtime_event(v13):
    result = page_example(v13, runtime={"name": "srt-llama-3-3-70b-instruct-multinode"})
    assert result.runtime.name == "srt-llama-3-3-70b-instruct-multinode"
    assert result.named is True
    assert [(e.type, e.reason, e.message) for e in result.events] == [
        ("Warning", "RuntimeCompatibilityAdvisory", PAGE_EVENT)
    ]
    assert result.admission.allowed is True
    assert result.admission.warnings == (
        'runtime "srt-llama-3-3-70b-instruct-multinode" does not declare support for model '
        '"llama-3-3-70b-instruct" (runtime srt-llama-3-3-70b-instruct-multinode does not '
        "support model : runtime engine deployment mode MultiNode does not match requested "
        "engine deployment mode OMENative); proceeding because the runtime was named explicitly",
    )
    # It runs in the runtime's mode: the runtime's annotation wins over spec.deploymentMode.
    assert result.components["engine"].mode == "MultiNode"
    assert result.components["engine"].source_label == "ComponentAnnotation"


def test_the_page_after_admission_since_v13(v13):
    result = page_example(v13)
    assert [(c.type, c.status, c.reason, c.message, c.severity) for c in result.conditions] == [
        ("RuntimeReady", "False", "RuntimeNotFound", PAGE_MESSAGE, "Info")
    ]
    assert [(e.type, e.reason, e.message, e.source) for e in result.events] == [
        ("Warning", "RuntimeNotFound", PAGE_MESSAGE, "v1beta1Controllers")
    ]


def test_v122_records_the_selection_error_event_and_no_condition(v122):
    # v1.2.2 has no spec.deploymentMode: ask for the mode with the annotation.
    result = page_example(v122, deploymentMode=None, engine=mode_annotation("RawDeployment"))
    message = result.message
    assert message.endswith(
        "Excluded runtimes: srt-llama-3-3-70b-instruct-multinode (runtime engine deployment "
        "mode MultiNode does not match requested engine deployment mode RawDeployment)"
    )
    assert result.conditions == ()
    assert [(e.type, e.reason, e.message) for e in result.events] == [
        (
            "Warning",
            "RuntimeSelectionError",
            "Failed to find runtime for model llama-3-3-70b-instruct: " + message,
        )
    ]


def test_v122_gives_no_named_runtime_webhook_warning_but_the_event(v122):
    result = page_example(
        v122,
        deploymentMode=None,
        engine=mode_annotation("RawDeployment"),
        runtime={"name": "srt-llama-3-3-70b-instruct-multinode"},
    )
    assert result.admission.warnings == ()
    assert [e.reason for e in result.events] == ["RuntimeCompatibilityAdvisory"]


def test_auto_sync_false_records_no_advisory_event(v13):
    result = page_example(
        v13, runtime={"name": "srt-llama-3-3-70b-instruct-multinode", "autoSync": False}
    )
    assert result.events == ()
    assert len(result.admission.warnings) == 1


def test_named_runtime_that_passes_gives_no_advisory(v13):
    result = page_example(v13, runtime={"name": "srt-llama-3-3-70b-instruct"})
    assert result.result == "named"
    assert result.events == ()
    assert result.admission.warnings == ()
    # A new InferenceService records no RuntimeReady, and OME sets it True only
    # where it is recorded (clearRuntimeUnresolved).
    assert result.conditions == ()


def test_runtime_ready_turns_true_only_where_it_is_recorded(v13, v122):
    """An InferenceService of a live cluster's dump that records RuntimeReady
    (False after a runtime went missing) gets True/RuntimeResolved once one is
    used; v1.2.2 has no such condition."""
    docs = example_docs()
    for doc in docs:
        if doc["kind"] == "InferenceService":
            doc["spec"]["runtime"] = {"name": "srt-llama-3-3-70b-instruct"}
            doc["status"] = {
                "conditions": [
                    {"type": "Ready", "status": "True"},
                    {"type": "RuntimeReady", "status": "False", "reason": "RuntimeNotFound"},
                ]
            }
    for policy, expected in ((v13, [("RuntimeReady", "True", "RuntimeResolved")]), (v122, [])):
        cluster = cluster_of(policy, *docs)
        result = select(policy, cluster, cluster.isvcs[0])
        assert [(c.type, c.status, c.reason) for c in result.conditions] == expected
    # A status is the API server's to write: one of another shape records nothing.
    for status in (
        "x",
        {"conditions": "x"},
        {"conditions": ["RuntimeReady", [1], None, {"type": 5}]},
    ):
        for doc in docs:
            if doc["kind"] == "InferenceService":
                doc["status"] = status
        cluster = cluster_of(v13, *docs)
        assert select(v13, cluster, cluster.isvcs[0]).conditions == ()


# --- section 8: the failure message ---------------------------------------------


def test_checked_1_runtimes_has_no_singular(v13):
    isvc = isvc_doc(model={"name": "m"}, engine={})
    result = select_one(v13, isvc, model(), rt(disabled=True))
    assert result.message == (
        "no runtime found to support model safetensors with format safetensors in namespace ns. "
        "Checked 1 runtimes (0 namespace-scoped, 1 cluster-scoped). "
        "Excluded runtimes: rt (runtime is disabled)"
    )


def test_with_no_runtimes_the_message_ends_after_the_namespace(v13):
    """Decided: no final "." (OME's source adds none)."""
    result = select_one(v13, isvc_doc(model={"name": "m"}, engine={}), model())
    assert result.message == (
        "no runtime found to support model safetensors with format safetensors in namespace ns"
    )


def test_runtimes_skipped_only_for_auto_select_or_score_are_counted_not_listed(v13):
    isvc = isvc_doc(model={"name": "m"}, engine={})
    unselectable = rt("a", supportedModelFormats=[format_entry(autoSelect=False)])
    result = select_one(v13, isvc, model(), unselectable)
    assert result.message == (
        "no runtime found to support model safetensors with format safetensors in namespace ns. "
        "Checked 1 runtimes (0 namespace-scoped, 1 cluster-scoped)"
    )


def test_excluded_runtimes_by_name_joined_by_semicolon_and_counts_by_scope(v13):
    isvc = isvc_doc(model={"name": "m"}, engine={})
    docs = [
        rt("zeta", disabled=True),
        rt("alpha", supportedModelFormats=[]),
        rt("mid", "ServingRuntime", namespace="ns", modelSizeRange={"max": "1B"}),
        rt("other-namespace", "ServingRuntime", namespace="elsewhere"),
        rt("quiet", supportedModelFormats=[format_entry(autoSelect=None)]),
    ]
    result = select_one(v13, isvc, model(), *docs)
    assert result.message == (
        "no runtime found to support model safetensors with format safetensors in namespace ns. "
        "Checked 4 runtimes (1 namespace-scoped, 3 cluster-scoped). Excluded runtimes: "
        "alpha (model format 'mt:safetensors:1.0.0:LlamaForCausalLM:transformers:4.45.0.dev0' "
        "not in supported formats: no supported formats defined); "
        "mid (model size 3.21B is outside supported range (-inf, 1B]); "
        "zeta (runtime is disabled)"
    )


def test_the_model_is_named_by_its_format_in_both_slots(v13):
    isvc = isvc_doc(model={"name": "m"}, engine={})
    gguf = model(modelFormat={"name": "gguf", "version": "1.0.0"})
    assert select_one(v13, isvc, gguf).message == (
        "no runtime found to support model gguf with format gguf in namespace ns"
    )


NO_FORMAT = "invalid model specification: modelFormat.name: model format name is required"
NO_FORMAT_DENIAL = (
    WEBHOOK
    + "no supporting runtime found for model m and engine does not have complete "
    + "runner configuration: "
    + NO_FORMAT
)


def ready(doc, state="Ready"):
    """`doc` (a model) with the status OME's model agent leaves: `state`."""
    return {**doc, "status": {"state": state}}


@pytest.mark.parametrize("state", ["Ready", "Failed"])
def test_a_model_with_no_format(v13, v122, state):
    """A model OME's model agent is done with (Ready, or Failed) and still
    without a format: OME refuses it, now and later."""
    isvc = isvc_doc(model={"name": "m"}, engine={})
    for policy in (v13, v122):
        result = select_one(policy, isvc, ready(model(modelFormat=None), state), rt())
        assert result.result == "model_format_missing"
        assert result.pending is None
        assert result.message == NO_FORMAT
        # SelectRuntime checks the format; the webhook wraps its every error.
        assert result.admission.message == NO_FORMAT_DENIAL
        assert [(e.reason, e.message) for e in result.events] == [
            ("RuntimeSelectionError", "Failed to find runtime for model m: " + NO_FORMAT)
        ]
        assert result.conditions == ()


def test_a_model_the_agent_has_yet_to_fill_in_is_pending(v13, v122):
    """No state yet, no format: what OME answers now is the pending model's
    answer; the outcome lists the runtimes that pass every check decided now."""
    isvc = isvc_doc(model={"name": "m"}, engine={})
    other = rt("other", disabled=True)
    for policy in (v13, v122):
        result = select_one(
            policy, isvc, model(modelFormat=None, modelArchitecture=None), rt(), other
        )
        assert result.result == "pending"
        assert result.runtime is None
        assert result.pending.model.name == "m"
        assert result.pending.fields == ("modelFormat", "modelArchitecture")
        assert result.pending.answer == NO_FORMAT_DENIAL
        assert result.message == (
            "the runtime is picked once OME's model agent has filled in the model; "
            "these pass every check decided now: rt"
        )
        assert result.admission.allowed is True
        assert result.events == () and result.conditions == ()
        [checked] = [c for c in result.candidates if c.name == "rt"]
        assert {c.check: c.skip_note for c in checked.checks if c.skip_note} == {
            "model-format": "pending (modelFormat, modelArchitecture not filled in yet)",
            "score": "pending (modelFormat, modelArchitecture not filled in yet)",
        }


def test_a_pending_model_no_runtime_could_serve_is_an_error_now(v13):
    """Where no runtime passes the checks decided now, OME's answer stands (an
    error now), with why no runtime could be picked as its hint."""
    isvc = isvc_doc(model={"name": "m"}, engine={})
    result = select_one(v13, isvc, model(modelFormat=None), rt("off", disabled=True))
    assert result.result == "model_format_missing"
    assert result.admission.message == NO_FORMAT_DENIAL
    assert result.hint == (
        "No runtime can be picked even once OME's model agent has filled in the model: "
        "off (runtime is disabled)"
    )
    assert result.pending.fields == ("modelFormat",)


@pytest.mark.parametrize(
    ("annotation", "waits"), [("true", False), ("TRUE", False), ("false", True)]
)
def test_a_model_the_agent_skips_never_waits(v13, annotation, waits):
    """OME's model agent skips a model annotated
    ome.oracle.com/skip-config-parsing: "true" (any case): its fields stay as written."""
    doc = model(modelFormat=None)
    doc["metadata"]["annotations"] = {"ome.oracle.com/skip-config-parsing": annotation}
    result = select_one(v13, isvc_doc(model={"name": "m"}, engine={}), doc, rt())
    assert (result.pending is not None) is waits
    assert result.result == ("pending" if waits else "model_format_missing")


def test_a_missing_quantization_alone_does_not_wait(v13):
    """The agent fills quantization in only when the model's config names one."""
    result = select_one(v13, isvc_doc(model={"name": "m"}, engine={}), model(), rt())
    assert result.result == "picked"
    assert result.pending is None


# --- section 2: when the webhook selects --------------------------------------


@pytest.mark.parametrize(
    ("engine", "webhook_selects"),
    [
        ({}, True),
        ({"runner": {"image": "own:1"}}, False),
        # A leader's and a worker's runner are containers: OME's CRD requires a name.
        (
            {
                "leader": {"runner": {"name": "l", "image": "a"}},
                "worker": {"runner": {"name": "w", "image": "b"}},
            },
            False,
        ),
        ({"leader": {"runner": {"name": "l", "image": "a"}}, "worker": {}}, True),
        # An empty image is no image (the webhook tests `image != ""`).
        ({"runner": {"image": ""}}, True),
        (
            {
                "leader": {"runner": {"name": "l", "image": "a"}},
                "worker": {"runner": {"name": "w", "image": ""}},
            },
            True,
        ),
        (None, False),
    ],
)
def test_the_webhook_selects_only_with_an_engine_and_no_runner_image_of_its_own(
    v13, engine, webhook_selects
):
    spec = {"model": {"name": "m"}}
    if engine is not None:
        spec["engine"] = engine
    failing = select_one(v13, isvc_doc(**spec), model(), rt(disabled=True))
    assert failing.admission.allowed is not webhook_selects
    # After admission the controller records the same failure either way.
    assert [e.reason for e in failing.events] == ["RuntimeNotFound"]
    picked = select_one(v13, isvc_doc(**spec), model(), rt())
    assert picked.runtime.name == "rt"
    expected = ("Runtime rt will be auto-selected for model m",) if webhook_selects else ()
    assert picked.admission.warnings == expected


def test_neither_model_nor_runtime(v13, v122):
    bare = isvc_doc(engine={})
    del bare["spec"]["model"]
    result = select_one(v13, bare)
    assert result.message == "at least one of spec.model or spec.runtime must be set"
    assert result.admission.message == WEBHOOK + result.message
    old = select_one(v122, bare)
    assert (
        old.admission.message == 'The InferenceService "svc" is invalid: spec.model: Required value'
    )


def test_a_runtime_only_inference_service_skips_model_work_since_v13(v13):
    named = isvc_doc(engine={}, runtime={"name": "rt"})
    del named["spec"]["model"]
    result = select_one(v13, named, rt(supportedModelFormats=[]))
    assert (result.result, result.runtime.name, result.admission.warnings) == ("named", "rt", ())


def test_candidates_are_the_namespaces_runtimes_and_the_clusters(v13):
    isvc = isvc_doc(model={"name": "m"}, engine={})
    docs = [
        rt("c"),
        rt("n", "ServingRuntime", namespace="ns"),
        rt("x", "ServingRuntime", namespace="x"),
    ]
    result = select_one(v13, isvc, model(), *docs)
    assert sorted(c.name for c in result.candidates) == ["c", "n"]
    assert result.runtime.name == "n"


# --- the model ----------------------------------------------------------------


def test_a_missing_model(v13):
    result = select_one(v13, isvc_doc(model={"name": "m"}, engine={}), rt())
    assert result.message == (
        'referenced model "m" not found in namespace "ns": ensure a BaseModel exists in this '
        "namespace or a ClusterBaseModel exists cluster-wide with this name"
    )
    assert result.admission.message == WEBHOOK + result.message
    assert result.admission.denied_by == "model-exists"


def test_a_disabled_model(v13):
    result = select_one(v13, isvc_doc(model={"name": "m"}, engine={}), model(disabled=True), rt())
    assert result.admission.message == WEBHOOK + "model m is disabled"


def test_spec_model_kind_base_model_is_the_namespaces(v13):
    isvc = isvc_doc(model={"name": "m", "kind": "BaseModel"}, engine={})
    namespaced = model_doc(kind="BaseModel", **llama_model_spec(modelArchitecture="Other"))
    result = select_one(v13, isvc, model(), namespaced, rt())
    assert result.model.kind == "BaseModel"
    assert result.candidates[0].reason.startswith("model format 'mt:safetensors:1.0.0:Other:")
    default = select_one(v13, isvc_doc(model={"name": "m"}, engine={}), model(), namespaced, rt())
    assert default.model.kind == "ClusterBaseModel"
    assert default.runtime.name == "rt"


# --- section 9: naming a runtime ------------------------------------------------


def named(policy, runtime_name, *docs, **ref):
    isvc = isvc_doc(model={"name": "m"}, engine={}, runtime={"name": runtime_name, **ref})
    return select_one(policy, isvc, model(), *docs)


def test_named_format_failure_names_the_model_by_its_format(v13):
    result = named(v13, "rt", rt(supportedModelFormats=[format_entry(modelArchitecture="A")]))
    assert result.events[0].message == (
        "Runtime rt does not declare support for model m (runtime rt does not support model "
        "safetensors: model format 'mt:safetensors:1.0.0:LlamaForCausalLM:transformers:"
        "4.45.0.dev0' not in supported formats: architecture mismatch (model=LlamaForCausalLM, "
        "runtime=A)); proceeding because the runtime was named explicitly"
    )


def test_named_size_failure(v13):
    result = named(v13, "rt", rt(modelSizeRange={"min": "70B"}))
    assert result.admission.warnings == (
        'runtime "rt" does not declare support for model "m" (runtime rt does not support '
        "model safetensors: model size 3.21B is outside supported range [70B, inf)); "
        "proceeding because the runtime was named explicitly",
    )


def test_named_class_failure_leaves_the_model_slot_empty(v13):
    isvc = isvc_doc(
        model={"name": "m"},
        engine={},
        runtime={"name": "rt"},
        acceleratorSelector={"acceleratorClass": "nvidia-h100"},
    )
    result = select_one(v13, isvc, model(), rt())
    assert result.admission.warnings == (
        'runtime "rt" does not declare support for model "m" (runtime rt does not support model '
        ": runtime does not support the required accelerator class); proceeding because the "
        "runtime was named explicitly",
    )


def test_named_checks_skip_auto_select_and_score(v13):
    result = named(v13, "rt", rt(supportedModelFormats=[format_entry(autoSelect=False)]))
    assert result.result == "named"
    assert result.events == ()


def test_named_runtime_without_an_engine_gets_no_webhook_warning(v13):
    isvc = isvc_doc(model={"name": "m"}, runtime={"name": "rt"})
    result = select_one(v13, isvc, model(), rt(modelSizeRange={"min": "70B"}))
    assert result.admission.warnings == ()
    assert [e.reason for e in result.events] == ["RuntimeCompatibilityAdvisory"]


def test_a_named_runtime_is_checked_with_what_it_inherits(v13):
    parent = rt("parent", disabled=True, engineConfig=mode_annotation("MultiNode"))
    child = rt("child", annotations={"ome.io/inherit-from": "parent"}, disabled=False)
    isvc = isvc_doc(
        model={"name": "m"}, engine=mode_annotation("OMENative"), runtime={"name": "child"}
    )
    result = select_one(v13, isvc, model(), parent, child)
    assert result.named_check.reason == (
        "runtime engine deployment mode MultiNode does not match requested engine deployment "
        "mode OMENative"
    )
    # Auto-selection reads the child's own spec: no mode, so it passes.
    auto = isvc_doc(model={"name": "m"}, engine=mode_annotation("OMENative"))
    picked = select_one(v13, auto, model(), parent, child)
    assert picked.runtime.name == "child"


def test_a_missing_named_runtime(v13):
    result = named(v13, "gone")
    assert result.admission.message == (
        WEBHOOK + "runtime gone does not support model m: runtime gone not found in namespace "
        "ns or at cluster scope"
    )
    assert [(c.reason, c.message) for c in result.conditions] == [
        ("RuntimeNotFound", "runtime gone not found in namespace ns or at cluster scope")
    ]
    serving = named(v13, "gone", kind="ServingRuntime")
    assert [e.message for e in serving.events] == ["ServingRuntime gone not found in namespace ns"]
    assert serving.admission.message == (
        WEBHOOK + "runtime gone does not support model m: ServingRuntime gone not found in "
        "namespace ns"
    )


def test_a_missing_named_runtime_when_pinned(v13, v122):
    """Section 9: v1.2.2 records RuntimePinError when pinned; since v1.3 a pinned
    InferenceService keeps its snapshot and gets RuntimeDrifted=True/SourceRuntimeMissing."""
    missing = "runtime gone not found in namespace ns or at cluster scope"
    old = named(v122, "gone", autoSync=False)
    assert [(e.type, e.reason, e.message) for e in old.events] == [
        ("Warning", "RuntimePinError", missing)
    ]
    assert old.conditions == ()
    following = named(v122, "gone")
    assert [e.reason for e in following.events] == ["RuntimeValidationError"]
    pinned = named(v13, "gone", autoSync=False)
    assert [(c.type, c.status, c.reason, c.message) for c in pinned.conditions] == [
        ("RuntimeReady", "False", "RuntimeNotFound", missing),
        ("RuntimeDrifted", "True", "SourceRuntimeMissing", missing),
    ]
    assert [e.reason for e in pinned.events] == ["RuntimeNotFound"]
    assert [c.type for c in named(v13, "gone").conditions] == ["RuntimeReady"]


def test_named_lookup_follows_kind_since_v13(v13, v122):
    both = [rt("rt"), rt("rt", "ServingRuntime", namespace="ns")]
    assert named(v13, "rt", *both).runtime.kind == "ClusterServingRuntime"
    assert named(v13, "rt", *both, kind="ServingRuntime").runtime.kind == "ServingRuntime"
    assert named(v122, "rt", *both).runtime.kind == "ServingRuntime"


def test_a_disabled_named_runtime_is_refused_since_v13(v13, v122):
    """The controller's ValidateRuntime fails with a model (`Runtime {rt} does
    not support model {model}: {err}`); a runtime-only InferenceService's
    runtime is found disabled after the fetch (`Runtime {rt} failed validation:
    {err}`; webhook facts, section 3). v1.2.2's event keeps the bare error, its
    text unknown."""
    result = named(v13, "rt", rt(disabled=True))
    assert result.runtime is None
    assert result.admission.message == (
        WEBHOOK + "runtime rt does not support model m: cluster-scoped runtime rt is disabled"
    )
    assert [(e.type, e.reason, e.message) for e in result.events] == [
        (
            "Warning",
            "RuntimeValidationError",
            "Runtime rt does not support model m: cluster-scoped runtime rt is disabled",
        )
    ]
    isvc = isvc_doc(model=None, engine={}, runtime={"name": "rt"})
    alone = select_one(v13, isvc, rt(disabled=True))
    assert [(e.reason, e.message) for e in alone.events] == [
        (
            "RuntimeValidationError",
            "Runtime rt failed validation: cluster-scoped runtime rt is disabled",
        )
    ]
    old = named(v122, "rt", rt(disabled=True))
    assert [(e.reason, e.message) for e in old.events] == [
        ("RuntimeValidationError", "cluster-scoped runtime rt is disabled")
    ]


def test_a_broken_chain(v13):
    child = rt(annotations={"ome.io/inherit-from": "missing"})
    result = named(v13, "rt", child)
    chain_error = 'inherit-from parent "missing" not found (chain so far: [rt])'
    wrapped = "runtime rt does not support model m: " + chain_error
    assert result.admission.message == WEBHOOK + wrapped
    assert [(e.reason, e.message) for e in result.events] == [
        ("RuntimeValidationError", "Runtime rt does not support model m: " + chain_error)
    ]
    pinned = named(v13, "rt", child, autoSync=False)
    assert [e.reason for e in pinned.events] == ["RuntimePinError"]


# --- the JSON contract ----------------------------------------------------------


def test_outcome_json_has_the_documented_fields(v13):
    data = unstructure(OutcomeView.of(page_example(v13)))
    for key in ("runtime", "named", "message", "admission", "events", "conditions"):
        assert key in data
    assert data["runtime"] is None
    assert list(data["admission"]) == [
        "allowed",
        "message",
        "warnings",
        "denied_by",
        "warning_checks",
        "checked",
        "not_checked",
    ]
    assert data["components"] == {"engine": {"mode": "OMENative", "source": "ServiceSpec"}}
    assert data["reconcile"] == {}
    assert [(c["name"], c["scope"], c["compatible"]) for c in data["candidates"]] == [
        ("srt-llama-3-3-70b-instruct", "Cluster", False),
        ("srt-llama-3-3-70b-instruct-multinode", "Cluster", False),
    ]
    picked = unstructure(OutcomeView.of(page_example(v13, deploymentMode=None)))
    assert picked["runtime"] == {
        "name": "srt-llama-3-3-70b-instruct-multinode",
        "kind": "ClusterServingRuntime",
        "read_from": "manifest",
    }
    assert picked["components"]["engine"] == {"mode": "MultiNode", "source": "ComponentAnnotation"}


def test_a_sharded_model_is_refused_since_v13_even_with_a_named_runtime(v13, v122):
    sharded = model(distribution="Sharded")
    for spec in ({}, {"runtime": {"name": "rt"}}):
        isvc = isvc_doc(model={"name": "m"}, engine={}, **spec)
        result = select_one(v13, isvc, sharded, rt())
        assert result.runtime is None
        assert result.admission.message == (
            WEBHOOK + "no model cache provider is configured for sharded model loading"
        )
    assert select_one(
        v13, isvc_doc(model={"name": "m"}, engine={}), model(distribution="PerNode"), rt()
    ).runtime
    assert select_one(v122, isvc_doc(model={"name": "m"}, engine={}), sharded, rt()).runtime


def test_a_pending_model_with_no_runtime_at_all_says_so(v13):
    """No runtime in the namespace or the cluster: an error now, whose hint
    says there is none (never a sentence ending in an empty list)."""
    isvc = isvc_doc(model={"name": "m"}, engine={})
    result = select_one(v13, isvc, model(modelFormat=None))
    assert result.result == "model_format_missing"
    assert result.admission.message == NO_FORMAT_DENIAL
    assert result.hint == (
        "No runtime can be picked even once OME's model agent has filled in the model: "
        "namespace ns and the cluster hold no runtime"
    )


def test_a_pending_model_names_runtimes_failing_a_check_omes_message_leaves_out(v13):
    """A runtime failing only a check OME's no-runtime message counts without
    naming it (auto-select) is named with its reason, beside a listed one."""
    isvc = isvc_doc(model={"name": "m"}, engine={})
    manual = rt("manual", supportedModelFormats=[format_entry(autoSelect=False)])
    result = select_one(v13, isvc, model(modelFormat=None), manual, rt("off", disabled=True))
    assert result.result == "model_format_missing"
    assert result.hint == (
        "No runtime can be picked even once OME's model agent has filled in the model: "
        "manual (supports the model but has no supportedModelFormats[].autoSelect=true entry, "
        "so automatic selection skips it (pin it explicitly via spec.runtime.name instead)); "
        "off (runtime is disabled)"
    )
