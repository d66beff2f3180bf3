"""How a component's running mode is resolved (ome-mode-facts.md), at v1.3 and v1.2.2."""

from __future__ import annotations

import pytest
from conftest import isvc_doc, mode_annotation, runtime_doc
from helpers_modes import modes_of, reading_named, running

LEADER = {"leader": {"runner": {"image": "x"}}}
WORKER = {"worker": {"size": 1}}


def with_service_annotation(isvc: dict, value: str) -> dict:
    isvc["metadata"]["annotations"] = {"ome.io/deploymentMode": value}
    return isvc


def test_default_is_rawdeployment(v13, v122):
    for policy in (v13, v122):
        assert modes_of(running(policy, isvc_doc(engine={}, router={}))) == {
            "engine": "RawDeployment (Default)",
            "router": "RawDeployment (Default)",
        }


@pytest.mark.parametrize("shape", [LEADER, WORKER, {**LEADER, **WORKER}])
def test_a_leader_or_worker_makes_omenative_in_v13_and_multinode_in_v122(v13, v122, shape):
    isvc = isvc_doc(engine=dict(shape), decoder=dict(shape))
    assert modes_of(running(v13, isvc)) == {
        "engine": "OMENative (LeaderWorkerShape)",
        "decoder": "OMENative (LeaderWorkerShape)",
    }
    assert modes_of(running(v122, isvc)) == {
        "engine": "MultiNode (LeaderWorkerShape)",
        "decoder": "MultiNode (LeaderWorkerShape)",
    }


def test_a_leader_from_the_runtime_counts_too(v13):
    runtime = runtime_doc(engineConfig=dict(LEADER))
    assert modes_of(running(v13, isvc_doc(engine={}), runtime)) == {
        "engine": "OMENative (LeaderWorkerShape)"
    }


def test_the_router_never_takes_the_leader_worker_shape(v13):
    assert modes_of(running(v13, isvc_doc(router=dict(LEADER)))) == {
        "router": "RawDeployment (Default)"
    }


def test_a_component_annotation_beats_the_shape(v13):
    isvc = isvc_doc(engine={**LEADER, **mode_annotation("MultiNode")})
    assert modes_of(running(v13, isvc)) == {"engine": "MultiNode (ComponentAnnotation)"}


def test_spec_deployment_mode_beats_the_shape(v13):
    isvc = isvc_doc(deploymentMode="RawDeployment", engine=dict(LEADER))
    assert modes_of(running(v13, isvc)) == {"engine": "RawDeployment (ServiceSpec)"}


def test_spec_deployment_mode_applies_to_the_router(v13):
    isvc = isvc_doc(deploymentMode="OMENative", engine={}, router={})
    assert modes_of(running(v13, isvc)) == {
        "engine": "OMENative (ServiceSpec)",
        "router": "OMENative (ServiceSpec)",
    }


def test_virtual_deployment_on_the_isvc_makes_every_component_virtual(v13):
    isvc = with_service_annotation(isvc_doc(engine={}, router={}), "VirtualDeployment")
    result = running(v13, isvc)
    assert modes_of(result) == {
        "engine": "VirtualDeployment (ServiceAnnotation)",
        "router": "VirtualDeployment (ServiceAnnotation)",
    }
    assert result.no_workload
    assert result.reconcile == {}


def test_virtual_deployment_on_the_isvc_makes_every_component_virtual_in_v122_too(v122):
    """VirtualDeployment is legacy, not new: the InferenceService's own annotation
    made it virtual (no workload) before v1.3 as well, not a reconcile failure."""
    isvc = with_service_annotation(isvc_doc(engine={}, router={}), "VirtualDeployment")
    result = running(v122, isvc)
    assert modes_of(result) == {
        "engine": "VirtualDeployment (ServiceAnnotation)",
        "router": "VirtualDeployment (ServiceAnnotation)",
    }
    assert result.no_workload
    assert result.reconcile == {}


def test_no_other_value_counts_on_the_isvc_in_v13(v13):
    """ServiceAnnotation: no other value counts there (the v1.2.2 annotation does not count)."""
    isvc = with_service_annotation(isvc_doc(engine=dict(LEADER)), "MultiNode")
    result = running(v13, isvc)
    assert modes_of(result) == {"engine": "OMENative (LeaderWorkerShape)"}
    reading = result.components["engine"].readings[0]
    assert (reading.source_label, reading.verdict) == ("ServiceAnnotation", "not_accepted")


