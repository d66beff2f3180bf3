"""The inputs the differential tests share. Tests that compare two ways of
computing one thing (the fleet's selector and `selection.select`, planned and
walked admission, the runtime index and the matcher, the JSON fast path and
yamlio, the Python API and the commands) draw their clusters from here:

- OME's catalog (../shared/ome-catalog): its documents, its cluster in each
  version of the rules, and `select`'s outcome for each of its InferenceServices,
  with every step run (the reference) and through the fleet's evaluator;
- one synthetic fleet (bench/fleet.py: 300 InferenceServices, 60 runtimes),
  as documents and as a cluster in each version;
- the fixed part of the look-alike clusters: a model and the runtimes that
  hypothesis's look-alike InferenceServices meet (test_fleet_differential.py).

Each is built once per test session (once per worker under pytest-xdist) and
never changed by a test: what one test computed on it, the next reads.
"""

from __future__ import annotations

import copy
import functools
import sys
from pathlib import Path
from typing import Any

import attrs
import yaml
from conftest import CATALOG, ROOT, RULES, mode_annotation, model_doc, need, runtime_doc

from modetable.inputs.manifests import Cluster, build_cluster
from modetable.inputs.sources import parse_objects, read_cluster
from modetable.parsing.yamlio import load_documents
from modetable.rules import Policy, RuleSet, load_ruleset
from modetable.selection import Evaluator, Memoised, Outcome, select

sys.path.insert(0, str(ROOT / "bench"))
from fleet import Fleet


@functools.cache
def rules() -> RuleSet:
    return load_ruleset(RULES)


@attrs.frozen
class Corpus:
    """A cluster read in one version of the rules."""

    policy: Policy
    cluster: Cluster

    @functools.cached_property
    def outcomes(self) -> dict[str, Outcome]:
        """`select`'s outcome for each InferenceService, every candidate's checks
        with it, by reference (namespace/name)."""
        return {isvc.ref: select(self.policy, self.cluster, isvc) for isvc in self.cluster.isvcs}

    @functools.cached_property
    def evaluator(self) -> Evaluator:
        """The fleet's evaluator (the `Memoised` strategy), assessing every
        candidate: the outcomes of `outcomes` for a tenth of the work (the
        differential tests compare the two), its memo filled by every test of
        the worker that asks. For the tests about what is done with an outcome,
        not about how it is found."""
        return Evaluator(
            self.policy, self.cluster, Memoised(self.policy, self.cluster), candidates=True
        )

    @functools.cached_property
    def memoised_outcomes(self) -> dict[str, Outcome]:
        """`outcomes`, each found through `evaluator`."""
        return {
            isvc.ref: select(self.policy, self.cluster, isvc, self.evaluator)
            for isvc in self.cluster.isvcs
        }


# --- OME's catalog ------------------------------------------------------------------


@functools.cache
def catalog_files() -> dict[Path, tuple[Any, ...]]:
    """Every YAML file of the catalog, in the order modetable reads them, with its
    documents as PyYAML's safe loader gives them (libyaml's, when installed: the
    same loader in C)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    files = sorted(p for p in need(CATALOG).rglob("*") if p.suffix in (".yaml", ".yml", ".json"))
    return {path: tuple(yaml.load_all(path.read_text(), Loader=loader)) for path in files}


def catalog_documents() -> list[Any]:
    """Every document of the catalog, file after file: a copy of its own for the
    caller, who may change it."""
    every = [document for documents in catalog_files().values() for document in documents]
    return copy.deepcopy(every)


@functools.cache
def catalog(version: str = "v1.3") -> Corpus:
    """The whole catalog, read as `modetable` reads a folder, in `version`."""
    policy = rules().at(version)
    return Corpus(policy, read_cluster([str(need(CATALOG))], policy.rules.manifests))


# --- the synthetic fleet ------------------------------------------------------------

# Big enough that every kind of outcome is in it (picked, named, named and not
# supported, none, the runtime or the model missing), small enough to compare
# every InferenceService of it in a second or two.
FLEET = {"isvcs": 300, "runtimes": 60, "seed": 5}


@functools.cache
def _fleet_documents() -> tuple[dict[str, Any], ...]:
    return tuple(Fleet(FLEET["isvcs"], FLEET["runtimes"], FLEET["seed"]).build().documents())


def fleet_documents() -> list[dict[str, Any]]:
    """The fleet's models, runtimes and InferenceServices, as bench/fleet.py makes them."""
    return list(_fleet_documents())


@functools.cache
def fleet_yaml() -> str:
    return yaml.safe_dump_all(_fleet_documents(), sort_keys=False)


@functools.cache
def fleet(version: str = "v1.3") -> Corpus:
    """The fleet read from one YAML file, `fleet.yaml`, in `version`."""
    policy = rules().at(version)
    manifests = policy.rules.manifests
    objects, skipped = parse_objects(load_documents(fleet_yaml(), "fleet.yaml"), manifests)
    return Corpus(policy, build_cluster(objects, skipped, manifests))


# --- the look-alike clusters' fixed part ---------------------------------------------

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
SHARDED_MODEL = {
    **MODEL,
    "metadata": {"name": "sharded"},
    "spec": {**MODEL["spec"], "distribution": "Sharded"},
}


def entry(**extra: Any) -> dict[str, Any]:
    """A supportedModelFormats entry that MODEL matches, with `extra` fields."""
    found = {
        "modelFormat": {"name": "safetensors", "version": "1.0.0"},
        "modelFramework": {"name": "transformers", "version": "4.47.0"},
        "modelArchitecture": "LlamaForCausalLM",
        "autoSelect": True,
    }
    found.update(extra)
    return found


# What look-alike InferenceServices meet: the models (cluster-wide and in
# namespace ns) and runtimes of each kind the rules tell apart (modes declared
# per component, disabled, namespace-scoped, accelerator classes), each of a
# different priority.
LOOK_ALIKE_WORLD = (
    MODEL,
    SHARDED_MODEL,
    model_doc("nsmodel", "BaseModel", "ns", **MODEL["spec"]),
    runtime_doc("plain", supportedModelFormats=[entry(priority=2)]),
    runtime_doc(
        "multinode",
        supportedModelFormats=[entry(priority=8)],
        engineConfig=mode_annotation("MultiNode"),
    ),
    runtime_doc(
        "native",
        supportedModelFormats=[entry(priority=3)],
        engineConfig=mode_annotation("OMENative"),
        decoderConfig=mode_annotation("OMENative"),
    ),
    runtime_doc(
        "routed",
        supportedModelFormats=[entry(priority=4)],
        routerConfig=mode_annotation("MultiNode"),
    ),
    runtime_doc("off", disabled=True, supportedModelFormats=[entry(priority=9)]),
    runtime_doc(
        "local", "ServingRuntime", namespace="ns", supportedModelFormats=[entry(priority=1)]
    ),
    runtime_doc(
        "h100",
        supportedModelFormats=[entry(priority=5)],
        acceleratorRequirements={"acceleratorClasses": ["nvidia-h100"]},
    ),
)
