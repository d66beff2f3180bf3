"""Every admission check OME's webhook runs on modes and the components' shape
(ome-webhook-facts.md), each with its exact text at its place in the order, in
every version it is in force, through `admit`, `select` and `audit` alike.

Each case is an InferenceService beside a model and a runtime that fit it
(so the checks not under test pass), and what kubectl would print: the check
that denies (or none), the denial's text, and the warnings.
"""

from __future__ import annotations

import re
from typing import Any

import attrs
import pytest
import yaml
from conftest import ADMISSION_V13 as V13
from conftest import (
    cluster_of,
    format_entry,
    llama_model_spec,
    model_doc,
    rules_copy,
    run_cli,
    runtime_doc,
)

WEBHOOK = 'admission webhook "inferenceservice.ome-webhook-server.validator" denied the request: '
PICKED = "Runtime rt will be auto-selected for model m"


def isvc(spec: dict[str, Any] | None = None, annotations: dict[str, str] | None = None) -> dict:
    metadata: dict[str, Any] = {"name": "svc", "namespace": "ns"}
    if annotations:
        metadata["annotations"] = annotations
    body = {"model": {"name": "m"}, "engine": {}}
    body.update(spec or {})
    body = {k: v for k, v in body.items() if v is not None}
    return {
        "apiVersion": "ome.io/v1beta1",
        "kind": "InferenceService",
        "metadata": metadata,
        "spec": body,
    }


def cluster_docs(*extra: dict) -> list[dict]:
    return [
        model_doc("m", **llama_model_spec()),
        runtime_doc("rt", supportedModelFormats=[format_entry()]),
        *extra,
    ]


def admission_everywhere(tmp_path, docs: list[dict], version: str) -> dict:
    """The admission object of `admit`, `select` and `audit` (one item), which
    must be the same object."""
    path = tmp_path / "m.yaml"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    common = ("--ome-version", version, "-o", "json")
    admitted = run_cli("admit", "--isvc", "ns/svc", str(path), *common)
    selected = run_cli("select", "--isvc", "ns/svc", str(path), *common)
    audited = run_cli("audit", str(path), *common)
    # Another object the API server refuses (a field of a later version) is left out.
    assert admitted.err == selected.err
    assert all("is left out, as the API server refuses it" in w for w in admitted.err.splitlines())
    items = [i for i in audited.json()["items"] if i["isvc"] == "ns/svc"]
    verdict = admitted.json()["admission"]
    assert selected.json()["admission"] == verdict
    assert admitted.code == (0 if verdict["allowed"] else 1)
    if verdict["denied_by"] == "crd-schema":
        # The API server refuses it: it never exists, and the audit says why.
        assert items == []
        found = audited.json()["manifest_findings"]
        assert admitted.json()["schema_findings"] == [
            f for f in found if f["object"]["name"] == "svc"
        ]
        return verdict
    assert len(items) == 1
    assert items[0]["admission"] == verdict
    return verdict


@attrs.frozen
class Case:
    id: str
    spec: dict[str, Any]
    denied_by: str | None
    text: str | None = None
    warnings: tuple[tuple[str, str], ...] = ()  # (check, text)
    annotations: dict[str, str] | None = None
    extra: tuple[dict, ...] = ()


def _denied(case: Case) -> dict:
    checked = V13[: V13.index(case.denied_by) + 1] if case.denied_by else V13
    return {
        "allowed": case.denied_by is None,
        "message": None if case.denied_by is None else WEBHOOK + (case.text or ""),
        "warnings": [w for _, w in case.warnings],
        "denied_by": case.denied_by,
        "warning_checks": [c for c, _ in case.warnings],
        "checked": list(checked),
        "not_checked": [],
    }


def pairing(component: str, reason: str, what: str) -> str:
    return f"InvalidLeaderWorkerPairing: {what} ({reason})".replace("{c}", component)


LEADER_ONLY = "{c}.leader is set but {c}.worker is not; multi-pod configurations require both"
WORKER_ONLY = "{c}.worker is set but {c}.leader is not; multi-pod configurations require both"
SIZE = (
    "{c}.worker.size must be a positive integer when set; leave it unset to use the runtime's "
    "size or one worker"
)


def combination(engine: str, decoder: str) -> str:
    return (
        f'InvalidDeploymentModeCombination: engine deploymentMode="{engine}" does not match '
        f'decoder deploymentMode="{decoder}"; when either is OMENative, both must use the '
        "same value"
    )


def scale_to_zero(component: str) -> str:
    return (
        f"InvalidScaleToZero: {component}.minReplicas=0 requires KEDA autoscaling (set "
        f"spec.{component}.autoscaler.class=KEDA or the ome.io/autoscalerClass=keda annotation); "
        "Serverless mode no longer auto-promotes scale-to-zero"
    )


def strategy(component: str, mode: str) -> str:
    return (
        f'{component}.deploymentStrategy is set but deploymentMode is "{mode}"; '
        "deploymentStrategy applies only to RawDeployment and is ignored here \u2014 use "
        f"{component}.lifecycle.updateStrategy.rollingUpdate for rollout pacing"
    )


def lean(component: str, leader: str, worker: str) -> str:
    return (
        f"MultiPodLeanModelNeedsRunner: {component} is multi-pod with no spec.model and no "
        f'spec.runtime, but {component}.leader.runner.image ("{leader}") or '
        f'{component}.worker.runner.image ("{worker}") is empty; multi-pod lean specs must '
        "declare both runner images"
    )


def mode(value: str) -> dict:
    return {"annotations": {"ome.io/deploymentMode": value}}


MISSING_MODEL = (
    'referenced model "{m}" not found in namespace "ns": ensure a BaseModel exists in this '
    "namespace or a ClusterBaseModel exists cluster-wide with this name"
)
PIN_AUTO_SYNC = (
    "spec.runtime.revision requires spec.runtime.autoSync=false; AutoSync=true would silently "
    "ignore the pin"
)
OWN_IMAGE = {"runner": {"image": "own:1"}}
# A leader's and a worker's runner are containers: OME's CRD requires their name.
LEAN_IMAGES = {
    "leader": {"runner": {"name": "l", "image": "a"}},
    "worker": {"runner": {"name": "w", "image": "b"}},
}

