"""The specification page, statement by statement.

Each test names the sentence it checks (runtime-deployment-mode-matching.md);
where v1.2.2 and v1.3 differ, the same scenario runs at both.
"""

from __future__ import annotations

import pytest
from conftest import isvc_doc, mode_annotation, runtime_doc
from helpers_modes import admission, match, modes_of, reading_named, requested, running

MISMATCH = "runtime {c} deployment mode {rt} does not match requested {c} deployment mode {isvc}"


def mismatch(component: str, runtime_mode: str, isvc_mode: str) -> str:
    return MISMATCH.format(c=component, rt=runtime_mode, isvc=isvc_mode)


def engine_runtime(mode: str, name: str = "rt", **spec) -> dict:
    return runtime_doc(name, engineConfig=mode_annotation(mode), **spec)


# --- Intro ------------------------------------------------------------------


def test_a_runtime_declaring_another_engine_mode_is_skipped(v13):
    """OME skips any serving runtime that declares a different deployment mode for
    the engine ... than the InferenceService asks for."""
    result = match(v13, isvc_doc(engine=mode_annotation("OMENative")), engine_runtime("MultiNode"))
    assert not result.passed
    assert result.reason == mismatch("engine", "MultiNode", "OMENative")


def test_a_runtime_declaring_another_decoder_mode_is_skipped(v13):
    """... or decoder ..."""
    isvc = isvc_doc(engine={}, decoder=mode_annotation("OMENative"))
    runtime = runtime_doc(decoderConfig=mode_annotation("RawDeployment"))
    result = match(v13, isvc, runtime)
    assert not result.passed
    assert result.reason == mismatch("decoder", "RawDeployment", "OMENative")


def test_runtimes_that_declare_no_mode_always_pass(v13):
    """The catalog runtimes declare no mode, so they always pass this check."""
    for mode in ("RawDeployment", "OMENative", "MultiNode", "VirtualDeployment"):
        isvc = isvc_doc(engine=mode_annotation(mode), decoder=mode_annotation(mode))
        assert match(v13, isvc, runtime_doc(engineConfig={}, decoderConfig={})).passed


# --- The matching rule --------------------------------------------------------


def test_the_decoder_is_compared_only_when_the_isvc_has_spec_decoder(v13):
    """OME compares ... the decoder's when the InferenceService has a spec.decoder."""
    runtime = runtime_doc(decoderConfig=mode_annotation("MultiNode"))
    without = match(v13, isvc_doc(deploymentMode="OMENative", engine={}), runtime)
    assert without.passed
    assert [c.component for c in without.components] == ["engine"]
    with_decoder = match(v13, isvc_doc(deploymentMode="OMENative", engine={}, decoder={}), runtime)
    assert with_decoder.reason == mismatch("decoder", "MultiNode", "OMENative")


def test_an_empty_spec_decoder_still_counts_as_having_one(v13):
    runtime = runtime_doc(decoderConfig=mode_annotation("MultiNode"))
    result = match(v13, isvc_doc(deploymentMode="OMENative", decoder={}), runtime)
    assert result.reason == mismatch("decoder", "MultiNode", "OMENative")


def test_the_router_is_never_compared(v13):
    """It doesn't compare the router."""
    isvc = isvc_doc(engine={}, router=mode_annotation("OMENative"))
    result = match(v13, isvc, runtime_doc(routerConfig=mode_annotation("MultiNode")))
    assert result.passed
    assert [c.component for c in result.components] == ["engine"]


def test_the_engine_is_rejected_before_the_decoder(v13):
    """Both components differ: the engine's reason is the one reported."""
    isvc = isvc_doc(engine=mode_annotation("OMENative"), decoder=mode_annotation("OMENative"))
    runtime = runtime_doc(
        engineConfig=mode_annotation("MultiNode"), decoderConfig=mode_annotation("RawDeployment")
    )
    result = match(v13, isvc, runtime)
    assert result.reason == mismatch("engine", "MultiNode", "OMENative")
    assert [c.outcome for c in result.components] == ["reject", "reject"]


