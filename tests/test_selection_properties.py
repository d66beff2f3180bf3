"""Properties of the mode rule inside selection, over generated InferenceServices
and runtimes (hypothesis): a runtime that declares no mode never fails the mode
check; swapping the sides' modes never turns a rejection into a pass; the
decoder is never compared without spec.decoder; the router never is. And of
the outcome: the first runtime that qualifies is the one picked, and the
no-runtime message counts and lists what the candidates say."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import cluster_of, format_entry, isvc_doc, llama_model_spec, model_doc, runtime_doc
from hypothesis import given, settings
from hypothesis import strategies as st

from modetable.inputs.formats import model_facts
from modetable.selection import assess, make_context, select

KEY = "ome.io/deploymentMode"
# Valid modes of either version, a misspelling, and a case variant.
MODES = [
    "RawDeployment",
    "OMENative",
    "MultiNode",
    "VirtualDeployment",
    "MultiNodeRayVLLM",
    "Multinode",
    "omenative",
]
maybe_mode = st.none() | st.sampled_from(MODES)
SETTINGS = settings(max_examples=60, deadline=None)


def annotated(mode: str | None, **extra: Any) -> dict:
    return {**extra, "annotations": {KEY: mode}} if mode else dict(extra)


@st.composite
def isvcs(draw, *, decoder=None, service_mode=True):
    spec: dict[str, Any] = {"model": {"name": "m"}, "engine": annotated(draw(maybe_mode))}
    if decoder if decoder is not None else draw(st.booleans()):
        spec["decoder"] = annotated(draw(maybe_mode))
    if draw(st.booleans()):
        spec["router"] = annotated(draw(maybe_mode))
    if service_mode:
        mode = draw(st.none() | st.sampled_from(["OMENative", "RawDeployment"]))
        if mode:
            spec["deploymentMode"] = mode
    doc = isvc_doc(**spec)
    if draw(st.booleans()):
        doc["metadata"]["annotations"] = {KEY: draw(st.sampled_from(MODES))}
    return doc


@st.composite
def runtimes(draw, *, declares=True, name="rt"):
    """A runtime matching the model; with declares=False, no engineConfig or
    decoderConfig annotation, but everything that never counts may be set."""
    spec: dict[str, Any] = {"supportedModelFormats": [format_entry()]}
    engine = draw(maybe_mode) if declares else None
    decoder = draw(maybe_mode) if declares else None
    shape = {"leader": {"runner": {"name": "x"}}} if draw(st.booleans()) else {}
    spec["engineConfig"] = annotated(engine, **shape)
    if decoder or draw(st.booleans()):
        spec["decoderConfig"] = annotated(decoder)
    if draw(st.booleans()):
        spec["routerConfig"] = annotated(draw(st.sampled_from(MODES)))
    metadata_mode = draw(maybe_mode)
    annotations = {KEY: metadata_mode} if metadata_mode else None
    return runtime_doc(name, annotations=annotations, **spec)


versions = st.sampled_from(["v1.3", "v1.2.2"])


def mode_check(ruleset, version, isvc, runtime):
    policy = ruleset.at(version)
    cluster = cluster_of(policy, isvc, runtime, model_doc(**llama_model_spec()))
    facts = model_facts(policy.rules.selection, cluster.models[0])
    ctx = make_context(policy, cluster, facts, cluster.isvcs[0], "ns")
    candidate = assess(ctx, cluster.runtimes[0], full=True)
    return next(c for c in candidate.checks if c.step == "deployment_mode")


@SETTINGS
@given(version=versions, isvc=isvcs(), runtime=runtimes(declares=False))
def test_a_runtime_that_declares_no_mode_never_fails_the_mode_check(
    ruleset, version, isvc, runtime
):
    assert not mode_check(ruleset, version, isvc, runtime).failed


def swapped(isvc: dict, runtime: dict) -> tuple[dict, dict]:
    """The component annotations' modes exchanged between the two sides."""
    import copy

    isvc, runtime = copy.deepcopy(isvc), copy.deepcopy(runtime)
    for field, config in (("engine", "engineConfig"), ("decoder", "decoderConfig")):
        if field not in isvc["spec"]:
            continue
        mine = isvc["spec"][field].pop("annotations", None)
        theirs = runtime["spec"].setdefault(config, {}).pop("annotations", None)
        if theirs:
            isvc["spec"][field]["annotations"] = theirs
        if mine:
            runtime["spec"][config]["annotations"] = mine
    return isvc, runtime