CASES = [
    Case("clean", {}, None, warnings=(("runtime-resolution", PICKED),)),
    # decoder-requires-engine; it runs before the pairing check on the decoder.
    Case(
        "decoder-without-engine",
        {"engine": None, "decoder": {"leader": {}}},
        "decoder-requires-engine",
        "decoder cannot be specified without engine",
    ),
    # leader-worker-pairing: engine first, then decoder; leader, worker, size in turn.
    Case(
        "engine-leader-only",
        {"engine": {"leader": {}}},
        "leader-worker-pairing",
        pairing("engine", "LeaderRequiresWorker", LEADER_ONLY),
    ),
    Case(
        "decoder-worker-only",
        {"decoder": {"worker": {}}},
        "leader-worker-pairing",
        pairing("decoder", "WorkerRequiresLeader", WORKER_ONLY),
    ),
    Case(
        "engine-size-zero-before-decoder-leader-only",
        {"engine": {"leader": {}, "worker": {"size": 0}}, "decoder": {"leader": {}}},
        "leader-worker-pairing",
        pairing("engine", "WorkerSizeMustBePositive", SIZE),
    ),
    Case(
        "decoder-size-negative",
        {"decoder": {"leader": {}, "worker": {"size": -2}}},
        "leader-worker-pairing",
        pairing("decoder", "WorkerSizeMustBePositive", SIZE),
    ),
    Case(
        "size-unset-is-legal",
        {"engine": {"leader": {}, "worker": {}}},
        None,
        warnings=(("runtime-resolution", PICKED),),
    ),
    # Pairing (step 9) before the mode pair (step 12).
    Case(
        "pairing-before-modes",
        {"engine": {**mode("OMENative"), "leader": {}}, "decoder": {}},
        "leader-worker-pairing",
        pairing("engine", "LeaderRequiresWorker", LEADER_ONLY),
    ),
    # lean-multi-pod-runner: only with neither a model nor a runtime named.
    Case(
        "lean-worker-image-empty",
        {
            "model": None,
            "engine": {"leader": {"runner": {"name": "l", "image": "a"}}, "worker": {}},
        },
        "lean-multi-pod-runner",
        lean("engine", "a", ""),
    ),
    Case(
        "lean-decoder-leader-image-empty",
        {
            "model": None,
            "engine": LEAN_IMAGES,
            "decoder": {
                "leader": {"runner": {"name": "l", "image": ""}},
                "worker": {"runner": {"name": "w", "image": 'q"'}},
            },
        },
        "lean-multi-pod-runner",
        lean("decoder", "", 'q\\"'),
    ),
    Case(
        "lean-with-both-images-still-needs-a-model-or-runtime",
        {"model": None, "engine": LEAN_IMAGES},
        "model-or-runtime-required",
        "at least one of spec.model or spec.runtime must be set",
    ),
    # engine-decoder-agree: the modes as written, OMENative compared exactly.
    Case(
        "engine-omenative-decoder-unset",
        {"engine": mode("OMENative"), "decoder": {}},
        "engine-decoder-agree",
        combination("OMENative", ""),
    ),
    Case(
        "engine-omenative-lowercase-decoder-unset",
        {"engine": mode("omenative"), "decoder": {}},
        None,
        warnings=(("runtime-resolution", PICKED),),
    ),
    Case(
        "engine-omenative-lowercase-decoder-omenative",
        {"engine": mode("omenative"), "decoder": {}, "deploymentMode": "OMENative"},
        "engine-decoder-agree",
        combination("omenative", "OMENative"),
    ),
    Case(
        "engine-multinoderayvllm-under-spec-omenative",
        {"engine": mode("MultiNodeRayVLLM"), "decoder": {}, "deploymentMode": "OMENative"},
        "engine-decoder-agree",
        combination("MultiNodeRayVLLM", "OMENative"),
    ),
    Case(
        "both-from-spec-deployment-mode",
        {"decoder": {}, "deploymentMode": "OMENative"},
        None,
        warnings=(("runtime-resolution", PICKED),),
    ),
    Case(
        "quotes-escaped-as-go-does",
        {"engine": mode('say "hi"\n'), "decoder": mode("OMENative")},
        "engine-decoder-agree",
        combination('say \\"hi\\"\\n', "OMENative"),
    ),
    # scale-to-zero: engine, decoder, router; KEDA by annotation or by the component.
    Case(
        "engine-min-zero",
        {"engine": {"minReplicas": 0}},
        "scale-to-zero",
        scale_to_zero("engine"),
    ),
    Case(
        "decoder-before-router",
        {"decoder": {"minReplicas": 0}, "router": {"minReplicas": 0}},
        "scale-to-zero",
        scale_to_zero("decoder"),
    ),
    Case(
        "router-min-zero-keda-class-on-engine-only",
        {"engine": {"autoscaler": {"class": "KEDA"}}, "router": {"minReplicas": 0}},
        "scale-to-zero",
        scale_to_zero("router"),
    ),
    Case(
        "keda-annotation",
        {"engine": {"minReplicas": 0}},
        None,
        warnings=(("runtime-resolution", PICKED),),
        annotations={"ome.io/autoscalerClass": "keda"},
    ),
    Case(
        "keda-annotation-upper-case-is-not-keda",
        {"engine": {"minReplicas": 0}},
        "scale-to-zero",
        scale_to_zero("engine"),
        annotations={"ome.io/autoscalerClass": "KEDA"},
    ),
    Case(
        "keda-class",
        {"engine": {"minReplicas": 0, "autoscaler": {"class": "KEDA"}}},
        None,
        warnings=(("runtime-resolution", PICKED),),
    ),
    # Scale to zero (step 13) before the replica bounds (step 14).
    Case(
        "scale-to-zero-before-bounds",
        {"engine": {"minReplicas": 0}, "router": {"minReplicas": -1}},
        "scale-to-zero",
        scale_to_zero("engine"),
    ),
    # replica-bounds, per component: min, max, then min against max.
    Case(
        "min-negative",
        {"engine": {"minReplicas": -1}},
        "replica-bounds",
        "spec.engine.minReplicas must be >= 0",
    ),
    Case(
        "max-negative",
        {"router": {"maxReplicas": -3}},
        "replica-bounds",
        "spec.router.maxReplicas must be >= 1",
    ),
    Case(
        "min-above-max",
        {"decoder": {"minReplicas": 4, "maxReplicas": 2}},
        "replica-bounds",
        "spec.decoder.minReplicas (4) must be <= maxReplicas (2)",
    ),
    Case(
        "max-zero-is-unset",
        {"engine": {"minReplicas": 4, "maxReplicas": 0}},
        None,
        warnings=(("runtime-resolution", PICKED),),
    ),
    # deployment-strategy-ignored: warnings, kept when a later check denies.
    Case(
        "strategy-under-spec-omenative",
        {"deploymentMode": "OMENative", "engine": {"deploymentStrategy": {}}},
        None,
        warnings=(
            ("deployment-strategy-ignored", strategy("engine", "OMENative")),
            ("runtime-resolution", PICKED),
        ),
    ),
    Case(
        "strategy-metadata-annotation-first-every-component",
        {
            "model": {"name": "absent"},
            "deploymentMode": "RawDeployment",
            "engine": {"deploymentStrategy": {"type": "Recreate"}},
            "router": {"deploymentStrategy": {}},
        },
        "model-exists",
        MISSING_MODEL.replace("{m}", "absent"),
        warnings=(
            ("deployment-strategy-ignored", strategy("engine", "VirtualDeployment")),
            ("deployment-strategy-ignored", strategy("router", "VirtualDeployment")),
        ),
        annotations={"ome.io/deploymentMode": "VirtualDeployment"},
    ),
    Case(
        "strategy-under-raw-deployment",
        {"deploymentMode": "RawDeployment", "engine": {"deploymentStrategy": {}}},
        None,
        warnings=(("runtime-resolution", PICKED),),
    ),
    Case(
        "strategy-dropped-by-an-earlier-denial",
        {"deploymentMode": "OMENative", "engine": {"deploymentStrategy": {}, "minReplicas": -1}},
        "replica-bounds",
        "spec.engine.minReplicas must be >= 0",
    ),
    # model-or-runtime-required.
    Case(
        "neither-model-nor-runtime",
        {"model": None, "runtime": {"name": ""}},
        "model-or-runtime-required",
        "at least one of spec.model or spec.runtime must be set",
    ),
    # runtime-pin.
    Case(
        "pin-with-auto-sync-unset",
        {"runtime": {"name": "rt", "revision": "cr-rt-0123abcd"}},
        "runtime-pin",
        PIN_AUTO_SYNC,
    ),
    Case(
        "pin-cluster-name",
        {"runtime": {"name": "rt", "revision": "cr-rt-0123ABCD", "autoSync": False}},
        "runtime-pin",
        'spec.runtime.revision "cr-rt-0123ABCD" does not match the expected naming convention '
        'for runtime "rt" (ClusterServingRuntime); expected the form cr-rt-<8 lowercase hex chars>',
    ),
    Case(
        "pin-good-cluster-name",
        {"runtime": {"name": "rt", "revision": "cr-rt-0123abcd", "autoSync": False}},
        None,
    ),
    # The docs' example (runtime-revisions.md), in the docs' namespace below.
    Case(
        "pin-before-a-missing-model",
        {"model": {"name": "absent"}, "runtime": {"name": "rt", "revision": "x", "autoSync": True}},
        "runtime-pin",
        PIN_AUTO_SYNC,
    ),
    # model-exists, whatever spec.model.kind says.
    Case(
        "missing-model",
        {"model": {"name": "absent"}},
        "model-exists",
        MISSING_MODEL.replace("{m}", "absent"),
    ),
    # runtime-resolution: the named runtime's denials in OME's words.
    Case(
        "named-runtime-missing",
        {"runtime": {"name": "gone"}},
        "runtime-resolution",
        "runtime gone does not support model m: runtime gone not found in namespace ns or at "
        "cluster scope",
    ),
    Case(
        "named-serving-runtime-missing",
        {"runtime": {"name": "gone", "kind": "ServingRuntime"}},
        "runtime-resolution",
        "runtime gone does not support model m: ServingRuntime gone not found in namespace ns",
    ),
    Case(
        "named-runtime-disabled",
        {"runtime": {"name": "off"}},
        "runtime-resolution",
        "runtime off does not support model m: cluster-scoped runtime off is disabled",
        extra=(runtime_doc("off", disabled=True, supportedModelFormats=[format_entry()]),),
    ),
    Case(
        "named-serving-runtime-disabled",
        {"runtime": {"name": "off", "kind": "ServingRuntime"}},
        "runtime-resolution",
        "runtime off does not support model m: namespace-scoped runtime off is disabled",
        extra=(
            runtime_doc(
                "off", "ServingRuntime", disabled=True, supportedModelFormats=[format_entry()]
            ),
        ),
    ),
    # The model is checked before the runtime is looked up.
    Case(
        "named-runtime-for-a-model-with-no-format",
        {"model": {"name": "raw"}, "runtime": {"name": "gone"}},
        "runtime-resolution",
        "runtime gone does not support model raw: invalid model specification: "
        "modelFormat.name: model format name is required",
        # Ready without a format: OME's model agent is done with it.
        extra=(
            {
                **model_doc("raw", modelFramework={"name": "transformers"}),
                "status": {"state": "Ready"},
            },
        ),
    ),
    # The model is looked up only when the webhook resolves the runtime: with
    # an engine, and a runtime named or no runner image of its own.
    Case(
        "disabled-model",
        {"model": {"name": "off"}},
        "runtime-resolution",
        "model off is disabled",
        extra=(model_doc("off", disabled=True, **llama_model_spec()),),
    ),
    Case(
        "disabled-model-named-runtime-own-image",
        {"model": {"name": "off"}, "runtime": {"name": "rt"}, "engine": OWN_IMAGE},
        "runtime-resolution",
        "model off is disabled",
        extra=(model_doc("off", disabled=True, **llama_model_spec()),),
    ),
    Case(
        "disabled-model-own-image-is-admitted",
        {"model": {"name": "off"}, "engine": OWN_IMAGE},
        None,
        extra=(model_doc("off", disabled=True, **llama_model_spec()),),
    ),
    Case(
        "sharded-model",
        {"model": {"name": "sh"}},
        "runtime-resolution",
        "no model cache provider is configured for sharded model loading",
        extra=(model_doc("sh", distribution="Sharded", **llama_model_spec()),),
    ),
    Case(
        "sharded-model-own-image-is-admitted",
        {"model": {"name": "sh"}, "engine": OWN_IMAGE},
        None,
        extra=(model_doc("sh", distribution="Sharded", **llama_model_spec()),),
    ),
    Case(
        "sharded-model-without-engine-is-admitted",
        {"model": {"name": "sh"}, "engine": None, "router": {}},
        None,
        extra=(model_doc("sh", distribution="Sharded", **llama_model_spec()),),
    ),
    Case(
        "runtime-only-missing-is-admitted",
        {"model": None, "runtime": {"name": "gone"}},
        None,
    ),
    Case(
        "runtime-only-disabled",
        {"model": None, "runtime": {"name": "off"}},
        "runtime-resolution",
        "cluster-scoped runtime off is disabled",
        extra=(runtime_doc("off", disabled=True, supportedModelFormats=[format_entry()]),),
    ),
    Case(
        "runtime-only-disabled-pinned-is-admitted",
        {"model": None, "runtime": {"name": "off", "autoSync": False}},
        None,
        extra=(runtime_doc("off", disabled=True, supportedModelFormats=[format_entry()]),),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_each_check_in_v13(tmp_path, case):
    docs = [isvc(case.spec, case.annotations), *cluster_docs(*case.extra)]
    assert admission_everywhere(tmp_path, docs, "v1.3") == _denied(case)


V122 = ("crd-schema", "model-required", "runtime-resolution")


@pytest.mark.parametrize("version", ["v1.2.2", "v1.3"])
@pytest.mark.parametrize("runtime", [{}, {"kind": "ServingRuntime"}, {"name": None}])
def test_a_runtime_without_a_name_is_refused_by_the_schema(tmp_path, version, runtime):
    """ServingRuntimeRef's name is required, as ModelRef's is: the API server
    refuses the object before the webhook runs (OME's CRD schema)."""
    verdict = admission_everywhere(tmp_path, [isvc({"runtime": runtime}), *cluster_docs()], version)
    assert verdict == {
        "allowed": False,
        "message": 'The InferenceService "svc" is invalid: spec.runtime.name: Required value',
        "warnings": [],
        "denied_by": "crd-schema",
        "warning_checks": [],
        "checked": ["crd-schema"],
        "not_checked": [],
    }


def test_an_empty_runtime_name_passes_the_schema_and_names_no_runtime(tmp_path):
    docs = [isvc({"runtime": {"name": ""}}), *cluster_docs()]
    assert admission_everywhere(tmp_path, docs, "v1.3") == _denied(
        Case("empty-runtime-name", {}, None, warnings=(("runtime-resolution", PICKED),))
    )


# In v1.2.2 none of these checks was there: what was allowed stays allowed,
# unless it writes a field v1.2.2's CRD does not have, which the API server
# refuses under kubectl's default field validation (Strict).
V122_ALLOWED = [c for c in CASES if c.denied_by not in ("model-exists", "runtime-resolution")]


@pytest.mark.parametrize("case", V122_ALLOWED, ids=[c.id for c in V122_ALLOWED])
def test_v122_had_none_of_the_shape_checks(tmp_path, case):
    docs = [isvc(case.spec, case.annotations), *cluster_docs(*case.extra)]
    verdict = admission_everywhere(tmp_path, docs, "v1.2.2")
    if case.spec.get("model", {"name": "m"}) is None:
        return  # v1.2.2's schema requires spec.model
    if _unknown_in_v122(verdict):
        return
    assert verdict["denied_by"] is None
    assert not any(c in verdict["checked"] for c in V13 if c not in V122)


STRICT_V122 = re.compile(
    r'Error from server \(BadRequest\): error when creating "[^"]+": InferenceService in '
    r'version "v1beta1" cannot be handled as a InferenceService: strict decoding error: '
    r'unknown field "spec\.[^"]+"(, unknown field "spec\.[^"]+")*'
)


def _unknown_in_v122(verdict: dict) -> bool:
    """Whether v1.2.2's API server refuses the object for fields its CRD lacks."""
    if verdict["denied_by"] != "crd-schema":
        return False
    assert STRICT_V122.fullmatch(verdict["message"]), verdict["message"]
    assert verdict["checked"] == ["crd-schema"]
    return True


def test_the_pin_example_of_the_docs(tmp_path):
    doc = isvc(
        {
            "model": {"name": "llama-3-2-3b-instruct"},
            "runtime": {
                "name": "sglang-llama-3-2-3b",
                "kind": "ServingRuntime",
                "revision": "cr-sglang-llama-3-2-3b-590753e8",
                "autoSync": False,
            },
        }
    )
    doc["metadata"]["namespace"] = "llama-demo"
    path = tmp_path / "m.yaml"
    path.write_text(yaml.safe_dump(doc))
    run = run_cli("admit", "--isvc", "llama-demo/svc", str(path), "-o", "json")
    assert run.json()["admission"]["message"] == WEBHOOK + (
        'spec.runtime.revision "cr-sglang-llama-3-2-3b-590753e8" does not match the expected '
        'naming convention for runtime "sglang-llama-3-2-3b" (ServingRuntime); expected the '
        "form r-llama-demo-sglang-llama-3-2-3b-<8 lowercase hex chars>"
    )


def test_a_model_the_webhook_finds_by_name_but_not_as_its_kind(tmp_path):
    """The webhook looks a BaseModel up first, then a ClusterBaseModel, whatever
    spec.model.kind says (`selection.model_ref.webhook_lookup`): it admits, and
    its runtime resolution runs with the ClusterBaseModel it found (the
    controller, which follows the kind, finds none: tests/test_model_lookup.py)."""
    docs = [
        isvc({"model": {"name": "m", "kind": "BaseModel"}}),
        *cluster_docs(),
    ]
    verdict = admission_everywhere(tmp_path, docs, "v1.3")
    assert verdict == {
        "allowed": True,
        "message": None,
        "warnings": ["Runtime rt will be auto-selected for model m"],
        "denied_by": None,
        "warning_checks": ["runtime-resolution"],
        "checked": list(V13),
        "not_checked": [],
    }


@pytest.mark.parametrize(
    "spec",
    [
        {"model": {"name": "m", "kind": "BaseModel"}, "engine": None},
        {"model": {"name": "m", "kind": "BaseModel"}, "engine": {"runner": {"image": "own:1"}}},
    ],
    ids=["no-engine", "own-runner-image"],
)
def test_where_the_webhook_resolves_nothing_the_model_kind_leaves_nothing_undecided(tmp_path, spec):
    """Without an engine, or with a runner image of its own and no runtime named,
    the webhook never looks the runtime or model up: runtime resolution has
    nothing to weigh, so it is run (and passes), not left undecided."""
    docs = [isvc(spec), *cluster_docs()]
    verdict = admission_everywhere(tmp_path, docs, "v1.3")
    assert (verdict["allowed"], verdict["not_checked"]) == (True, [])
    assert verdict["checked"] == list(V13)


@pytest.mark.parametrize(
    ("engine", "said"),
    [
        (
            {"worker": {"size": "2"}, "leader": {}},
            'spec.engine.worker.size: Invalid value: "string": spec.engine.worker.size in body '
            'must be of type integer: "string"',
        ),
        # Whether the webhook selects reads it: a number is no image the API
        # server takes.
        (
            {"runner": {"image": 5}},
            'spec.engine.runner.image: Invalid value: "integer": spec.engine.runner.image in '
            'body must be of type string: "integer"',
        ),
        (
            {"runner": "img:1"},
            'spec.engine.runner: Invalid value: "string": spec.engine.runner in body must be of '
            'type object: "string"',
        ),
        # Named up to the value that is wrong, not the field beyond it.
        (
            {"leader": {"runner": 5}, "worker": {}},
            'spec.engine.leader.runner: Invalid value: "integer": spec.engine.leader.runner in '
            'body must be of type object: "integer"',
        ),
    ],
    ids=["worker-size", "runner-image", "runner", "leader-runner"],
)
def test_a_wrong_type_is_refused_by_the_api_server_on_every_command(tmp_path, engine, said):
    path = tmp_path / "m.yaml"
    docs = [isvc({"engine": engine}), *cluster_docs()]
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    for command in (("admit", "--isvc", "ns/svc"), ("select", "--isvc", "ns/svc")):
        run = run_cli(*command, str(path))
        assert (run.code, run.err) == (1, "")
        denied = f'The InferenceService "svc" is invalid: {said}'
        assert run.out == f"InferenceService ns/svc: denied\n{denied}\n"
    # The audit goes on without the object, and says why.
    audit = run_cli("audit", str(path), "-o", "json").json()
    assert audit["items"] == []
    [finding] = audit["manifest_findings"]
    assert (finding["id"], finding["message"]) == ("schema/type", said)


# --- rollout groups (ValidateCanary, then ValidateCoordination) ----------------------

PLAN_SIZE = {
    "check": "rollout-plan-size",
    "why": "a rollout group has an inline progression: its size is checked against the "
    "operator's rollout.maxPinnedPlanBytes, which is not decided here",
}
GOOD_PLAN = {"steps": [{"capacity": "25%", "traffic": 10}, {"capacity": "100%", "traffic": 100}]}


def canary(components: list[str], plan: dict | None = None, **group: Any) -> dict:
    return {"components": components, "canary": plan if plan is not None else GOOD_PLAN, **group}


def rollout(*groups: dict, **spec: Any) -> dict:
    return {"rollout": {"groups": list(groups)}, **spec}


def step(capacity: Any, traffic: int, **more: Any) -> dict:
    return {"capacity": capacity, "traffic": traffic, **more}


def analysis(**fields: Any) -> dict:
    found = {"interval": "30s", "failureLimit": 1, "metrics": [metric()]}
    found.update(fields)
    return found


def metric(**fields: Any) -> dict:
    found = {"name": "errors", "query": "sum(rate(x[1m]))", "threshold": "0.01", "operator": "LT"}
    found.update(fields)
    return found


NATIVE = {"deploymentMode": "OMENative"}
PD = {"engine": {}, "decoder": {}}
G0 = "spec.rollout.groups[0]"
C0 = f"{G0}.canary"


@attrs.frozen
class RolloutCase:
    id: str
    spec: dict[str, Any]
    denied_by: str | None
    text: str | None = None
    inline: bool = True  # an inline progression: the plan-size cap is not decided
    # (check, text) of each warning; None: the runtime's, when allowed.
    warnings: tuple[tuple[str, str], ...] | None = None


def _requires(check: str, component: str, mode: str, group: int = 0) -> str:
    return (
        f'spec.rollout.groups[{group}]: component "{component}" has deploymentMode="{mode}"; '
        f"{check} requires OMENative ({check.capitalize()}RequiresOMENative)"
    )


ROLLOUT_CASES = [
    RolloutCase("canary-native", rollout(canary(["engine"]), **NATIVE), None),
    RolloutCase(
        "canary-needs-omenative-declared",
        rollout(canary(["engine"]), engine={"leader": {}, "worker": {}}),
        "rollout-canary",
        _requires("canary", "engine", ""),
    ),
    RolloutCase(
        "canary-mode-as-written",
        rollout(canary(["engine"]), engine=mode("omenative")),
        "rollout-canary",
        _requires("canary", "engine", "omenative"),
    ),
    RolloutCase(
        "one-canary-run-per-unit",
        rollout(canary(["engine"]), canary(["decoder"]), **PD, **NATIVE),
        "rollout-canary",
        'spec.rollout.groups: canary unit "engine" is driven by both groups[0] and groups[1]; '
        "a unit may have at most one canary run (MultipleCanaryGroups)",
    ),
    RolloutCase(
        "steps-empty",
        rollout(canary(["engine"], {"steps": []}), **NATIVE),
        "rollout-canary",
        f"{C0}.steps must not be empty (CanaryInvalid)",
    ),
    RolloutCase(
        "interval-missing",
        rollout(
            canary(["engine"], {"steps": [step("100%", 100, analysis={"failureLimit": 1})]}),
            **NATIVE,
        ),
        "rollout-canary",
        f"{C0}.steps[0].analysis: interval must be > 0 (AnalysisInvalid)",
    ),
    RolloutCase(
        "failure-limit-zero",
        rollout(
            canary(["engine"], {"steps": [step("100%", 100, analysis=analysis(failureLimit=0))]}),
            **NATIVE,
        ),
        "rollout-canary",
        f"{C0}.steps[0].analysis: failureLimit must be >= 1 (AnalysisInvalid)",
    ),
    RolloutCase(
        "metrics-required",
        rollout(
            canary(["engine"], {"steps": [step("100%", 100, analysis=analysis(metrics=[]))]}),
            **NATIVE,
        ),
        "rollout-canary",
        f"{C0}.steps[0].analysis: at least one metric is required (AnalysisInvalid)",
    ),
    RolloutCase(
        "metric-duplicate",
        rollout(
            canary(
                ["engine"],
                {"steps": [step("100%", 100, analysis=analysis(metrics=[metric(), metric()]))]},
            ),
            **NATIVE,
        ),
        "rollout-canary",
        f'{C0}.steps[0].analysis.metrics[1]: duplicate metric name "errors" (AnalysisInvalid)',
    ),
    RolloutCase(
        "query-blank",
        rollout(
            canary(
                ["engine"],
                {"steps": [step("100%", 100, analysis=analysis(metrics=[metric(query=" \t")]))]},
            ),
            **NATIVE,
        ),
        "rollout-canary",
        f'{C0}.steps[0].analysis.metrics[0] ("errors"): query must not be empty (AnalysisInvalid)',
    ),
    RolloutCase(
        "threshold-not-numeric",
        rollout(
            canary(
                ["engine"],
                {
                    "steps": [
                        step("100%", 100, analysis=analysis(metrics=[metric(threshold="1_0")]))
                    ]
                },
            ),
            **NATIVE,
        ),
        "rollout-canary",
        f'{C0}.steps[0].analysis.metrics[0] ("errors"): threshold "1_0" must be numeric '
        "(AnalysisInvalid)",
    ),
    RolloutCase(
        "operator-unknown",
        rollout(
            canary(
                ["engine"],
                {"steps": [step("100%", 100, analysis=analysis(metrics=[metric(operator="EQ")]))]},
            ),
            **NATIVE,
        ),
        "rollout-canary",
        f'{C0}.steps[0].analysis.metrics[0] ("errors"): operator "EQ" must be one of '
        "LT/LTE/GT/GTE (AnalysisInvalid)",
    ),
    RolloutCase(
        "ready-timeout-zero",
        rollout(canary(["engine"], {**GOOD_PLAN, "readyTimeout": "0s"}), **NATIVE),
        "rollout-canary",
        f"{C0}.readyTimeout must be > 0 when set (CanaryInvalid)",
    ),
    RolloutCase(
        "final-traffic",
        rollout(canary(["engine"], {"steps": [step("100%", 50)]}), **NATIVE),
        "rollout-canary",
        f"{C0} final step traffic must be 100, got 50 (CanaryInvalid)",
    ),
    RolloutCase(
        "capacity-quoted-count",
        rollout(canary(["engine"], {"steps": [step("3", 0), step("100%", 100)]}), **NATIVE),
        "rollout-canary",
        f'{C0}.steps[0].capacity: capacity "3" is not a percentage \u2014 use "<N>%" for a '
        "fraction of desired replicas, or an unquoted integer for an absolute count "
        "(CanaryInvalid)",
    ),
    RolloutCase(
        "capacity-negative",
        rollout(canary(["engine"], {"steps": [step(-1, 0), step("100%", 100)]}), **NATIVE),
        "rollout-canary",
        f"{C0}.steps[0].capacity: capacity -1 must not be negative (CanaryInvalid)",
    ),
    RolloutCase(
        "capacity-bad-percent",
        rollout(canary(["engine"], {"steps": [step("1.5%", 0), step("100%", 100)]}), **NATIVE),
        "rollout-canary",
        f'{C0}.steps[0].capacity: capacity "1.5%" is not a valid percentage \u2014 use "<N>%" '
        "with integer N in [0,100] (CanaryInvalid)",
    ),
    RolloutCase(
        "capacity-over-full",
        rollout(canary(["engine"], {"steps": [step("150%", 0), step("100%", 100)]}), **NATIVE),
        "rollout-canary",
        f'{C0}.steps[0].capacity: capacity "150%" must not exceed 100% (capacity is a fraction '
        "of desired replicas) (CanaryInvalid)",
    ),
    RolloutCase(
        "traffic-decreasing",
        rollout(
            canary(["engine"], {"steps": [step(2, 50), step(1, 20), step("100%", 100)]}), **NATIVE
        ),
        "rollout-canary",
        f"{C0}.steps[1].traffic: traffic 20 must be >= the previous step's 50 (canary weights "
        "are non-decreasing) (CanaryInvalid)",
    ),
    RolloutCase(
        "traffic-to-zero-capacity",
        rollout(canary(["engine"], {"steps": [step("0%", 5), step("100%", 100)]}), **NATIVE),
        "rollout-canary",
        f'{C0}.steps[0].capacity: capacity "0%" resolves to zero new capacity but traffic is 5 '
        "\u2014 a step cannot send traffic to zero capacity (CanaryInvalid)",
    ),
    RolloutCase(
        "final-capacity",
        rollout(canary(["engine"], {"steps": [step("50%", 100)]}), **NATIVE),
        "rollout-canary",
        f"{C0}.steps[0].capacity: final step capacity must be 100% (rollout completes at full "
        'capacity), got "50%" (CanaryInvalid)',
    ),
    RolloutCase(
        "plan-before-members",
        rollout(canary(["gateway"], {"steps": []}), **NATIVE),
        "rollout-canary",
        f"{C0}.steps must not be empty (CanaryInvalid)",
    ),
    RolloutCase(
        "canary-member-unknown",
        rollout(canary(["gateway"]), **NATIVE),
        "rollout-canary",
        f'{G0}: canary component "gateway" is not one of router/engine/decoder (CanaryInvalid)',
    ),
    RolloutCase(
        "canary-member-undeclared",
        rollout(canary(["router"]), **NATIVE),
        "rollout-canary",
        f'{G0}: canary component "router" is not declared on the InferenceService (CanaryInvalid)',
    ),
    RolloutCase(
        "canary-entrypoint",
        rollout(canary(["decoder"]), **PD, **NATIVE),
        "rollout-canary",
        f'{G0}: a canary group covering the "engine" unit must include its entrypoint Component '
        '"engine" \u2014 that is what the step machine and traffic weight are driven through '
        "(CanaryInvalid)",
    ),
    RolloutCase(
        "canary-engine-without-decoder",
        rollout(canary(["engine"]), **PD, **NATIVE),
        "rollout-canary",
        f"{G0}: this InferenceService declares both engine and decoder, so a canary group naming "
        "either must name both \u2014 they roll as one unit (CanaryInvalid)",
    ),
    RolloutCase(
        "canary-maintain-ratio",
        rollout(canary(["engine", "decoder"], maintainRatio={"tolerance": 10}), **PD, **NATIVE),
        "rollout-canary",
        f"{G0}: maintainRatio is not honored on a canary group (the canary engine does not "
        "enforce it) \u2014 remove it, or use a blueGreen/rollingUpdate group for ratio-guarded "
        "rollout (CanaryInvalid)",
    ),
    RolloutCase(
        "pd-canary-native",
        rollout(canary(["engine", "decoder"]), **PD, **NATIVE),
        None,
    ),
    # ValidateCoordination: the other groups (blueGreen, rollingUpdate, or none given).
    RolloutCase(
        "blue-green-needs-omenative",
        rollout({"components": ["engine"], "blueGreen": {}}),
        "rollout-coordination",
        _requires("coordination", "engine", ""),
    ),
    RolloutCase(
        "no-progression-is-blue-green",
        rollout({"components": ["engine"]}, engine=mode("MultiNodeRayVLLM"), **NATIVE),
        "rollout-coordination",
        _requires("coordination", "engine", "MultiNodeRayVLLM"),
        inline=False,
    ),
    RolloutCase(
        "coordination-native",
        rollout({"components": ["engine", "decoder"], "rollingUpdate": {}}, **PD, **NATIVE),
        None,
    ),
    RolloutCase(
        "coordination-member-unknown",
        rollout({"components": ["engine", "Router"], "blueGreen": {}}, **NATIVE),
        "rollout-coordination",
        f'{G0}: component "Router" is not one of router/engine/decoder '
        "(InvalidComponentInCoordinationGroup)",
    ),
    RolloutCase(
        "order-not-member",
        rollout({"components": ["engine"], "order": ["router"]}, **NATIVE),
        "rollout-coordination",
        f'{G0}: order entry "router" is not in components (InvalidCoordinationOrder)',
        inline=False,
    ),
    RolloutCase(
        "order-twice",
        rollout({"components": ["engine"], "order": ["engine", "engine"]}, **NATIVE),
        "rollout-coordination",
        f'{G0}: order entry "engine" appears more than once (SequentialDuplicateOrder)',
        inline=False,
    ),
    RolloutCase(
        "member-in-two-groups-canary-included",
        rollout(canary(["engine"]), {"components": ["engine"]}, **NATIVE),
        "rollout-coordination",
        'spec.rollout.groups: component "engine" appears in groups[0] and groups[1] '
        "(DuplicateComponentInCoordinationGroups)",
    ),
    RolloutCase(
        "orphans-listed-together",
        rollout({"components": ["engine"]}, {"components": ["decoder", "router"]}, **NATIVE),
        "rollout-coordination",
        'spec.rollout.groups[1]: component(s) "decoder", "router" not declared on the '
        "InferenceService (OrphanCoordinationGroup)",
        inline=False,
    ),
    RolloutCase(
        "canary-before-coordination",
        rollout(canary(["engine"]), {"components": ["router"], "blueGreen": {}}, router={}),
        "rollout-canary",
        _requires("canary", "engine", ""),
    ),
]


# The rest of ValidateCoordination (budgets, ratio tolerance, zero budget,
# soak), the ratio tolerance warning after it, and, on a CREATE after every
# other check, ValidateRolloutOrderingEnforced.
RU = "rollingUpdate"
PD_ROUTER = {**PD, "router": {}}
RANGE = f"{G0}: maintainRatio.tolerance={{}} must be between 0 and 100 (RatioToleranceOutOfRange)"
ZERO = (
    f"{G0}.rollingUpdate: maxSurge and maxUnavailable both resolve to zero, which deadlocks "
    "the rollout \u2014 set at least one non-zero (ZeroBudgetPacingUnstartable)"
)
SOAK_DROPPED = (
    "spec.rollout.groups[{}]: soak is honored only when the rollout is a sequence of "
    "single-Component groups (which roll one-at-a-time); this rollout runs groups "
    "concurrently, so the soak would be dropped (SoakNotHonored)"
)
ORDER = (
    "spec.rollout.groups[{}]: order is not applied by any progression \u2014 the Components "
    "in a group advance together; to roll Components one at a time, declare one "
    "single-Component blueGreen group per Component, in the desired sequence (OrderNotHonored)"
)
PICKED_WARNING = (("runtime-resolution", PICKED),)


def budget(name: str, value: str, group: int = 0, reason: str = "InvalidRollingUpdatePercent"):
    return f"spec.rollout.groups[{group}].rollingUpdate.{name}={value} ({reason})"


def too_high(tolerance: int, group: int = 0) -> tuple[str, str]:
    return (
        "rollout-ratio-tolerance-high",
        f"spec.rollout.groups[{group}].maintainRatio.tolerance={tolerance} effectively disables "
        "ratio enforcement (>50) (RatioToleranceTooHigh)",
    )


def dropped(group: int, shape: str) -> str:
    """GroupOrderingNotHonored, as the docs print it (groups[1] is a canary group)."""
    return (
        "spec.rollout.groups: groups[] is ordered (group N completes before group N+1 begins), "
        "but that is enforced only for a run of single-Component blueGreen groups; "
        f"groups[{group}] is {shape}, so the groups would run concurrently and the declared "
        "order would be dropped \u2014 set spec.rollout.groupOrdering: Concurrent if the groups "
        "are independent and running them at the same time is what you want "
        "(GroupOrderingNotHonored)"
    )


def ordered(ordering: str, *groups: dict, **spec: Any) -> dict:
    return {"rollout": {"groupOrdering": ordering, "groups": list(groups)}, **spec}


ROLLOUT_CASES += [
    # validateGroupRollingUpdateBudgets: maxSurge, then maxUnavailable, group by group.
    RolloutCase(
        "budget-negative-count",
        rollout({"components": ["engine"], RU: {"maxSurge": -1}}, **NATIVE),
        "rollout-budgets",
        budget("maxSurge", "-1 must be >= 0", reason="InvalidRollingUpdateInteger"),
    ),
    RolloutCase(
        "budget-surge-before-unavailable",
        rollout(
            {"components": ["engine"], RU: {"maxUnavailable": -2, "maxSurge": "abc"}}, **NATIVE
        ),
        "rollout-budgets",
        budget("maxSurge", '"abc" must be an integer count or a percent string like "25%"'),
    ),
    RolloutCase(
        "budget-quoted-count-is-not-a-count",
        rollout({"components": ["engine"], RU: {"maxUnavailable": "1"}}, **NATIVE),
        "rollout-budgets",
        budget("maxUnavailable", '"1" must be an integer count or a percent string like "25%"'),
    ),
    RolloutCase(
        "budget-malformed-percent",
        rollout({"components": ["engine"], RU: {"maxSurge": "1.5%"}}, **NATIVE),
        "rollout-budgets",
        budget("maxSurge", '"1.5%" has a malformed percent value'),
    ),
    RolloutCase(
        "budget-percent-twice",
        rollout({"components": ["engine"], RU: {"maxSurge": "50%%"}}, **NATIVE),
        "rollout-budgets",
        budget("maxSurge", '"50%%" has a malformed percent value'),
    ),
    RolloutCase(
        "budget-percent-over",
        rollout({"components": ["engine"], RU: {"maxUnavailable": "101%"}}, **NATIVE),
        "rollout-budgets",
        budget("maxUnavailable", '"101%" percent must be between 0% and 100%'),
    ),
    RolloutCase(
        "budget-percent-negative",
        rollout({"components": ["engine"], RU: {"maxUnavailable": "-5%"}}, **NATIVE),
        "rollout-budgets",
        budget("maxUnavailable", '"-5%" percent must be between 0% and 100%'),
    ),
    RolloutCase(
        "budget-quoted-as-go-quotes",
        rollout({"components": ["engine"], RU: {"maxSurge": 'a"b\\'}}, **NATIVE),
        "rollout-budgets",
        budget("maxSurge", '"a\\"b\\\\" must be an integer count or a percent string like "25%"'),
    ),
    RolloutCase(
        "budget-of-the-second-group",
        rollout(
            {"components": ["engine"], RU: {"maxSurge": 1, "maxUnavailable": "+25%"}},
            {"components": ["decoder"], RU: {"maxSurge": -1}},
            **PD,
            **NATIVE,
        ),
        "rollout-budgets",
        budget("maxSurge", "-1 must be >= 0", group=1, reason="InvalidRollingUpdateInteger"),
    ),
    RolloutCase(
        "modes-before-budgets",
        rollout({"components": ["engine"], RU: {"maxSurge": -1}}),
        "rollout-coordination",
        _requires("coordination", "engine", ""),
    ),
    # validateRatioToleranceRange, any group.
    RolloutCase(
        "tolerance-above-100",
        rollout(
            {"components": ["engine", "decoder"], "maintainRatio": {"tolerance": 101}},
            **PD,
            **NATIVE,
        ),
        "rollout-ratio-tolerance",
        RANGE.format(101),
        inline=False,
    ),
    RolloutCase(
        "tolerance-negative",
        rollout({"components": ["engine"], RU: {}, "maintainRatio": {"tolerance": -1}}, **NATIVE),
        "rollout-ratio-tolerance",
        RANGE.format(-1),
    ),
    RolloutCase(
        "budgets-before-tolerance",
        rollout(
            {"components": ["engine"], RU: {"maxSurge": -1}, "maintainRatio": {"tolerance": 101}},
            **NATIVE,
        ),
        "rollout-budgets",
        budget("maxSurge", "-1 must be >= 0", reason="InvalidRollingUpdateInteger"),
    ),
    # validatePacingNotZeroBudget: both budgets set, both resolving to zero.
    RolloutCase(
        "zero-budget",
        rollout({"components": ["engine"], RU: {"maxSurge": 0, "maxUnavailable": "0%"}}, **NATIVE),
        "rollout-zero-budget",
        ZERO,
    ),
    RolloutCase(
        "zero-budget-signed-zero-percent",
        rollout({"components": ["engine"], RU: {"maxSurge": "-0%", "maxUnavailable": 0}}, **NATIVE),
        "rollout-zero-budget",
        ZERO,
    ),
    RolloutCase(
        "an-unset-budget-is-not-zero",
        rollout({"components": ["engine"], RU: {"maxUnavailable": 0}}, **NATIVE),
        None,
    ),
    RolloutCase(
        "tolerance-before-zero-budget",
        rollout(
            {
                "components": ["engine"],
                RU: {"maxSurge": 0, "maxUnavailable": 0},
                "maintainRatio": {"tolerance": 200},
            },
            **NATIVE,
        ),
        "rollout-ratio-tolerance",
        RANGE.format(200),
    ),
    # validateSoakOnlyWhenSequenced.
    RolloutCase(
        "soak-on-a-canary-group",
        rollout(canary(["engine"], soak="10m"), **NATIVE),
        "rollout-soak",
        f"{G0}: soak is not honored on a canary group (the canary engine does not gate on it) "
        "(SoakNotHonored)",
    ),
    RolloutCase(
        "soak-on-a-lone-group",
        rollout({"components": ["engine"], "soak": "10m"}, **NATIVE),
        "rollout-soak",
        SOAK_DROPPED.format(0),
        inline=False,
    ),
    RolloutCase(
        "soak-in-a-sequence",
        rollout(
            {"components": ["decoder"], "soak": "10m"}, {"components": ["engine"]}, **PD, **NATIVE
        ),
        None,
        inline=False,
    ),
    RolloutCase(
        "soak-beside-a-rolling-update-group",
        rollout(
            {"components": ["decoder"], "soak": "1m"},
            {"components": ["engine"], RU: {}},
            **PD,
            **NATIVE,
        ),
        "rollout-soak",
        SOAK_DROPPED.format(0),
    ),
    RolloutCase(
        "soak-before-order",
        rollout({"components": ["engine"], "order": ["engine"], "soak": "0s"}, **NATIVE),
        "rollout-soak",
        SOAK_DROPPED.format(0),
        inline=False,
    ),
    RolloutCase(
        "zero-budget-before-soak",
        rollout(
            {"components": ["engine"], RU: {"maxSurge": 0, "maxUnavailable": 0}, "soak": "1m"},
            **NATIVE,
        ),
        "rollout-zero-budget",
        ZERO,
    ),
    # CoordinationRatioToleranceWarning: the first group above 50, gathered
    # after ValidateCoordination passes.
    RolloutCase(
        "tolerance-above-50-warns",
        rollout(
            {"components": ["engine", "decoder"], RU: {}, "maintainRatio": {"tolerance": 51}},
            **PD,
            **NATIVE,
        ),
        None,
        warnings=(too_high(51), *PICKED_WARNING),
    ),
    RolloutCase(
        "tolerance-50-does-not-warn",
        rollout(
            {"components": ["engine", "decoder"], RU: {}, "maintainRatio": {"tolerance": 50}},
            **PD,
            **NATIVE,
        ),
        None,
    ),
    RolloutCase(
        "the-first-group-above-50-only",
        ordered(
            "Concurrent",
            {"components": ["engine", "decoder"], "maintainRatio": {"tolerance": 70}},
            {"components": ["router"], "maintainRatio": {"tolerance": 80}},
            **PD_ROUTER,
            **NATIVE,
        ),
        None,
        inline=False,
        warnings=(too_high(70), *PICKED_WARNING),
    ),
    RolloutCase(
        "the-warning-comes-with-a-later-denial",
        rollout(
            {"components": ["engine", "decoder"], RU: {}, "maintainRatio": {"tolerance": 90}},
            **PD,
            **NATIVE,
            model={"name": "absent"},
        ),
        "model-exists",
        MISSING_MODEL.replace("{m}", "absent"),
        warnings=(too_high(90),),
    ),
    RolloutCase(
        "no-warning-after-a-coordination-denial",
        rollout(
            {
                "components": ["engine"],
                RU: {"maxSurge": "0%", "maxUnavailable": "0%"},
                "maintainRatio": {"tolerance": 90},
            },
            **NATIVE,
        ),
        "rollout-zero-budget",
        ZERO,
    ),
    # ValidateRolloutOrderingEnforced, after every other check: its denial
    # comes with every warning before it, runtime selection's included.
    RolloutCase(
        "order-not-honored",
        rollout({"components": ["engine"], "order": ["engine"]}, **NATIVE),
        "rollout-ordering",
        ORDER.format(0),
        inline=False,
        warnings=PICKED_WARNING,
    ),
    RolloutCase(
        "order-on-a-canary-group",
        rollout(canary(["engine"], order=["engine"]), **NATIVE),
        "rollout-ordering",
        ORDER.format(0),
        warnings=PICKED_WARNING,
    ),
    RolloutCase(
        "order-under-concurrent-too",
        ordered(
            "Concurrent",
            {"components": ["engine"]},
            {"components": ["decoder"], "order": ["decoder"]},
            **PD,
            **NATIVE,
        ),
        "rollout-ordering",
        ORDER.format(1),
        inline=False,
        warnings=PICKED_WARNING,
    ),
    RolloutCase(
        "rolling-update-group-in-an-ordered-list",
        rollout(
            {"components": ["decoder"], "blueGreen": {}},
            {"components": ["engine"], RU: {}},
            **PD,
            **NATIVE,
        ),
        "rollout-ordering",
        dropped(1, "a rollingUpdate group"),
        warnings=PICKED_WARNING,
    ),
    RolloutCase(
        "multi-component-group-in-an-ordered-list",
        rollout(
            {"components": ["engine", "decoder"]}, {"components": ["router"]}, **PD_ROUTER, **NATIVE
        ),
        "rollout-ordering",
        dropped(0, "a multi-Component group"),
        inline=False,
        warnings=PICKED_WARNING,
    ),
    RolloutCase(
        "canary-group-in-an-ordered-list",
        rollout({"components": ["router"]}, canary(["engine", "decoder"]), **PD_ROUTER, **NATIVE),
        "rollout-ordering",
        dropped(1, "a canary group"),
        warnings=PICKED_WARNING,
    ),
    RolloutCase(
        "a-sequence-beside-a-canary-group",
        rollout(
            canary(["router"]),
            {"components": ["decoder"], "soak": "1m"},
            {"components": ["engine"]},
            **PD_ROUTER,
            **NATIVE,
        ),
        "rollout-ordering",
        dropped(0, "a canary group"),
        warnings=PICKED_WARNING,
    ),
    RolloutCase(
        "concurrent-declares-the-groups-independent",
        ordered(
            "Concurrent",
            canary(["router"], {"steps": [step("50%", 20, pause={}), step("100%", 100)]}),
            canary(["engine", "decoder"], {"steps": [step("25%", 10), step("100%", 100)]}),
            **PD_ROUTER,
            **NATIVE,
        ),
        None,
    ),
    RolloutCase(
        "sequential-said-is-the-default",
        ordered("Sequential", {"components": ["router"]}, canary(["engine"]), router={}, **NATIVE),
        "rollout-ordering",
        dropped(1, "a canary group"),
        warnings=PICKED_WARNING,
    ),
    # Compared as written, as OME compares it: only Concurrent relaxes the rule.
    RolloutCase(
        "concurrent-as-written",
        ordered("concurrent", {"components": ["router"]}, canary(["engine"]), router={}, **NATIVE),
        "rollout-ordering",
        dropped(1, "a canary group"),
        warnings=PICKED_WARNING,
    ),
    RolloutCase(
        "the-warning-comes-with-the-ordering-denial",
        rollout(
            {"components": ["engine", "decoder"], RU: {}, "maintainRatio": {"tolerance": 60}},
            {"components": ["router"]},
            **PD_ROUTER,
            **NATIVE,
        ),
        "rollout-ordering",
        dropped(0, "a rollingUpdate group"),
        warnings=(too_high(60), *PICKED_WARNING),
    ),
    RolloutCase(
        "runtime-resolution-before-ordering",
        rollout(
            {"components": ["engine"], "order": ["engine"]}, runtime={"name": "gone"}, **NATIVE
        ),
        "runtime-resolution",
        "runtime gone does not support model m: runtime gone not found in namespace ns or at "
        "cluster scope",
        inline=False,
    ),
]


@pytest.mark.parametrize("case", ROLLOUT_CASES, ids=[c.id for c in ROLLOUT_CASES])
def test_rollout_groups_in_v13(tmp_path, case):
    docs = [isvc(case.spec), *cluster_docs()]
    verdict = admission_everywhere(tmp_path, docs, "v1.3")
    ran = V13[: V13.index(case.denied_by) + 1] if case.denied_by else V13
    warnings = case.warnings
    if warnings is None:
        warnings = () if case.denied_by else PICKED_WARNING
    assert verdict == {
        "allowed": case.denied_by is None,
        "message": None if case.denied_by is None else WEBHOOK + (case.text or ""),
        "warnings": [text for _, text in warnings],
        "denied_by": case.denied_by,
        "warning_checks": [check for check, _ in warnings],
        "checked": [c for c in ran if not (case.inline and c == "rollout-plan-size")],
        "not_checked": [PLAN_SIZE] if case.inline else [],
    }


NEW_IN_ROLLOUT = ROLLOUT_CASES[
    ROLLOUT_CASES.index(next(c for c in ROLLOUT_CASES if c.id == "budget-negative-count")) :
]


@pytest.mark.parametrize("case", NEW_IN_ROLLOUT, ids=[c.id for c in NEW_IN_ROLLOUT])
def test_v122_had_none_of_the_later_rollout_checks(tmp_path, case):
    docs = [isvc(case.spec), *cluster_docs()]
    verdict = admission_everywhere(tmp_path, docs, "v1.2.2")
    if case.denied_by in ("model-exists", "runtime-resolution"):
        return  # checks v1.2.2 has in its own way
    # v1.2.2's CRD has no spec.rollout: the API server refuses it (Strict).
    assert _unknown_in_v122(verdict)
    assert 'unknown field "spec.rollout"' in verdict["message"]


def test_a_policy_ref_group_is_not_decided(tmp_path):
    """Off by default, the RolloutPolicy feature denies every policyRef
    (RolloutPolicyRefUnsupported): modetable does not decide the groups."""
    ref = {"components": ["engine"], "policyRef": {"name": "p", "progression": "canary"}}
    docs = [isvc(rollout(ref)), *cluster_docs()]
    verdict = admission_everywhere(tmp_path, docs, "v1.3")
    after = (
        "a rollout group has a policyRef: whether the webhook gets this far depends on the "
        "cluster's RolloutPolicy feature, which is not decided here"
    )
    waiting = [c for c in V13 if c.startswith("rollout-") and c != "rollout-plan-size"]
    assert verdict == {
        "allowed": True,
        "message": None,
        "warnings": [PICKED],
        "denied_by": None,
        "warning_checks": ["runtime-resolution"],
        "checked": [c for c in V13 if c not in waiting],
        "not_checked": [
            {
                "check": "rollout-policy-refs",
                "why": "a rollout group has a policyRef: the webhook denies it "
                "(RolloutPolicyRefUnsupported) unless the cluster has the RolloutPolicy "
                "feature, which is off by default and not decided here",
            },
            *({"check": c, "why": after} for c in waiting[1:]),
        ],
    }
    assert waiting == [
        "rollout-policy-refs",
        "rollout-canary",
        "rollout-coordination",
        "rollout-budgets",
        "rollout-ratio-tolerance",
        "rollout-zero-budget",
        "rollout-soak",
        "rollout-ratio-tolerance-high",
        "rollout-ordering",
    ]


def test_v122_had_no_rollout_checks(tmp_path):
    """v1.2.2's CRD has no spec.rollout: under kubectl's default (Strict) the
    API server refuses the object before any webhook."""
    docs = [isvc(rollout(canary(["engine"]))), *cluster_docs()]
    verdict = admission_everywhere(tmp_path, docs, "v1.2.2")
    assert _unknown_in_v122(verdict)
    assert verdict["message"].endswith('strict decoding error: unknown field "spec.rollout"')


def test_a_duration_that_does_not_parse_is_bad_input(tmp_path):
    plan = {"steps": [step("100%", 100, analysis=analysis(interval="30 s"))]}
    path = tmp_path / "m.yaml"
    path.write_text(yaml.safe_dump_all([isvc(rollout(canary(["engine"], plan))), *cluster_docs()]))
    run = run_cli("admit", "--isvc", "ns/svc", str(path))
    assert run.code == 2
    assert run.err.endswith(
        "spec.rollout.groups[0].canary.steps[0].analysis.interval must be a duration "
        "(such as 30s), got the string '30 s'\n"
    )


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        (
            rollout({"components": ["engine"], "soak": "10 m"}),
            "spec.rollout.groups[0].soak must be a duration (such as 30s), got the string '10 m'",
        ),
        (
            rollout({"components": ["engine"], "maintainRatio": {"tolerance": "60"}}),
            "spec.rollout.groups[0].maintainRatio.tolerance must be an integer, got the string "
            "'60'",
        ),
        (
            rollout({"components": ["engine"], "maintainRatio": 60}),
            "spec.rollout.groups[0].maintainRatio must be a mapping, got the number 60",
        ),
        (
            rollout({"components": ["engine"], RU: {"maxUnavailable": True}}),
            "spec.rollout.groups[0].rollingUpdate.maxUnavailable must be an integer or a string, "
            "got the boolean true",
        ),
        (
            {"rollout": {"groupOrdering": ["Concurrent"]}},
            "spec.rollout.groupOrdering must be a string, got a list",
        ),
    ],
    ids=["soak", "tolerance", "maintain-ratio", "budget", "group-ordering"],
)
def test_the_later_rollout_fields_hold_their_types(tmp_path, spec, said):
    path = tmp_path / "m.yaml"
    path.write_text(yaml.safe_dump_all([isvc(spec), *cluster_docs()], sort_keys=False))
    for command in (("admit", "--isvc", "ns/svc"), ("select", "--isvc", "ns/svc")):
        run = run_cli(*command, str(path))
        assert run.code == 2
        assert run.err.endswith(said + "\n")
    audit = run_cli("audit", str(path), "-o", "json").json()
    [finding] = audit["manifest_findings"]
    assert (finding["id"], finding["message"]) == ("manifest/invalid", said)