# The page's matching table: InferenceService's engine mode, runtime's mode, result.
PAGE_TABLE = [
    (None, "MultiNode", "pass", "requested-none"),
    ("OMENative", None, "pass", "declared-none"),
    ("OMENative", "OMENative", "pass", "same-mode"),
    ("OMENative", "MultiNode", "reject", "different-mode"),
    ("RawDeployment", "OMENative", "reject", "different-mode"),
]


@pytest.mark.parametrize(("isvc_mode", "runtime_mode", "outcome", "row"), PAGE_TABLE)
def test_each_row_of_the_matching_table_through_manifests(
    v13, isvc_mode, runtime_mode, outcome, row
):
    isvc = isvc_doc(engine=mode_annotation(isvc_mode) if isvc_mode else {})
    runtime = engine_runtime(runtime_mode) if runtime_mode else runtime_doc(engineConfig={})
    (engine,) = match(v13, isvc, runtime).components
    assert (engine.outcome, engine.row) == (outcome, row)
    expected = mismatch("engine", runtime_mode, isvc_mode) if outcome == "reject" else None
    assert engine.reason == expected


def test_the_check_is_a_filter_and_adds_nothing_to_the_score(v13):
    """The check is a filter: it adds nothing to a runtime's score."""
    from conftest import cluster_of, format_entry, llama_model_spec, model_doc

    from modetable.selection import select

    isvc = isvc_doc(model={"name": "m"}, engine=mode_annotation("OMENative"))
    entries = [format_entry()]
    runtimes = [
        runtime_doc("a-plain", supportedModelFormats=entries),
        runtime_doc(
            "b-declares", supportedModelFormats=entries, engineConfig=mode_annotation("OMENative")
        ),
    ]
    cluster = cluster_of(v13, isvc, model_doc(**llama_model_spec()), *runtimes)
    outcome = select(v13, cluster, cluster.isvcs[0])
    assert [(c.runtime.name, c.compatible, c.score) for c in outcome.candidates] == [
        ("a-plain", True, 2),
        ("b-declares", True, 2),
    ]
    assert outcome.runtime.name == "a-plain"  # equal scores: the name decides


def test_the_rules_file_examples_are_the_page_table(ruleset):
    examples = [
        (
            None if e.requested == "none" else e.requested,
            None if e.declared == "none" else e.declared,
            e.outcome,
            e.row,
        )
        for e in ruleset.rules.matching.examples
        if e.docs
    ]
    assert examples == PAGE_TABLE


# --- Where each side declares a mode --------------------------------------------


def test_runtime_engine_config_annotation_counts_for_the_engine(v13):
    """Runtime: engineConfig.annotations | Yes, for the engine"""
    (engine,) = match(
        v13, isvc_doc(deploymentMode="OMENative"), engine_runtime("MultiNode")
    ).components
    assert (engine.declared.mode, engine.declared.source_label) == (
        "MultiNode",
        "runtime-component-annotation",
    )


def test_runtime_decoder_config_annotation_counts_for_the_decoder(v13):
    """Runtime: decoderConfig.annotations | Yes, for the decoder"""
    isvc = isvc_doc(deploymentMode="OMENative", decoder={})
    runtime = runtime_doc(decoderConfig=mode_annotation("MultiNode"))
    engine, decoder = match(v13, isvc, runtime).components
    assert engine.declared.mode is None
    assert (decoder.declared.mode, decoder.declared.source_label) == (
        "MultiNode",
        "runtime-component-annotation",
    )


def _parent_and_child():
    parent = runtime_doc("parent", disabled=True, engineConfig=mode_annotation("MultiNode"))
    child = runtime_doc(
        "child", annotations={"ome.io/inherit-from": "parent"}, disabled=False, engineConfig={}
    )
    return parent, child