def test_no_other_value_counts_on_the_isvc_in_v122_either(v122):
    """v1.2.2's webhook stamped the annotation; its components never read it back."""
    isvc = with_service_annotation(isvc_doc(engine=dict(LEADER)), "RawDeployment")
    result = running(v122, isvc)
    assert modes_of(result) == {"engine": "MultiNode (LeaderWorkerShape)"}
    reading = reading_named(result.components["engine"], "ServiceAnnotation")
    assert (reading.value, reading.verdict) == ("RawDeployment", "not_accepted")


def test_virtual_deployment_on_a_component_fails_and_stops_later_components(v13):
    isvc = isvc_doc(engine=mode_annotation("VirtualDeployment"), decoder={}, router={})
    result = running(v13, isvc)
    assert result.reconcile == {
        "engine": "invalid deployment mode for engine",
        "decoder": "not reconciled because engine failed before it",
        "router": "not reconciled because engine failed before it",
    }


def test_virtual_deployment_on_the_decoder_leaves_the_engine_running(v13):
    isvc = isvc_doc(engine={}, decoder=mode_annotation("VirtualDeployment"), router={})
    assert running(v13, isvc).reconcile == {
        "decoder": "invalid deployment mode for decoder",
        "router": "not reconciled because decoder failed before it",
    }


def test_a_misspelled_isvc_annotation_hides_the_runtimes_after_the_merge(v13):
    """The merge is key by key and the InferenceService's key wins, even with a
    misspelled value: the component annotation then gives no mode."""
    isvc = isvc_doc(deploymentMode="OMENative", engine=mode_annotation("multinode"))
    result = running(v13, isvc, runtime_doc(engineConfig=mode_annotation("MultiNode")))
    assert modes_of(result) == {"engine": "OMENative (ServiceSpec)"}
    reading = reading_named(result.components["engine"], "ComponentAnnotation")
    assert (reading.value, reading.verdict, reading.origin) == ("multinode", "not_valid", "isvc")


def test_a_named_runtime_is_used_with_its_inheritance_merged(v13):
    parent = runtime_doc("parent", disabled=True, engineConfig=mode_annotation("MultiNode"))
    child = runtime_doc("child", annotations={"ome.io/inherit-from": "parent"}, engineConfig={})
    isvc = isvc_doc(engine={}, runtime={"name": "child"})
    assert modes_of(running(v13, isvc, child, parent, named=True)) == {
        "engine": "MultiNode (ComponentAnnotation)"
    }
    assert modes_of(running(v13, isvc, child, parent, named=False)) == {
        "engine": "RawDeployment (Default)"
    }


def test_v122_has_no_inheritance_so_a_named_runtime_runs_as_it_is(v122):
    parent = runtime_doc("parent", disabled=True, engineConfig=mode_annotation("MultiNode"))
    child = runtime_doc("child", annotations={"ome.io/inherit-from": "parent"}, engineConfig={})
    isvc = isvc_doc(engine={}, runtime={"name": "child"})
    assert modes_of(running(v122, isvc, child, parent, named=True)) == {
        "engine": "RawDeployment (Default)"
    }


def test_a_router_in_multinode_fails_in_v122_too(v122):
    runtime = runtime_doc(routerConfig=mode_annotation("MultiNode"))
    result = running(v122, isvc_doc(engine={}, router={}), runtime)
    assert modes_of(result) == {
        "engine": "RawDeployment (Default)",
        "router": "MultiNode (ComponentAnnotation)",
    }
    assert result.reconcile == {"router": "invalid deployment mode for router"}


def test_a_router_in_any_mode_it_cannot_run_gets_the_routers_error(v13, v122):
    """OME's router reconciler has one error for every mode it has no workload for."""
    virtual = isvc_doc(engine={}, router=mode_annotation("VirtualDeployment"))
    assert running(v13, virtual).reconcile == {"router": "invalid deployment mode for router"}
    ray = isvc_doc(engine={}, router=mode_annotation("MultiNodeRayVLLM"))
    assert running(v122, ray).reconcile == {"router": "invalid deployment mode for router"}
    assert modes_of(running(v13, ray)) == {
        "engine": "RawDeployment (Default)",
        "router": "RawDeployment (Default)",
    }