@pytest.mark.parametrize(
    ("text", "parses"),
    [
        ("0.01", True),
        ("-1e3", True),
        (".5", True),
        ("5.", True),
        ("Inf", True),
        ("-infinity", True),
        ("NaN", True),
        ("0x1p-2", True),
        ("1e400", False),
        ("1_000", False),
        (" 1", False),
        ("-nan", False),
        ("", False),
        ("0x10", False),
    ],
)
def test_thresholds_parse_as_go_parses_floats(text, parses):
    from modetable.parsing.go import go_parses_float

    assert go_parses_float(text) is parses


@pytest.mark.parametrize(
    ("text", "nanoseconds"),
    [
        ("30s", 30_000_000_000),
        ("1h2m", 3_720_000_000_000),
        ("1.5ms", 1_500_000),
        ("-2s", -2_000_000_000),
        ("0", 0),
        ("0s", 0),
        ("1\u00b5s", 1_000),
        ("1", None),
        ("", None),
        ("s", None),
        ("1d", None),
    ],
)
def test_durations_parse_as_go_parses_them(text, nanoseconds):
    from modetable.parsing.go import go_duration_nanoseconds

    assert go_duration_nanoseconds(text) == nanoseconds


# --- the controller: an InferenceService in VirtualDeployment --------------------------