@SETTINGS
@given(version=versions, isvc=isvcs(service_mode=False), runtime=runtimes())
def test_swapping_the_sides_modes_never_turns_a_rejection_into_a_pass(
    ruleset, version, isvc, runtime
):
    if mode_check(ruleset, version, isvc, runtime).failed:
        assert mode_check(ruleset, version, *swapped(isvc, runtime)).failed


@SETTINGS
@given(version=versions, isvc=isvcs(decoder=False), runtime=runtimes())
def test_the_decoder_is_never_compared_without_spec_decoder(ruleset, version, isvc, runtime):
    check = mode_check(ruleset, version, isvc, runtime)
    decoder = ruleset.rules.components[1].name
    assert decoder not in [c.component for c in check.match.components]
    assert not (check.reason or "").startswith(f"runtime {decoder} ")


@SETTINGS
@given(version=versions, isvc=isvcs(), runtime=runtimes())
def test_the_router_never_is(ruleset, version, isvc, runtime):
    router = next(c.name for c in ruleset.rules.components if c.compared == "never")
    check = mode_check(ruleset, version, isvc, runtime)
    assert router not in [c.component for c in check.match.components]


@st.composite
def fleets(draw):
    count = draw(st.integers(0, 4))
    docs = []
    for index in range(count):
        runtime = draw(runtimes(name=f"rt-{index}"))
        entry = runtime["spec"]["supportedModelFormats"][0]
        entry["autoSelect"] = draw(st.sampled_from([True, False, None]))
        entry["priority"] = draw(st.integers(1, 3))
        if draw(st.booleans()):
            runtime["spec"]["modelSizeRange"] = draw(
                st.sampled_from([{"min": "1B", "max": "4B"}, {"max": "2B"}, {"min": "3B"}])
            )
        if draw(st.booleans()):
            runtime["kind"] = "ServingRuntime"
            runtime["metadata"]["namespace"] = "ns"
        docs.append(runtime)
    return docs


@SETTINGS
@given(version=versions, isvc=isvcs(), fleet=fleets())
def test_the_outcome_agrees_with_its_candidates(ruleset, version, isvc, fleet):
    policy = ruleset.at(version)
    cluster = cluster_of(policy, isvc, model_doc(**llama_model_spec()), *fleet)
    result = select(policy, cluster, cluster.isvcs[0])
    qualifying = [c for c in result.candidates if c.compatible]
    assert [c.compatible for c in result.candidates] == sorted(
        (c.compatible for c in result.candidates), reverse=True
    )
    if not result.resolved:
        # Virtual (v1.3): the controller resolves nothing, whatever qualifies.
        assert (result.runtime, result.no_workload) == (None, True)
        assert result.message == policy.message("virtual_no_runtime")
        return
    if qualifying:
        assert result.runtime is qualifying[0].runtime
        assert result.message is None
        return
    assert result.runtime is None
    if not fleet:
        assert " Checked " not in result.message
        return
    assert f"Checked {len(fleet)} runtimes" in result.message
    listed = sorted(c.name for c in result.candidates if c.listed)
    for candidate in result.candidates:
        shown = f"{candidate.name} ({candidate.reason})" in result.message
        assert shown is candidate.listed
    assert ("Excluded runtimes: " in result.message) is bool(listed)


@pytest.mark.parametrize("version", ["v1.3", "v1.2.2"])
def test_the_swap_helper_really_swaps(ruleset, version):
    """The property above can fail: a swap that did nothing would hide it."""
    isvc = isvc_doc(engine={"annotations": {KEY: "MultiNode"}})
    runtime = runtime_doc(
        supportedModelFormats=[format_entry()], engineConfig={"annotations": {KEY: "RawDeployment"}}
    )
    new_isvc, new_runtime = swapped(isvc, runtime)
    assert new_isvc["spec"]["engine"]["annotations"][KEY] == "RawDeployment"
    assert new_runtime["spec"]["engineConfig"]["annotations"][KEY] == "MultiNode"
    assert mode_check(ruleset, version, new_isvc, new_runtime).failed
