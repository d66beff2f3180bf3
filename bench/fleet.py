"""A synthetic fleet: N InferenceServices, M runtimes and their models, as YAML.

The mix follows what real clusters hold (see ../shared/ome-catalog): most
runtimes declare no mode and are cluster-scoped; a minority run multi-node
(`leader`/`worker`, often still the deprecated MultiNode with `LWS_*`
variables), carry a router, a decoder, accelerator classes or a size range; most
InferenceServices ask for nothing, some set `spec.deploymentMode`, a component
annotation, a decoder or router, or name their runtime. A seed makes it repeatable.

    python bench/fleet.py --isvcs 10000 --runtimes 1000 --out /tmp/fleet
    python bench/fleet.py --isvcs 100 --runtimes 20 --list > fleet.yaml   # as `kubectl get -o yaml`
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import yaml

API = "ome.io/v1beta1"
MODE_KEY = "ome.io/deploymentMode"

FORMATS = [
    # (format, format version, framework, framework version), weighted by frequency
    ("safetensors", "1.0.0", "transformers", "4.47.0"),
    ("safetensors", "1.0.0", "transformers", "4.51.3"),
    ("safetensors", "1.0.0", "transformers", "4.40.1"),
    ("safetensors", "1.0.0", "transformers", "4.33.1"),
    ("pytorch", "1.0.0", "transformers", "4.40.1"),
    ("gguf", "3.0.0", "llama.cpp", "0.3.2"),
    ("onnx", "1.16.0", "onnxruntime", "1.18.0"),
]
FORMAT_WEIGHTS = [40, 20, 15, 8, 8, 5, 4]
ARCHITECTURES = [
    "LlamaForCausalLM",
    "Qwen2ForCausalLM",
    "Qwen3ForCausalLM",
    "MistralForCausalLM",
    "MixtralForCausalLM",
    "DeepseekV3ForCausalLM",
    "Gemma2ForCausalLM",
    "Phi3ForCausalLM",
    "GPTNeoXForCausalLM",
    "BertModel",
]
SIZES = ["500M", "1.5B", "3B", "7B", "8B", "14B", "32B", "70B", "72B", "405B", "671B"]
ACCELERATORS = ["nvidia-h100", "nvidia-h200", "nvidia-a100", "amd-mi300x"]
IMAGE = "docker.io/lmsysorg/sglang:v0.5.5.post3-cu129-amd64"

LWS_COMMAND = [
    "python3", "-m", "sglang.launch_server", "--model-path", "$(MODEL_PATH)",
    "--tp-size", "8", "--nccl-init", "$(LWS_LEADER_ADDRESS):5000",
    "--nnodes", "$(LWS_GROUP_SIZE)", "--node-rank", "$(LWS_WORKER_INDEX)",
]  # fmt: skip
OME_COMMAND = [
    "python3", "-m", "sglang.launch_server", "--model-path", "$(MODEL_PATH)",
    "--tp-size", "8", "--nccl-init", "$(OME_LEADER_ADDRESS):5000",
    "--nnodes", "$(OME_INSTANCE_POD_COUNT)", "--node-rank", "$(OME_INSTANCE_POD_RANK)",
]  # fmt: skip
SINGLE_COMMAND = ["python3", "-m", "sglang.launch_server", "--model-path", "$(MODEL_PATH)"]


def _runner(command: list[str], gpus: int = 1) -> dict[str, Any]:
    return {
        "name": "ome-container",
        "image": IMAGE,
        "command": list(command),
        "ports": [{"containerPort": 8080, "name": "http1", "protocol": "TCP"}],
        "resources": {"requests": {"nvidia.com/gpu": gpus}, "limits": {"nvidia.com/gpu": gpus}},
    }


def _annotated(mode: str | None) -> dict[str, Any]:
    return {"annotations": {MODE_KEY: mode}} if mode else {}


class Fleet:
    def __init__(self, isvcs: int, runtimes: int, seed: int = 7) -> None:
        self.random = random.Random(seed)
        self.isvc_count = isvcs
        self.runtime_count = runtimes
        self.namespaces = [f"team-{i:03d}" for i in range(max(3, isvcs // 50))]
        self.models: list[dict[str, Any]] = []
        self.runtimes: list[dict[str, Any]] = []
        self.isvcs: list[dict[str, Any]] = []

    def chance(self, percent: float) -> bool:
        return self.random.random() * 100 < percent

    # --- models ------------------------------------------------------------

    def make_models(self) -> None:
        count = max(20, min(400, self.runtime_count // 3))
        for index in range(count):
            fmt, fmt_version, framework, framework_version = self.random.choices(
                FORMATS, FORMAT_WEIGHTS
            )[0]
            namespaced = self.chance(10)
            metadata: dict[str, Any] = {"name": f"model-{index:04d}"}
            if namespaced:
                metadata["namespace"] = self.random.choice(self.namespaces)
            spec: dict[str, Any] = {
                "modelFormat": {"name": fmt, "version": fmt_version},
                "modelFramework": {"name": framework, "version": framework_version},
                "modelArchitecture": self.random.choice(ARCHITECTURES),
                "storage": {"storageUri": f"hf://org/model-{index:04d}"},
            }
            if self.chance(85):
                spec["modelParameterSize"] = self.random.choice(SIZES)
            if self.chance(8):
                spec["quantization"] = "fp8"
            self.models.append(
                {
                    "apiVersion": API,
                    "kind": "BaseModel" if namespaced else "ClusterBaseModel",
                    "metadata": metadata,
                    "spec": spec,
                }
            )

    # --- runtimes ----------------------------------------------------------

    def _entry(self, model: dict[str, Any]) -> dict[str, Any]:
        spec = model["spec"]
        entry: dict[str, Any] = {
            "modelFormat": dict(spec["modelFormat"]),
            "modelFramework": dict(spec["modelFramework"]),
            "modelArchitecture": spec["modelArchitecture"],
            "autoSelect": self.chance(80),
            "priority": self.random.choice([1, 1, 1, 2, 3]),
        }
        if "quantization" in spec:
            entry["quantization"] = spec["quantization"]
        if self.chance(15):
            entry["modelFramework"]["operator"] = "GreaterThanOrEqual"
            entry["modelFramework"]["version"] = "5.0.0"
        return entry

    def make_runtime(self, index: int) -> dict[str, Any]:
        namespaced = self.chance(15)
        metadata: dict[str, Any] = {"name": f"rt-{index:05d}"}
        if namespaced:
            metadata["namespace"] = self.random.choice(self.namespaces)
        spec: dict[str, Any] = {
            "supportedModelFormats": [
                self._entry(self.random.choice(self.models))
                for _ in range(self.random.choice([1, 1, 2, 3]))
            ],
            "protocolVersions": ["openAI"],
        }
        # OME's runtime webhook denies autoSelect entries of one name (unset
        # is one name) with different priorities: each entry is named apart,
        # as a runtime the cluster holds must be (no random draw, so the
        # fleet is the one earlier figures were measured on).
        for number, entry in enumerate(spec["supportedModelFormats"]):
            entry["name"] = f"entry-{number}"
        if self.chance(3):
            spec["disabled"] = True
        if self.chance(60):
            low = self.random.randrange(0, len(SIZES) - 1)
            spec["modelSizeRange"] = {
                "min": SIZES[low],
                "max": SIZES[self.random.randrange(low, len(SIZES))],
            }
        if self.chance(10):
            spec["acceleratorRequirements"] = {
                "acceleratorClasses": self.random.sample(ACCELERATORS, 2)
            }
        shape = self.random.choices(
            ["single", "multinode-lws", "omenative", "raw", "rayvllm", "omenative-lws"],
            [80, 8, 5, 4, 2, 1],
        )[0]
        engine: dict[str, Any]
        if shape == "multinode-lws":
            engine = {
                **_annotated("MultiNode"),
                "leader": {"runner": _runner(LWS_COMMAND, 8)},
                "worker": {"size": 1, "runner": _runner(LWS_COMMAND, 8)},
            }
        elif shape == "omenative":
            engine = {
                **_annotated("OMENative" if self.chance(50) else None),
                "leader": {"runner": _runner(OME_COMMAND, 8)},
                "worker": {"size": 1, "runner": _runner(OME_COMMAND, 8)},
            }
        elif shape == "omenative-lws":
            # A bare leader/worker still written for LeaderWorkerSet.
            engine = {
                "leader": {"runner": _runner(LWS_COMMAND, 8)},
                "worker": {"size": 1, "runner": _runner(LWS_COMMAND, 8)},
            }
        elif shape == "rayvllm":
            engine = {**_annotated("MultiNodeRayVLLM"), "runner": _runner(SINGLE_COMMAND)}
        else:
            engine = {
                **_annotated("RawDeployment" if shape == "raw" else None),
                "runner": _runner(SINGLE_COMMAND),
            }
        spec["engineConfig"] = engine
        if self.chance(10):
            spec["decoderConfig"] = {
                **_annotated(self.random.choice([None, None, "MultiNode", "OMENative"])),
                "runner": _runner(SINGLE_COMMAND),
            }
        if self.chance(30):
            router: dict[str, Any] = {
                "runner": {
                    "name": "router",
                    "image": "fra.ocir.io/ome/smg:v0.2.4",
                    "command": ["python3", "-m", "sglang_router.launch_router"],
                }
            }
            if shape == "multinode-lws":
                router["runner"]["command"] += [
                    "--selector",
                    "component=engine leaderworkerset.sigs.k8s.io/worker-index=0",
                ]
            if self.chance(3):
                router.update(_annotated("MultiNode"))
            spec["routerConfig"] = router
        return {
            "apiVersion": API,
            "kind": "ServingRuntime" if namespaced else "ClusterServingRuntime",
            "metadata": metadata,
            "spec": spec,
        }

    # --- InferenceServices ---------------------------------------------------

    def make_isvc(self, index: int) -> dict[str, Any]:
        namespace = self.random.choice(self.namespaces)
        model = self.random.choice(self.models)
        model_ref: dict[str, Any] = {"name": model["metadata"]["name"]}
        if model["kind"] == "BaseModel":
            model_ref["kind"] = "BaseModel"
            namespace = model["metadata"]["namespace"]
        metadata: dict[str, Any] = {"name": f"isvc-{index:05d}", "namespace": namespace}
        spec: dict[str, Any] = {"model": model_ref}
        if self.chance(5):
            metadata["annotations"] = {MODE_KEY: self.random.choice(["MultiNode", "RawDeployment"])}
        elif self.chance(0.5):
            metadata["annotations"] = {MODE_KEY: "VirtualDeployment"}
        if self.chance(20):
            spec["deploymentMode"] = self.random.choice(["OMENative", "OMENative", "RawDeployment"])
        engine: dict[str, Any] = {"minReplicas": 1, "maxReplicas": self.random.choice([1, 2, 4])}
        if self.chance(10):
            engine.update(
                _annotated(self.random.choice(["MultiNode", "OMENative", "RawDeployment"]))
            )
        if self.chance(5):
            engine["leader"] = {
                "runner": {"name": "ome-container", "resources": {"limits": {"nvidia.com/gpu": 8}}}
            }
            engine["worker"] = {"size": 1}
        if self.chance(5):
            engine["acceleratorOverride"] = {"acceleratorClass": self.random.choice(ACCELERATORS)}
        spec["engine"] = engine
        if self.chance(10):
            spec["decoder"] = {
                "minReplicas": 1,
                **_annotated(self.random.choice([None, "OMENative", "RawDeployment"])),
            }
        if self.chance(25):
            spec["router"] = {"minReplicas": 1}
        if self.chance(25):
            runtime = self.random.choice(self.runtimes)
            ref: dict[str, Any] = {"name": runtime["metadata"]["name"]}
            if runtime["kind"] == "ServingRuntime":
                ref["kind"] = "ServingRuntime"
            spec["runtime"] = ref
        return {
            "apiVersion": API,
            "kind": "InferenceService",
            "metadata": metadata,
            "spec": spec,
        }

    def build(self) -> Fleet:
        self.make_models()
        self.runtimes = [self.make_runtime(i) for i in range(self.runtime_count)]
        self.isvcs = [self.make_isvc(i) for i in range(self.isvc_count)]
        return self

    def documents(self) -> list[dict[str, Any]]:
        return [*self.models, *self.runtimes, *self.isvcs]


def _dump(documents: list[dict[str, Any]]) -> str:
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump_all(documents, Dumper=dumper, sort_keys=False, width=1_000_000)


def write_fleet(fleet: Fleet, out: Path) -> list[Path]:
    """One file per kind, as a GitOps repository might hold them."""
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for name, documents in (
        ("models.yaml", fleet.models),
        ("runtimes.yaml", fleet.runtimes),
        ("inferenceservices.yaml", fleet.isvcs),
    ):
        path = out / name
        path.write_text(_dump(documents))
        files.append(path)
    return files


def as_list(fleet: Fleet) -> str:
    """The fleet as `kubectl get ... -A -o yaml` prints it: one List."""
    return _dump([{"apiVersion": "v1", "kind": "List", "items": fleet.documents()}])


def as_json_list(fleet: Fleet) -> str:
    """The fleet as `kubectl get ... -A -o json` prints it: one List."""
    listed = {"apiVersion": "v1", "items": fleet.documents(), "kind": "List", "metadata": {}}
    return json.dumps(listed, indent=4) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--isvcs", type=int, default=1000)
    parser.add_argument("--runtimes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, help="folder to write (one file per kind)")
    parser.add_argument("--list", action="store_true", help="print one kubectl-style List")
    args = parser.parse_args(argv)
    fleet = Fleet(args.isvcs, args.runtimes, args.seed).build()
    if args.out:
        for path in write_fleet(fleet, args.out):
            print(path)
    else:
        sys.stdout.write(as_list(fleet) if args.list else _dump(fleet.documents()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