def test_a_virtual_inference_service_with_no_runtime_for_its_model(tmp_path):
    """The facts sheet's example: the webhook runs every check (and denies: no
    runtime for the model); the controller, for an InferenceService it already
    has, resolves no model and no runtime and marks it Ready."""
    docs = [
        isvc({}, annotations={"ome.io/deploymentMode": "VirtualDeployment"}),
        model_doc("m", **llama_model_spec()),
    ]
    path = tmp_path / "m.yaml"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    data = run_cli("select", "--isvc", "ns/svc", str(path), "-o", "json").json()
    missing = (
        "no runtime found to support model safetensors with format safetensors in namespace ns"
    )
    assert {k: data[k] for k in ("result", "runtime", "named", "message")} == {
        "result": "none",
        "runtime": None,
        "named": False,
        "message": VIRTUAL,
    }
    assert data["admission"] == {
        "allowed": False,
        "message": WEBHOOK + "no supporting runtime found for model m and engine does not have "
        "complete runner configuration: " + missing,
        "warnings": [],
        "denied_by": "runtime-resolution",
        "warning_checks": [],
        "checked": list(V13[: V13.index("runtime-resolution") + 1]),
        "not_checked": [],
    }
    assert data["events"] == [
        {
            "type": "Normal",
            "reason": "InferenceServiceReady",
            "message": "InferenceService [svc] is Ready",
            "outcome": "virtual_deployment",
        }
    ]
    assert data["conditions"] == [
        {
            "type": "Ready",
            "status": "True",
            "reason": "VirtualDeployment",
            "message": "InferenceService is in VirtualDeployment mode",
            "severity": None,
            "outcome": "virtual_deployment",
        }
    ]
    assert data["components"] == {
        "engine": {"mode": "VirtualDeployment", "source": "ServiceAnnotation"}
    }
    assert data["reconcile"] == data["reconcile_rules"] == {}


