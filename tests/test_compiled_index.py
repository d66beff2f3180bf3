"""The runtime index prunes exactly what the interpreting matcher rejects."""

from __future__ import annotations

import itertools

from conftest import cluster_of, isvc_doc, mode_annotation, runtime_doc
from corpus import catalog

from modetable.engine.index import build_index, request_of
from modetable.engine.matching import match_runtime, requested_modes

MODES = (None, "RawDeployment", "OMENative", "MultiNode", "MultiNodeRayVLLM", "Bogus")


def _runtimes():
    """Every combination of engine and decoder declarations, plus noise that never counts."""
    docs = []
    for index, (engine, decoder) in enumerate(itertools.product(MODES, MODES)):
        spec = {"engineConfig": mode_annotation(engine) if engine else {"runner": {}}}
        if decoder:
            spec["decoderConfig"] = mode_annotation(decoder)
        if index % 3 == 0:
            spec["routerConfig"] = mode_annotation("MultiNode")
        kind = "ServingRuntime" if index % 4 == 0 else "ClusterServingRuntime"
        docs.append(runtime_doc(f"rt-{index:02d}", kind, **spec))
    return docs


def _isvcs():
    docs = []
    for index, (engine, decoder, service) in enumerate(
        itertools.product(MODES, (*MODES, "absent"), (None, "OMENative", "RawDeployment"))
    ):
        spec = {"engine": mode_annotation(engine) if engine else {}}
        if decoder != "absent":
            spec["decoder"] = mode_annotation(decoder) if decoder else {}
        if service:
            spec["deploymentMode"] = service
        docs.append(isvc_doc(f"isvc-{index:03d}", **spec))
    return docs


def _assert_index_agrees(policy, cluster):
    index = build_index(policy, cluster)
    for isvc in cluster.isvcs:
        requested = requested_modes(policy, isvc)
        expected = {
            runtime
            for runtime in cluster.runtimes
            if match_runtime(policy, cluster, isvc, runtime, False, requested).passed
        }
        assert index.mode_passing(request_of(requested)) == expected, isvc.name


def test_the_index_agrees_with_the_matcher_on_every_declaration(ruleset):
    for version in ruleset.versions:
        policy = ruleset.at(version)
        cluster = cluster_of(policy, *_runtimes(), *_isvcs())
        _assert_index_agrees(policy, cluster)


def test_the_index_agrees_with_the_matcher_on_the_catalog():
    ome = catalog("v1.3")
    _assert_index_agrees(ome.policy, ome.cluster)
    _assert_index_agrees(ome.policy, cluster_of(ome.policy, *_runtimes()[:12]))


def test_candidates_are_the_namespaces_runtimes_and_the_clusters(v13):
    cluster = cluster_of(
        v13,
        runtime_doc("a", "ServingRuntime", namespace="ns"),
        runtime_doc("b"),
        runtime_doc("c", "ServingRuntime", namespace="other"),
    )
    index = build_index(v13, cluster)
    assert [r.name for r in index.candidates("ns")] == ["a", "b"]
    assert [r.name for r in index.candidates("other")] == ["b", "c"]
    assert [r.name for r in index.candidates("empty")] == ["b"]
    assert [r.name for r in index.candidates("ns")] == [r.name for r in cluster.runtimes_for("ns")]
