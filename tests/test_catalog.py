"""OME's real manifests (../shared/ome-catalog): they load whole, and what the page
says of them holds: no catalog runtime declares a mode, so all pass the check."""

from __future__ import annotations

from collections import Counter

import corpus
import pytest

from modetable.engine.matching import match_runtime, requested_modes
from modetable.inputs.sources import parse_objects, read_documents


@pytest.fixture
def cluster():
    """The catalog read once for the session (tests/corpus.py)."""
    return corpus.catalog("v1.3").cluster


def test_the_catalog_loads_whole(catalog, v13):
    objects, skipped = parse_objects(read_documents([str(catalog)]), v13.rules.manifests)
    assert Counter(o.kind for o in objects) == {
        "ClusterServingRuntime": 207,
        "InferenceService": 148,
        "ClusterBaseModel": 207,
    }
    # Namespaces and Kustomizations are other kinds: skipped, not errors.
    assert skipped == 35


def test_no_catalog_runtime_declares_a_mode(cluster, v13, v122):
    for policy in (v13, v122):
        for isvc in cluster.isvcs:
            requested = requested_modes(policy, isvc)
            for runtime in cluster.runtimes:
                result = match_runtime(policy, cluster, isvc, runtime, False, requested)
                assert result.passed, (isvc.ref, runtime.name)
                assert all(c.declared.mode is None for c in result.components)


def test_the_metadata_annotation_of_sample_isvcs_does_not_count(cluster, v13):
    annotated = [i for i in cluster.isvcs if "ome.io/deploymentMode" in i.annotations]
    assert len(annotated) == 7
    for isvc in annotated:
        (engine, *_) = requested_modes(v13, isvc).values()
        assert engine.mode is None
        assert [r.verdict for r in engine.passed_over] == ["does_not_count"]


def test_multinode_catalog_runtimes_run_omenative_in_v13_and_multinode_in_v122(cluster, v13, v122):
    from modetable.engine.running import effective

    isvc = cluster.find_isvc("kimi-k2-instruct/kimi-k2-instruct")
    runtime = cluster.get("ClusterServingRuntime", "srt-kimi-k2-pd")
    assert runtime is not None
    now = effective(v13, cluster, isvc, runtime, named=True)
    before = effective(v122, cluster, isvc, runtime, named=True)
    assert {c: (r.mode, r.source_label) for c, r in now.components.items()} == {
        "engine": ("OMENative", "LeaderWorkerShape"),
        "decoder": ("OMENative", "LeaderWorkerShape"),
        "router": ("RawDeployment", "Default"),
    }
    assert {c: (r.mode, r.source_label) for c, r in before.components.items()} == {
        "engine": ("MultiNode", "LeaderWorkerShape"),
        "decoder": ("MultiNode", "LeaderWorkerShape"),
        "router": ("RawDeployment", "Default"),
    }