def test_an_inherited_annotation_counts_only_when_the_isvc_names_the_runtime(v13):
    """Runtime: an annotation inherited from a parent runtime | Only when the
    InferenceService names the runtime"""
    parent, child = _parent_and_child()
    auto = match(v13, isvc_doc(deploymentMode="OMENative"), child, parent)
    assert auto.passed
    (reading,) = auto.components[0].declared.passed_over
    assert (reading.source_id, reading.verdict, reading.value) == (
        "runtime-inherited-annotation",
        "when_named",
        "MultiNode",
    )
    assert reading.why == "MultiNode: counts only when the InferenceService names the runtime"

    named = match(
        v13, isvc_doc(deploymentMode="OMENative", runtime={"name": "child"}), child, parent
    )
    assert named.named
    assert named.reason == mismatch("engine", "MultiNode", "OMENative")
    assert named.components[0].declared.source_label == "runtime-inherited-annotation"


def test_a_child_overrides_what_it_inherits(v13):
    parent, child = _parent_and_child()
    child["spec"]["engineConfig"] = mode_annotation("OMENative")
    named = match(
        v13, isvc_doc(deploymentMode="OMENative", runtime={"name": "child"}), child, parent
    )
    assert named.passed
    assert named.components[0].declared.source_label == "runtime-component-annotation"


def test_inheritance_does_not_exist_in_v122(v122):
    parent, child = _parent_and_child()
    named = match(
        v122,
        isvc_doc(engine=mode_annotation("RawDeployment"), runtime={"name": "child"}),
        child,
        parent,
    )
    assert named.passed
    assert named.components[0].declared.mode is None


@pytest.mark.parametrize(
    ("where", "runtime", "source"),
    [
        (
            "metadata.annotations",
            runtime_doc(annotations={"ome.io/deploymentMode": "MultiNode"}),
            "runtime-metadata-annotation",
        ),
        (
            "routerConfig.annotations",
            runtime_doc(routerConfig=mode_annotation("MultiNode")),
            "runtime-router-annotation",
        ),
        (
            "a leader and worker alone",
            runtime_doc(engineConfig={"leader": {"runner": {}}, "worker": {"size": 1}}),
            "runtime-leader-worker",
        ),
    ],
)
def test_runtime_places_that_do_not_count(v13, where, runtime, source):
    """Runtime: metadata.annotations, routerConfig.annotations, or a leader and worker alone | No"""
    isvc = isvc_doc(deploymentMode="OMENative", router={})
    (engine,) = match(v13, isvc, runtime).components
    assert engine.outcome == "pass", where
    assert engine.declared.mode is None
    (reading,) = engine.declared.passed_over
    assert (reading.source_id, reading.verdict) == (source, "does_not_count")
    assert reading.why.endswith(": does not count for matching")


def test_the_isvc_component_annotation_counts_ahead_of_spec_deployment_mode(v13):
    """InferenceService: spec.engine.annotations or spec.decoder.annotations | Yes,
    ahead of spec.deploymentMode"""
    isvc = isvc_doc(
        deploymentMode="OMENative",
        engine=mode_annotation("RawDeployment"),
        decoder=mode_annotation("MultiNode"),
    )
    modes = requested(v13, isvc)
    assert {c: (r.mode, r.source_label) for c, r in modes.items()} == {
        "engine": ("RawDeployment", "isvc-component-annotation"),
        "decoder": ("MultiNode", "isvc-component-annotation"),
    }
    shadowed = modes["engine"].passed_over[0]
    assert (shadowed.source_id, shadowed.verdict) == ("isvc-service-mode", "shadowed")


def test_spec_deployment_mode_counts_for_each_component_whose_annotation_sets_none(v13):
    """InferenceService: spec.deploymentMode (since v1.3) | Yes, for each component
    whose annotation sets no mode."""
    isvc = isvc_doc(deploymentMode="OMENative", engine=mode_annotation("MultiNode"), decoder={})
    modes = requested(v13, isvc)
    assert (modes["engine"].mode, modes["decoder"].mode) == ("MultiNode", "OMENative")
    assert modes["decoder"].source_label == "isvc-service-mode"


def test_spec_deployment_mode_takes_only_omenative_or_rawdeployment(v13):
    """It takes only OMENative or RawDeployment, so MultiNode needs the annotation."""
    modes = requested(v13, isvc_doc(deploymentMode="MultiNode"))
    assert modes["engine"].mode is None
    (reading,) = modes["engine"].passed_over
    assert reading.verdict == "not_accepted"
    assert reading.why == "MultiNode: this source takes only OMENative, RawDeployment"
    verdict = admission(v13, isvc_doc(name="svc", deploymentMode="MultiNode"))
    assert not verdict.allowed
    assert verdict.message == (
        'The InferenceService "svc" is invalid: spec.deploymentMode: Unsupported value: '
        '"MultiNode": supported values: "OMENative", "RawDeployment"'
    )