VIRTUAL = (
    "the InferenceService is virtual (VirtualDeployment in its metadata.annotations): the "
    "controller resolves no model or runtime for it and creates no workload"
)


def test_a_virtual_inference_service_uses_no_runtime_the_webhook_would_pick(tmp_path):
    """The webhook resolves the runtime and warns that it will be auto-selected;
    the controller marks the service Ready first and uses none: select's exit
    is 0, as it needs none."""
    import modetable

    docs = [isvc({}, annotations={"ome.io/deploymentMode": "VirtualDeployment"}), *cluster_docs()]
    path = tmp_path / "m.yaml"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    run = run_cli("select", "--isvc", "ns/svc", str(path), "-o", "json")
    assert run.code == 0, run.err
    policy = modetable.load_rules().at("v1.3")
    found = modetable.select(policy, modetable.Cluster.from_paths(path, rules=policy), "ns/svc")
    assert (found.runtime, found.virtual) == (None, True)
    data = run.json()
    assert {k: data[k] for k in ("result", "runtime", "named", "message")} == {
        "result": "picked",
        "runtime": None,
        "named": False,
        "message": VIRTUAL,
    }
    assert (data["admission"]["allowed"], data["admission"]["warnings"]) == (True, [PICKED])
    assert [e["reason"] for e in data["events"]] == ["InferenceServiceReady"]


