"""The fleet's shared answers against the reference, on fleets of look-alikes.

The audit keeps answers per what they read (auto-selection per shape; admission,
running modes and no-runtime messages per key), so its one way to say yes where
OME says no is a key that misses something read: two InferenceServices that
differ only there would share an answer. Here hypothesis builds clusters of
InferenceServices that differ from each other in one or two of the fields the
rules read (modes and their misspellings, components and their shapes, named
runtimes, models, replicas, rollout groups), all in one cluster with the
models and runtimes of tests/corpus.py, so that every one of them meets
answers kept for the others, and every outcome of the fleet's selector is
compared with `selection.select` for the same one, field for field, in every
version of the rules.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import cluster_of, isvc_doc, mode_annotation
from corpus import LOOK_ALIKE_WORLD
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fleet_evaluator import assert_memo_agrees

# Mode values as written: each mode, misspellings, a legacy one (a value that
# is not a string is refused when the manifests are read: tests/test_hostile*).
MODES = [
    "OMENative",
    "RawDeployment",
    "MultiNode",
    "VirtualDeployment",
    "omenative",
    "MultiNodeRayVLLM",
    "",
]
CANARY = {"components": ["engine"], "canary": {"steps": [{"capacity": 50, "traffic": 10}]}}

# Each field an InferenceService may carry, with the values it may take.
FIELDS: dict[str, list[Any]] = {
    "deploymentMode": MODES,
    "engine": [
        {},
        {"minReplicas": 0, "maxReplicas": 2},
        {"minReplicas": 3, "maxReplicas": 1},
        {"minReplicas": -1},
        mode_annotation("MultiNode"),
        mode_annotation("OMENative"),
        mode_annotation("omenative"),
        mode_annotation("RawDeployment"),
        {"leader": {}, "worker": {"size": 2}},
        {"worker": {"size": 0}},
        {"annotations": {"ome.io/deploymentMode": "MultiNodeRayVLLM"}},
        {"acceleratorOverride": {"acceleratorClass": "nvidia-h100"}},
    ],
    "decoder": [
        {},
        mode_annotation("OMENative"),
        mode_annotation("MultiNode"),
        {"leader": {}, "worker": {}},
        {"minReplicas": 0},
    ],
    "router": [{}, mode_annotation("MultiNode"), mode_annotation("OMENative")],
    "runtime": [
        {"name": "plain"},
        {"name": "multinode"},
        {"name": "off"},
        {"name": "absent"},
        {"name": "plain", "kind": "ServingRuntime"},
        {"name": "local", "kind": "ServingRuntime"},
        {"name": "plain", "autoSync": False},
        {"kind": "ClusterServingRuntime"},
        {},
    ],
    "model": [
        {"name": "m"},
        {"name": "sharded"},
        {"name": "absent"},
        {"name": "nsmodel", "kind": "BaseModel"},
        {"name": "m", "kind": "BaseModel"},
        {},
    ],
    "rollout": [
        {"groups": [CANARY]},
        {"groups": [{"components": ["engine"], "blueGreen": {}}]},
        {"groups": [{"components": ["engine", "decoder"], "rollingUpdate": {}}]},
        {"groups": [{"components": ["engine"]}, {"components": ["router"]}]},
    ],
}


@st.composite
def look_alikes(draw: st.DrawFn) -> list[dict]:
    """A base InferenceService and variations of it, each changing one or two fields."""
    fields = sorted(FIELDS)
    base = {f: draw(st.sampled_from(FIELDS[f])) for f in draw(st.sets(st.sampled_from(fields)))}
    specs = [base]
    for _ in range(draw(st.integers(3, 10))):
        spec = dict(base)
        for field in draw(st.lists(st.sampled_from(fields), min_size=1, max_size=2)):
            if field in spec and draw(st.booleans()):
                del spec[field]
            else:
                spec[field] = draw(st.sampled_from(FIELDS[field]))
        specs.append(spec)
    return [
        isvc_doc(f"svc-{index}", draw(st.sampled_from(["ns", "other"])), **spec)
        for index, spec in enumerate(specs)
    ]


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(isvcs=look_alikes())
def test_look_alikes_get_the_reference_answers(ruleset, isvcs):
    for version in ruleset.versions:
        policy = ruleset.at(version)
        assert_memo_agrees(policy, cluster_of(policy, *LOOK_ALIKE_WORLD, *isvcs))