def test_spec_deployment_mode_does_not_exist_in_v122(v122):
    """spec.deploymentMode (since v1.3)"""
    modes = requested(v122, isvc_doc(deploymentMode="RawDeployment"))
    assert modes["engine"].mode is None
    (reading,) = modes["engine"].passed_over
    assert reading.verdict == "not_in_version"
    assert reading.why == "RawDeployment: this source counts only since v1.3"
    # v1.2.2's CRD has no spec.deploymentMode: the API server refuses it as
    # unknown under kubectl's default (Strict), before any webhook.
    verdict = admission(v122, isvc_doc(deploymentMode="MultiNode"))
    assert (verdict.denied_by, verdict.checked) == ("crd-schema", ("crd-schema",))
    assert verdict.message == (
        'Error from server (BadRequest): error when creating "test.yaml": InferenceService in '
        'version "v1beta1" cannot be handled as a InferenceService: strict decoding error: '
        'unknown field "spec.deploymentMode"'
    )


def test_the_isvc_metadata_annotation_does_not_count(v13, v122):
    """InferenceService: metadata.annotations | No"""
    isvc = isvc_doc()
    isvc["metadata"]["annotations"] = {"ome.io/deploymentMode": "RawDeployment"}
    for policy in (v13, v122):
        result = match(policy, isvc, engine_runtime("MultiNode"))
        assert result.passed
        assert result.components[0].requested.passed_over[0].verdict == "does_not_count"


@pytest.mark.parametrize("mode", ["RawDeployment", "OMENative", "MultiNode", "VirtualDeployment"])
def test_each_valid_value_counts(v13, mode):
    """A mode counts when its value is RawDeployment, OMENative (since v1.3),
    MultiNode (deprecated) or VirtualDeployment (legacy)."""
    other = "RawDeployment" if mode != "RawDeployment" else "OMENative"
    result = match(v13, isvc_doc(engine=mode_annotation(other)), engine_runtime(mode))
    assert result.reason == mismatch("engine", mode, other)


def test_the_valid_values_and_their_status(v13, v122):
    assert {n: m.status for n, m in v13.modes_in_force.items()} == {
        "RawDeployment": "current",
        "OMENative": "current",
        "MultiNode": "deprecated",
        "VirtualDeployment": "legacy",
    }
    assert list(v122.modes_in_force) == [
        "RawDeployment",
        "MultiNode",
        "VirtualDeployment",
        "MultiNodeRayVLLM",
    ]


@pytest.mark.parametrize(
    "value", ["multinode", "MULTINODE", "Multinode", " MultiNode", "OmeNative", "", "Multi\nNode"]
)
def test_a_misspelled_value_silently_counts_as_no_mode(v13, value):
    """Annotation values are case-sensitive, and OME silently treats a misspelled
    one as no mode."""
    result = match(v13, isvc_doc(engine=mode_annotation("OMENative")), engine_runtime(value))
    assert result.passed
    (engine,) = result.components
    assert (engine.declared.mode, engine.row) == (None, "declared-none")
    # A value that is empty, has spaces around it or a control character is
    # quoted (JSON-escaped), so the reason reads and stays on one line.
    quoted = {"": '""', " MultiNode": '" MultiNode"', "Multi\nNode": '"Multi\\nNode"'}
    shown = quoted.get(value, value)
    assert engine.declared.passed_over[0].why == f"{shown}: not a valid mode in v1.3, so no mode"


def test_omenative_is_no_mode_in_v122_and_multinoderayvllm_no_mode_in_v13(v13, v122):
    """OMENative (since v1.3); MultiNodeRayVLLM is valid in v1.2.2 only."""
    isvc = isvc_doc(engine=mode_annotation("RawDeployment"))
    assert match(v122, isvc, engine_runtime("OMENative")).passed
    assert not match(v13, isvc, engine_runtime("OMENative")).passed
    assert not match(v122, isvc, engine_runtime("MultiNodeRayVLLM")).passed
    assert match(v13, isvc, engine_runtime("MultiNodeRayVLLM")).passed