def test_a_virtual_inference_service_is_no_error_in_the_audit_unless_the_webhook_denies(
    tmp_path,
):
    """With a runner image of its own the webhook selects nothing, and the
    controller resolves nothing: the service's only finding is its legacy mode.
    Without one, the webhook's resolution finds no runtime and denies: an error."""
    virtual = {"ome.io/deploymentMode": "VirtualDeployment"}
    docs = [
        {**isvc({"engine": {"runner": {"image": "own:1"}}}, annotations=virtual)},
        model_doc("m", **llama_model_spec()),
    ]
    path = tmp_path / "m.yaml"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    run = run_cli("audit", str(path), "-o", "json")
    assert run.code == 0, run.err
    [item] = run.json()["items"]
    assert (item["problems"], [f["id"] for f in item["findings"]]) == (
        [],
        ["mode/VirtualDeployment"],
    )
    docs[0] = isvc({}, annotations=virtual)
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    run = run_cli("audit", str(path), "-o", "json")
    assert run.code == 1, run.err
    [item] = run.json()["items"]
    assert item["problems"] == ["denied"]
    assert [(f["id"], f["message"]) for f in item["findings"]] == [
        (
            "outcome/none",
            WEBHOOK + "no supporting runtime found for model m and engine does not have "
            "complete runner configuration: no runtime found to support model safetensors "
            "with format safetensors in namespace ns",
        ),
        ("mode/VirtualDeployment", "engine runs in VirtualDeployment, a legacy mode"),
    ]


