"""The fleet's fast selection gives what `selection.select` gives, over the real
catalog and a synthetic fleet: every field of select's JSON, and with
`candidates`, every candidate and every check it ran."""

from __future__ import annotations

import sys

import pytest
import yaml
from conftest import CATALOG, ROOT, cluster_of, isvc_doc, mode_annotation, need, runtime_doc

from modetable.audit.fast import FleetSelector
from modetable.inputs.manifests import build_cluster
from modetable.inputs.sources import parse_objects, read_cluster
from modetable.parsing.yamlio import load_documents
from modetable.selection import outcome_json, select
from modetable.selection.report import check_json

sys.path.insert(0, str(ROOT / "bench"))
from fleet import Fleet


def _traces(outcome):
    return [[check_json(c) for c in candidate.checks] for candidate in outcome.candidates]


def assert_fast_agrees(policy, cluster) -> list[str]:
    fast = FleetSelector(policy, cluster)
    full = FleetSelector(policy, cluster, candidates=True)
    results = []
    for isvc in cluster.isvcs:
        reference = select(policy, cluster, isvc)
        expected = outcome_json(reference)
        with_candidates = full.select(isvc)
        assert outcome_json(with_candidates) == expected, isvc.ref
        assert _traces(with_candidates) == _traces(reference), isvc.ref
        got = outcome_json(fast.select(isvc))
        assert got.pop("candidates") == []
        expected.pop("candidates")
        assert got == expected, isvc.ref
        results.append(reference.result)
    return results


def _synthetic(policy, isvcs: int, runtimes: int, seed: int):
    text = yaml.safe_dump_all(Fleet(isvcs, runtimes, seed).build().documents(), sort_keys=False)
    objects, skipped = parse_objects(load_documents(text, "fleet.yaml"), policy.rules.manifests)
    return build_cluster(objects, skipped, policy.rules.manifests)


@pytest.mark.parametrize("version", ["v1.2.2", "v1.3"])
def test_fast_selection_agrees_on_a_synthetic_fleet(ruleset, version):
    policy = ruleset.at(version)
    results = assert_fast_agrees(policy, _synthetic(policy, 120, 50, seed=3))
    # The fleet exercises the paths that matter: picked, none, named.
    assert {"picked", "none", "named_unsupported"} <= set(results)


def test_fast_selection_agrees_on_the_catalog(ruleset):
    need(CATALOG)
    policy = ruleset.at("v1.3")
    folders = [str(CATALOG / part) for part in ("runtimes", "inferenceservices", "models")]
    cluster = read_cluster(folders, policy.rules.manifests)
    assert len(assert_fast_agrees(policy, cluster)) == len(cluster.isvcs)


MODEL = {
    "apiVersion": "ome.io/v1beta1",
    "kind": "ClusterBaseModel",
    "metadata": {"name": "m"},
    "spec": {
        "modelFormat": {"name": "safetensors", "version": "1.0.0"},
        "modelFramework": {"name": "transformers", "version": "4.47.0"},
        "modelArchitecture": "LlamaForCausalLM",
        "modelParameterSize": "8B",
    },
}


def _entry(**extra):
    entry = {
        "modelFormat": {"name": "safetensors", "version": "1.0.0"},
        "modelFramework": {"name": "transformers", "version": "4.47.0"},
        "modelArchitecture": "LlamaForCausalLM",
        "autoSelect": True,
    }
    entry.update(extra)
    return entry


def test_fast_selection_agrees_on_the_edges(ruleset):
    """Ties broken by scope and name, a runtime in the namespace beating a better
    cluster one, accelerator classes, disabled runtimes, sizes, and no runtime."""
    documents = [
        MODEL,
        runtime_doc("a", supportedModelFormats=[_entry(priority=2)]),
        runtime_doc("b", supportedModelFormats=[_entry(priority=2)]),
        runtime_doc("local", "ServingRuntime", namespace="ns", supportedModelFormats=[_entry()]),
        runtime_doc("a", "ServingRuntime", namespace="other", supportedModelFormats=[_entry()]),
        runtime_doc("off", disabled=True, supportedModelFormats=[_entry(priority=9)]),
        runtime_doc(
            "h100",
            supportedModelFormats=[_entry(priority=5)],
            acceleratorRequirements={"acceleratorClasses": ["nvidia-h100"]},
        ),
        runtime_doc(
            "small", supportedModelFormats=[_entry(priority=7)], modelSizeRange={"max": "1B"}
        ),
        runtime_doc(
            "multinode",
            supportedModelFormats=[_entry(priority=8)],
            engineConfig=mode_annotation("MultiNode"),
        ),
        runtime_doc("manual", supportedModelFormats=[_entry(autoSelect=False, priority=9)]),
        isvc_doc("in-ns", "ns"),
        isvc_doc("elsewhere", "other"),
        isvc_doc("third", "third"),
        isvc_doc(
            "wants-h100",
            "third",
            engine={"acceleratorOverride": {"acceleratorClass": "nvidia-h100"}},
        ),
        isvc_doc(
            "wants-a100",
            "third",
            engine={"acceleratorOverride": {"acceleratorClass": "nvidia-a100"}},
        ),
        isvc_doc("pins-multinode", "third", engine=mode_annotation("MultiNode")),
        isvc_doc("native", "third", deploymentMode="OMENative"),
        isvc_doc("names-one", "third", runtime={"name": "multinode"}, deploymentMode="OMENative"),
        isvc_doc("no-model", "third", model={"name": "absent"}),
        {
            **MODEL,
            "metadata": {"name": "sharded"},
            "spec": {**MODEL["spec"], "distribution": "Sharded"},
        },
        isvc_doc("sharded", "third", model={"name": "sharded"}),
    ]
    for version in ruleset.versions:
        policy = ruleset.at(version)
        cluster = cluster_of(policy, *documents)
        fast = FleetSelector(policy, cluster)
        picked = {
            isvc.name: (o.runtime.ref if (o := fast.select(isvc)).runtime else o.result)
            for isvc in cluster.isvcs
        }
        assert picked["in-ns"] == "ns/local"
        assert picked["elsewhere"] == "other/a"
        assert picked["wants-a100"] == "none"
        assert_fast_agrees(policy, cluster)
    assert picked == {
        "in-ns": "ns/local",
        "elsewhere": "other/a",
        "third": "multinode",
        "wants-h100": "h100",
        "wants-a100": "none",
        "pins-multinode": "multinode",
        "native": "h100",
        "names-one": "multinode",
        "no-model": "model_missing",
        "sharded": "model_sharded",
    }