def test_the_matching_rule_applies_in_v122_over_its_values(v122):
    result = match(
        v122, isvc_doc(engine=mode_annotation("RawDeployment")), engine_runtime("MultiNode")
    )
    assert result.reason == mismatch("engine", "MultiNode", "RawDeployment")


# --- The webhook: engine and decoder agree on OMENative (since v1.3) -------------

COMBINATION = (
    'admission webhook "inferenceservice.ome-webhook-server.validator" denied the request: '
    'InvalidDeploymentModeCombination: engine deploymentMode="{e}" does not match decoder '
    'deploymentMode="{d}"; when either is OMENative, both must use the same value'
)


@pytest.mark.parametrize(
    ("engine", "decoder", "service", "denied"),
    [
        ("OMENative", "MultiNode", None, ("OMENative", "MultiNode")),
        ("OMENative", None, None, ("OMENative", "")),
        (None, "OMENative", None, ("", "OMENative")),
        ("RawDeployment", None, "OMENative", ("RawDeployment", "OMENative")),
        (None, None, "OMENative", None),
        ("OMENative", "OMENative", None, None),
        ("MultiNode", "RawDeployment", None, None),
        (None, None, None, None),
    ],
)
def test_engine_and_decoder_must_agree_when_either_asks_for_omenative(
    v13, v122, engine, decoder, service, denied
):
    """Since v1.3, when the engine or the decoder asks for OMENative, the webhook
    requires both to ask for the same mode."""
    spec = {
        "engine": mode_annotation(engine) if engine else {},
        "decoder": mode_annotation(decoder) if decoder else {},
    }
    if service:
        spec["deploymentMode"] = service
    verdict = admission(v13, isvc_doc(**spec))
    if denied is None:
        assert (verdict.allowed, verdict.message) == (True, None)
    else:
        assert (verdict.allowed, verdict.message) == (
            False,
            COMBINATION.format(e=denied[0], d=denied[1]),
        )
    # v1.2.2 had no such check; its CRD has no spec.deploymentMode (Strict refuses it).
    older = admission(v122, isvc_doc(**spec))
    assert older.allowed or (older.denied_by == "crd-schema" and service is not None)


def test_the_combination_check_needs_both_components(v13):
    assert admission(v13, isvc_doc(engine=mode_annotation("OMENative"))).allowed


# --- The runtime's mode also sets the running mode --------------------------------


def test_the_runtimes_mode_becomes_the_components_mode_ahead_of_spec_deployment_mode(v13):
    """So a runtime's mode becomes the component's mode, ahead of spec.deploymentMode"""
    isvc = isvc_doc(deploymentMode="OMENative", engine={}, runtime={"name": "rt"})
    result = running(v13, isvc, engine_runtime("MultiNode"), named=True)
    assert modes_of(result) == {"engine": "MultiNode (ComponentAnnotation)"}
    reading = reading_named(result.components["engine"], "ComponentAnnotation")
    assert (reading.source_label, reading.origin) == ("ComponentAnnotation", "runtime")


def test_only_the_components_own_annotation_overrides_the_runtime(v13):
    """... and only the component's own annotation in the InferenceService overrides it."""
    isvc = isvc_doc(engine=mode_annotation("RawDeployment"), runtime={"name": "rt"})
    result = running(v13, isvc, engine_runtime("MultiNode"), named=True)
    assert modes_of(result) == {"engine": "RawDeployment (ComponentAnnotation)"}
    assert reading_named(result.components["engine"], "ComponentAnnotation").origin == "isvc"


def test_an_isvc_declaring_no_mode_can_run_as_multinode(v13):
    """An InferenceService that declares no mode can get a MultiNode runtime and run as
    MultiNode."""
    isvc = isvc_doc(engine={})
    assert match(v13, isvc, engine_runtime("MultiNode")).passed
    assert modes_of(running(v13, isvc, engine_runtime("MultiNode"))) == {
        "engine": "MultiNode (ComponentAnnotation)"
    }