def test_a_virtual_inference_service_keeps_todays_events_in_v122(tmp_path):
    docs = [
        isvc({}, annotations={"ome.io/deploymentMode": "VirtualDeployment"}),
        model_doc("m", **llama_model_spec()),
    ]
    path = tmp_path / "m.yaml"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    data = run_cli("select", "--isvc", "ns/svc", str(path), "-o", "json", "--ome-version", "v1.2.2")
    events = data.json()["events"]
    assert [e["reason"] for e in events] == ["RuntimeSelectionError"]
    assert data.json()["conditions"] == []


# --- what the table and the docs say ---------------------------------------------------

SCOPE = (
    "Allowed by the {n} checks modetable runs; not modelled: the webhook's checks of the "
    "name, autoscalers and scaling policy, PodDisruptionBudgets, placement and routing, "
    "traffic, lifecycle and ready policy, migration requests, replica references and "
    "collisions with standalone InferenceReplicas, overlays and PVCs, and its "
    "UPDATE-only rules; the API server's CEL rules and server-side defaulting; "
    "the mutating defaulter"
)


def test_the_table_says_allowed_by_which_checks_and_what_it_did_not_decide(tmp_path):
    docs = [isvc(rollout(canary(["engine"]), **NATIVE)), *cluster_docs()]
    path = tmp_path / "m.yaml"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    not_checked = (
        "Not checked: rollout-plan-size: a rollout group has an inline progression: its size "
        "is checked against the operator's rollout.maxPinnedPlanBytes, which is not decided here"
    )
    admitted = run_cli("admit", "--isvc", "ns/svc", str(path), "-v")
    assert admitted.out.splitlines() == [
        f"Warning: {PICKED}",
        "InferenceService ns/svc: allowed",
        SCOPE.format(n=len(V13) - 1),
        not_checked,
    ]
    selected = run_cli("select", "--isvc", "ns/svc", str(path), "-v").out.splitlines()
    at = selected.index("Admission: allowed")
    assert selected[at + 1 : at + 3] == [SCOPE.format(n=len(V13) - 1), not_checked]