def test_the_merge_covers_decoder_and_router_configs_too(v13):
    """OME merges the runtime's engineConfig, decoderConfig and routerConfig into the
    components the InferenceService declares, annotations included."""
    runtime = runtime_doc(
        engineConfig=mode_annotation("RawDeployment"),
        decoderConfig=mode_annotation("MultiNode"),
        routerConfig=mode_annotation("OMENative"),
    )
    result = running(v13, isvc_doc(engine={}, decoder={}, router={}), runtime)
    assert modes_of(result) == {
        "engine": "RawDeployment (ComponentAnnotation)",
        "decoder": "MultiNode (ComponentAnnotation)",
        "router": "OMENative (ComponentAnnotation)",
    }


def test_a_component_the_isvc_does_not_declare_is_not_created(v13):
    runtime = runtime_doc(engineConfig={}, decoderConfig=mode_annotation("MultiNode"))
    assert modes_of(running(v13, isvc_doc(engine={}), runtime)) == {
        "engine": "RawDeployment (Default)"
    }


def test_a_router_in_multinode_fails_at_run_time(v13):
    """A runtime whose routerConfig declares MultiNode passes matching, but a router
    can't run in that mode ... The manager logs Failed to reconcile component with
    invalid deployment mode for router, and records no event."""
    runtime = runtime_doc(routerConfig=mode_annotation("MultiNode"))
    isvc = isvc_doc(deploymentMode="OMENative", engine={}, router={})
    assert match(v13, isvc, runtime).passed
    result = running(v13, isvc, runtime)
    assert modes_of(result) == {
        "engine": "OMENative (ServiceSpec)",
        "router": "MultiNode (ComponentAnnotation)",
    }
    assert result.reconcile == {"router": "invalid deployment mode for router"}


def test_without_spec_router_there_is_no_router_to_fail(v13):
    """For an InferenceService that sets spec.router and gets that runtime ..."""
    runtime = runtime_doc(routerConfig=mode_annotation("MultiNode"))
    result = running(v13, isvc_doc(engine={}), runtime)
    assert result.reconcile == {}


# --- Resolve a conflict ---------------------------------------------------------


def test_removing_or_matching_the_isvc_mode_runs_the_component_in_the_runtimes_mode(v13):
    """Change the InferenceService's mode for that component to the runtime's, or
    remove it. Either way, the component runs in the runtime's mode."""
    runtime = engine_runtime("MultiNode")
    for isvc in (isvc_doc(engine={}), isvc_doc(engine=mode_annotation("MultiNode"))):
        assert match(v13, isvc, runtime).passed
        assert running(v13, isvc, runtime).components["engine"].mode == "MultiNode"


def test_a_named_runtime_runs_in_its_mode_unless_the_component_annotation_sets_one(v13):
    """Name the runtime in spec.runtime.name. OME uses it with a warning, and the
    component runs in the runtime's mode unless the component's own annotation sets one."""
    runtime = engine_runtime("MultiNode")
    isvc = isvc_doc(deploymentMode="OMENative", engine={}, runtime={"name": "rt"})
    assert not match(v13, isvc, runtime).passed
    assert running(v13, isvc, runtime, named=True).components["engine"].mode == "MultiNode"


# --- The example -------------------------------------------------------------


def test_the_page_example_runtime_is_skipped_for_the_example_isvc(v13):
    """Auto-selection skips the runtime above, and any other runtime whose engine
    declares a mode other than OMENative."""
    from conftest import EXAMPLES

    from modetable.engine.matching import match_runtime
    from modetable.inputs.sources import read_cluster

    cluster = read_cluster([str(EXAMPLES)], v13.rules.manifests)
    isvc = cluster.find_isvc("llama-demo/llama-3-70b")
    verdicts = {
        r.name: match_runtime(v13, cluster, isvc, r, False).reason for r in cluster.runtimes
    }
    assert verdicts == {
        "srt-llama-3-3-70b-instruct-multinode": mismatch("engine", "MultiNode", "OMENative"),
        "srt-llama-3-3-70b-instruct": None,
    }