def test_without_v_what_is_not_modelled_is_one_line_pointing_at_v(tmp_path):
    """What the InferenceService left undecided stays; the standing caveats (the
    admission checks and the runtime webhook's checks not modelled) are one line."""
    docs = [isvc(rollout(canary(["engine"]), **NATIVE)), *cluster_docs()]
    path = tmp_path / "m.yaml"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    brief = f"Allowed by the {len(V13) - 1} checks modetable runs; -v lists what it does not model"
    not_checked = (
        "Not checked: rollout-plan-size: a rollout group has an inline progression: its size "
        "is checked against the operator's rollout.maxPinnedPlanBytes, which is not decided here"
    )
    admitted = run_cli("admit", "--isvc", "ns/svc", str(path))
    assert admitted.out.splitlines() == [
        f"Warning: {PICKED}",
        "InferenceService ns/svc: allowed",
        brief,
        not_checked,
    ]
    selected = run_cli("select", "--isvc", "ns/svc", str(path))
    lines = selected.out.splitlines()
    at = lines.index("Admission: allowed")
    assert lines[at + 1 : at + 4] == [brief, not_checked, ""]
    assert run_cli("select", "--isvc", "ns/svc", str(path), "-o", "json").json()["admission"][
        "not_checked"
    ] == [{"check": "rollout-plan-size", "why": not_checked.split(": ", 2)[2]}]


def test_the_docs_list_the_checks_in_order_per_version(v13, v122):
    from modetable.docs.admission_tables import admission_checks

    for policy in (v13, v122):
        page = admission_checks(policy)
        rows = [line for line in page.splitlines()[2:]]
        ids = [r.split("`")[1] for r in rows]
        assert ids == [r.id for r in policy.admission]
    page = admission_checks(v13)
    assert "`InvalidLeaderWorkerPairing: {component}.leader is set but" in page
    assert "`spec.decoder`" in page and "`spec.<component>.worker.size`" in page


def test_run_failures_name_the_rule_behind_them(tmp_path):
    """A component annotated VirtualDeployment fails with OME's own error; the
    ones after it are not reconciled; each names the run_failures rule."""
    docs = [
        isvc({"engine": mode("VirtualDeployment"), "router": {}}),
        *cluster_docs(),
    ]
    path = tmp_path / "m.yaml"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    data = run_cli("select", "--isvc", "ns/svc", str(path), "-o", "json").json()
    assert data["reconcile"] == {
        "engine": "invalid deployment mode for engine",
        "router": "not reconciled because engine failed before it",
    }
    assert data["reconcile_rules"] == {"engine": "component-virtual", "router": "component-virtual"}
    assert [e["outcome"] for e in data["events"]] == []
    # A new InferenceService records no RuntimeReady for the pick to turn True.
    assert data["conditions"] == []


def test_a_check_undecided_only_after_another_reads_which_checks_ran(tmp_path):
    """An `undecided` with `after` is not decided only where those checks ran
    before it (in the order run, `only` leaving the others out); the checks
    whose `undecided` has no `after` never read which ran."""
    from modetable.admission import admit
    from modetable.rules.policy import load_ruleset

    anchor = "    undecided: &after-policy-refs\n"
    rules = rules_copy(tmp_path / "modes.yaml", (anchor, anchor + "      after: [crd-schema]\n"))
    policy = load_ruleset(rules).at("v1.3")
    ref = {"components": ["engine"], "policyRef": {"name": "p", "progression": "canary"}}
    cluster = cluster_of(policy, isvc(rollout(ref)), *cluster_docs())
    (one,) = cluster.isvcs
    alone = admit(policy, one, cluster, only=frozenset({"rollout-canary"}))
    assert (alone.checked, alone.not_checked) == (("rollout-canary",), ())
    after = admit(policy, one, cluster, only=frozenset({"crd-schema", "rollout-canary"}))
    assert after.checked == ("crd-schema",)
    assert [(n.check, n.why) for n in after.not_checked] == [
        (
            "rollout-canary",
            "a rollout group has a policyRef: whether the webhook gets this far depends on the "
            "cluster's RolloutPolicy feature, which is not decided here",
        )
    ]
