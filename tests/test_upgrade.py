"""`modetable audit --from v1.2.2 --to v1.3`: what the upgrade changes, and why."""

from __future__ import annotations

import pytest
import yaml
from conftest import (
    CATALOG,
    EXAMPLES,
    catalog_models_read,
    format_entry,
    isvc_doc,
    llama_model_spec,
    mode_annotation,
    model_doc,
    need,
    run_cli,
    runtime_doc,
    write,
)

LWS_COMMAND = ["python3", "--nnodes", "$(LWS_GROUP_SIZE)", "--node-rank", "$(LWS_WORKER_INDEX)"]


def documents() -> list[dict]:
    lws = {"runner": {"name": "ome-container", "command": LWS_COMMAND}}
    return [
        model_doc("m", **llama_model_spec()),
        # No mode: a leader and worker alone made the engine MultiNode in v1.2.2.
        runtime_doc(
            "lws-bare",
            supportedModelFormats=[format_entry(autoSelect=False)],
            engineConfig={"leader": lws, "worker": lws},
        ),
        runtime_doc(
            "mn",
            supportedModelFormats=[format_entry(priority=5)],
            engineConfig=mode_annotation("MultiNode"),
        ),
        runtime_doc("plain", supportedModelFormats=[format_entry()]),
        isvc_doc("grouped", "a", engine={}, runtime={"name": "lws-bare"}),
        isvc_doc("asks-native", "a", engine={}, deploymentMode="OMENative"),
        isvc_doc("steady", "b", engine={}, runtime={"name": "plain"}),
        # v1.2.2's webhook stamped MultiNode on such a service; it never counted.
        {
            **isvc_doc(
                "meta-mn", "b", engine={"leader": {}, "worker": {}}, runtime={"name": "plain"}
            ),
            "metadata": {
                "name": "meta-mn",
                "namespace": "b",
                "annotations": {"ome.io/deploymentMode": "MultiNode"},
            },
        },
    ]


@pytest.fixture
def fleet(tmp_path):
    return write(tmp_path, "fleet.yaml", yaml.safe_dump_all(documents(), sort_keys=False))


def _items(run) -> dict[str, dict]:
    return {item["isvc"]: item for item in run.json()["items"]}


def test_a_leader_worker_engine_moves_to_omenative_and_its_lws_names_break(fleet):
    run = run_cli("audit", str(fleet), "--from", "v1.2.2", "--to", "v1.3", "-o", "json")
    assert run.code == 1, run.err
    item = _items(run)["a/grouped"]
    assert (item["changed"], item["breaking"]) == (True, True)
    assert item["runtime"] == {
        "from": {
            "name": "lws-bare",
            "kind": "ClusterServingRuntime",
            "read_from": "manifest",
            "named": True,
        },
        "to": {
            "name": "lws-bare",
            "kind": "ClusterServingRuntime",
            "read_from": "manifest",
            "named": True,
        },
        "changed": False,
        "why": [],
    }
    engine = item["components"]["engine"]
    changes = engine.pop("changes")
    assert engine == {
        "from": {"mode": "MultiNode", "source": "LeaderWorkerShape"},
        "to": {"mode": "OMENative", "source": "LeaderWorkerShape"},
        "changed": True,
        "rule_changed": True,
        "why": ["LeaderWorkerShape gives OMENative in v1.3, MultiNode in v1.2.2"],
        "notes": [
            "engine moves to new OMENative pods; its MultiNode workload (a LeaderWorkerSet) "
            "keeps running until you delete it"
        ],
        "reconcile": {"from": None, "to": None},
    }
    assert [c["message"] for c in changes] == [
        f"ClusterServingRuntime lws-bare spec.engineConfig.{side}.runner.command[{index}] "
        f"uses the variable {name}, which OMENative does not set: use {replacement}"
        for side in ("leader", "worker")
        for index, name, replacement in (
            (2, "LWS_GROUP_SIZE", "OME_INSTANCE_POD_COUNT"),
            (4, "LWS_WORKER_INDEX", "OME_INSTANCE_POD_RANK"),
        )
    ]


def test_a_runtime_that_now_rejects_gives_way(fleet):
    items = _items(run_cli("audit", str(fleet), "--from", "v1.2.2", "-o", "json"))
    item = items["a/asks-native"]
    assert item["runtime"] == {
        "from": {
            "name": "mn",
            "kind": "ClusterServingRuntime",
            "read_from": "manifest",
            "named": False,
        },
        "to": {
            "name": "plain",
            "kind": "ClusterServingRuntime",
            "read_from": "manifest",
            "named": False,
        },
        "changed": True,
        "why": [
            "the runtime changes from mn to plain",
            "mn no longer qualifies in v1.3: runtime engine deployment mode MultiNode does "
            "not match requested engine deployment mode OMENative",
        ],
    }
    engine = item["components"]["engine"]
    assert (engine["from"], engine["to"]) == (
        {"mode": "MultiNode", "source": "ComponentAnnotation"},
        {"mode": "OMENative", "source": "ServiceSpec"},
    )
    assert engine["why"] == [
        "ServiceSpec decides in v1.3; in v1.2.2, OMENative: this source counts only since v1.3"
    ]
    assert engine["changes"] == []
    assert item["breaking"] is False


def test_the_stamped_metadata_annotation_does_not_keep_multinode(fleet):
    """mode-facts: the annotation v1.2.2 put in metadata.annotations does not count,
    so a leader/worker engine moves to OMENative all the same."""
    item = _items(run_cli("audit", str(fleet), "--from", "v1.2.2", "-o", "json"))["b/meta-mn"]
    engine = item["components"]["engine"]
    assert (engine["from"], engine["to"], engine["why"], engine["notes"]) == (
        {"mode": "MultiNode", "source": "LeaderWorkerShape"},
        {"mode": "OMENative", "source": "LeaderWorkerShape"},
        ["LeaderWorkerShape gives OMENative in v1.3, MultiNode in v1.2.2"],
        [
            "engine moves to new OMENative pods; its MultiNode workload (a LeaderWorkerSet) "
            "keeps running until you delete it"
        ],
    )
    assert engine["changes"] == []


def test_what_stays_is_listed_as_unchanged(fleet):
    item = _items(run_cli("audit", str(fleet), "--from", "v1.2.2", "-o", "json"))["b/steady"]
    assert (item["changed"], item["breaking"]) == (False, False)
    assert (
        item["components"]["engine"]["from"]
        == item["components"]["engine"]["to"]
        == {
            "mode": "RawDeployment",
            "source": "Default",
        }
    )
    assert item["problems"] == {"from": [], "to": [], "new": [], "fixed": []}


def test_the_upgrade_summary(fleet):
    run = run_cli("audit", str(fleet), "--from", "v1.2.2", "-o", "json")
    assert run.json()["summary"] == {
        "from": "v1.2.2",
        "to": "v1.3",
        "isvcs": 4,
        "changed": 3,
        "unchanged": 1,
        "breaking": 1,
        "runtime_changes": 1,
        "mode_changes": {"engine": {"MultiNode -> OMENative": 3}},
        "new_problems": {"denied": 0, "no_runtime": 0, "run_failure": 0},
        "fixed_problems": {"denied": 0, "no_runtime": 0, "run_failure": 0},
        "with_changes_to_make": 1,
    }


def test_a_namespace_is_compared_alone(fleet):
    """-n scopes the upgrade as it scopes an audit: the items and the summary are
    the namespace's (it was ignored: every namespace was listed)."""
    run = run_cli("audit", str(fleet), "--from", "v1.2.2", "-n", "b", "-o", "json")
    assert [item["isvc"] for item in run.json()["items"]] == ["b/steady", "b/meta-mn"]
    assert run.json()["summary"] == {
        "from": "v1.2.2",
        "to": "v1.3",
        "isvcs": 2,
        "changed": 1,
        "unchanged": 1,
        "breaking": 0,
        "runtime_changes": 0,
        "mode_changes": {"engine": {"MultiNode -> OMENative": 1}},
        "new_problems": {"denied": 0, "no_runtime": 0, "run_failure": 0},
        "fixed_problems": {"denied": 0, "no_runtime": 0, "run_failure": 0},
        "with_changes_to_make": 0,
    }
    assert run.code == 0


def test_the_upgrade_table(fleet):
    run = run_cli("audit", str(fleet), "--from", "v1.2.2")
    assert run.code == 1
    lines = run.out.splitlines()
    assert lines[0] == (
        "Upgrade v1.2.2 -> v1.3: 4 InferenceServices, 3 change (1 breaking), 1 stays as it is."
    )
    assert lines[2].split() == ["NAMESPACE", "NAME", "RUNTIME", "ENGINE", "IMPACT"]
    assert lines[3].split() == [
        "a", "grouped", "lws-bare", "(named)", "MultiNode", "->", "OMENative", "breaking"
    ]  # fmt: skip
    block = lines[lines.index("a/asks-native:") + 1 : lines.index("b/meta-mn:") - 1]
    assert block == [
        "  the runtime changes from mn to plain",
        "  mn no longer qualifies in v1.3: runtime engine deployment mode MultiNode does not "
        "match requested engine deployment mode OMENative",
        "  engine: MultiNode (ComponentAnnotation) -> OMENative (ServiceSpec)",
        "    ServiceSpec decides in v1.3; in v1.2.2, OMENative: this source counts only since v1.3",
        "    engine moves to new OMENative pods; its MultiNode workload (a LeaderWorkerSet) "
        "keeps running until you delete it",
    ]


def test_an_upgrade_that_breaks_nothing_exits_0(tmp_path):
    path = write(tmp_path, "ok.yaml", yaml.safe_dump_all([documents()[i] for i in (0, 3, 6)]))
    run = run_cli("audit", str(path), "--from", "v1.2.2", "-o", "json")
    assert run.code == 0, run.out
    assert run.json()["summary"]["changed"] == 0


def test_the_catalogs_multinode_runtimes_move_on_upgrade(tmp_path):
    """Once OME has read their models (as written, v1.3's webhook refuses the
    runtime they name for a model with no format, and nothing moves)."""
    models = catalog_models_read(tmp_path, "deepseek-r1", "kimi-k2-instruct")
    run = run_cli("audit", str(need(CATALOG)), str(models), "--from", "v1.2.2", "-o", "json")
    moved = {
        item["isvc"]: sorted(
            name for name, c in item["components"].items() if c["changed"] and c["changes"]
        )
        for item in run.json()["items"]
        if item["breaking"] and any(c["changes"] for c in item["components"].values())
    }
    assert moved == {
        "deepseek-r1/deepseek-r1": ["engine"],
        "kimi-k2-instruct/kimi-k2-instruct": ["engine"],
    }


def test_with_no_runtime_after_the_upgrade_nothing_moves():
    """The page's example: v1.3 reads spec.deploymentMode, so the MultiNode runtime
    v1.2.2 picked now rejects and none is left. OME then renders no workload (an
    existing InferenceService keeps its pods), so the engine does not move to
    OMENative pods and no LeaderWorkerSet is left behind."""
    run = run_cli("audit", str(EXAMPLES), "--from", "v1.2.2", "--to", "v1.3", "-o", "json")
    assert run.code == 1, run.err
    [item] = run.json()["items"]
    engine = item["components"]["engine"]
    assert (engine["from"], engine["to"]) == (
        {"mode": "MultiNode", "source": "ComponentAnnotation"},
        {"mode": "OMENative", "source": "ServiceSpec"},
    )
    assert engine["notes"] == [
        "engine does not move: with no runtime in v1.3, OME updates no workload "
        "(running pods keep serving)"
    ]
    assert engine["changes"] == []
    assert item["problems"]["new"] == ["denied", "no_runtime"]


def test_a_move_from_a_version_with_no_runtime_leaves_no_workload_behind(tmp_path):
    """v1.2.2 found no runtime (its size ranges need both bounds), so it made no
    LeaderWorkerSet to leave behind; what breaks on OMENative is still listed."""
    lws = {"runner": {"name": "ome-container", "command": LWS_COMMAND}}
    docs = [
        model_doc("m", **llama_model_spec()),
        # Auto-selectable only since v1.3: one bound of a size range (v1.2.2 needs both).
        runtime_doc(
            "one-bound",
            supportedModelFormats=[format_entry()],
            modelSizeRange={"min": "1B"},
        ),
        isvc_doc("grouped", "a", engine={"leader": lws, "worker": lws}),
    ]
    path = write(tmp_path, "fleet.yaml", yaml.safe_dump_all(docs, sort_keys=False))
    run = run_cli("audit", str(path), "--from", "v1.2.2", "-o", "json")
    [item] = run.json()["items"]
    assert (item["runtime"]["from"], item["runtime"]["to"]["name"]) == (None, "one-bound")
    engine = item["components"]["engine"]
    assert (engine["from"]["mode"], engine["to"]["mode"]) == ("MultiNode", "OMENative")
    assert engine["notes"] == []
    # What breaks on OMENative still breaks: the InferenceService's own LWS names.
    assert [c["name"] for c in engine["changes"]] == ["LWS_GROUP_SIZE", "LWS_WORKER_INDEX"] * 2


def upgrade_reasons(tmp_path, docs: list[dict], isvc: str) -> list[str]:
    """What `audit --from v1.2.2` says under `isvc` (NAMESPACE/NAME), the
    upgrade breaking nothing."""
    path = write(tmp_path, "fleet.yaml", yaml.safe_dump_all(docs, sort_keys=False))
    run = run_cli("audit", str(path), "--from", "v1.2.2")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    return lines[lines.index(f"{isvc}:") + 1 :]


def test_a_mode_valid_only_since_the_new_version_is_said_once(tmp_path):
    """OMENative in a component annotation is no mode in v1.2.2 (Default decided
    there); the one reason is that the annotation now counts, not also that
    Default, now shadowed, no longer decides."""
    docs = [
        model_doc("m", **llama_model_spec()),
        runtime_doc("plain", supportedModelFormats=[format_entry()]),
        isvc_doc("native", "a", engine=mode_annotation("OMENative")),
    ]
    assert upgrade_reasons(tmp_path, docs, "a/native") == [
        "  engine: RawDeployment (Default) -> OMENative (ComponentAnnotation)",
        "    ComponentAnnotation decides in v1.3; in v1.2.2, "
        "OMENative: not a valid mode in v1.2.2, so no mode",
    ]


def test_a_component_that_is_not_reconciled_does_not_move(tmp_path):
    """An engine in VirtualDeployment fails, and the decoder after it is not
    reconciled, in both versions: the decoder had no LeaderWorkerSet and gets no
    OMENative pods, so nothing moves and nothing in its specs breaks."""
    lws = {"runner": {"name": "ome-container", "command": LWS_COMMAND}}
    docs = [
        model_doc("m", **llama_model_spec()),
        runtime_doc("plain", supportedModelFormats=[format_entry()]),
        isvc_doc(
            "virtual",
            "a",
            engine=mode_annotation("VirtualDeployment"),
            decoder={"leader": lws, "worker": lws},
        ),
    ]
    path = write(tmp_path, "fleet.yaml", yaml.safe_dump_all(docs, sort_keys=False))
    run = run_cli("audit", str(path), "--from", "v1.2.2", "-o", "json")
    assert run.code == 0, run.err
    [item] = run.json()["items"]
    decoder = item["components"]["decoder"]
    assert (decoder["from"]["mode"], decoder["to"]["mode"]) == ("MultiNode", "OMENative")
    assert decoder["reconcile"] == {
        "from": "not reconciled because engine failed before it",
        "to": "not reconciled because engine failed before it",
    }
    assert (decoder["notes"], decoder["changes"], item["breaking"]) == ([], [], False)


def test_an_object_that_does_not_read_stops_the_upgrade_view(tmp_path):
    """As documented (audit --from): the upgrade view reads strictly, where the
    audit makes the object a manifest/invalid finding and goes on."""
    broken = isvc_doc("broken", "a")
    broken["spec"] = "oops"
    path = write(
        tmp_path, "fleet.yaml", yaml.safe_dump_all([*documents(), broken], sort_keys=False)
    )
    run = run_cli("audit", str(path), "--from", "v1.2.2")
    assert (run.code, run.out) == (2, "")
    # After the fleet: ---, apiVersion, kind, metadata, its name and namespace, spec.
    line = yaml.safe_dump_all(documents(), sort_keys=False).count("\n") + 7
    assert run.err == (
        f"modetable: error: {path}:{line}:7: spec must be a mapping, got the string 'oops'\n"
    )
    audited = run_cli("audit", str(path), "-o", "json")
    assert [f["id"] for f in audited.json()["manifest_findings"]] == ["manifest/invalid"]


def test_a_mode_inherited_since_the_new_version_names_the_source_passed_over(tmp_path):
    """v1.2.2 has no inheritance: a named child of a MultiNode parent ran its
    engine by Default. In v1.3 the inherited engine annotation decides, and the
    reason names the source it passes over (the audit stopped with an internal
    error here)."""
    docs = [
        model_doc("m", **llama_model_spec()),
        runtime_doc("parent", engineConfig=mode_annotation("MultiNode")),
        runtime_doc(
            "child",
            annotations={"ome.io/inherit-from": "parent"},
            supportedModelFormats=[format_entry()],
        ),
        isvc_doc("named", "a", engine={}, runtime={"name": "child"}),
    ]
    assert upgrade_reasons(tmp_path, docs, "a/named") == [
        "  engine: RawDeployment (Default) -> MultiNode (ComponentAnnotation)",
        "    Default no longer decides in v1.3: RawDeployment: not needed, "
        "ComponentAnnotation decided first",
    ]


def same_named_runtimes(namespace: str) -> list[dict]:
    """A ClusterServingRuntime and a ServingRuntime of `namespace`, both `same`,
    both serving the model: which one a name finds is the lookup's."""
    return [
        runtime_doc("same", supportedModelFormats=[format_entry()]),
        runtime_doc(
            "same", "ServingRuntime", namespace=namespace, supportedModelFormats=[format_entry()]
        ),
    ]


def test_a_named_serving_runtime_gives_way_to_a_cluster_one_of_its_name(tmp_path):
    """v1.2.2 ignores spec.runtime.kind and tries the ServingRuntime first; v1.3
    looks the ClusterServingRuntime up first (selection facts, section 9): the
    reason names both runtimes by kind, and the lookups."""
    docs = [
        model_doc("m", **llama_model_spec()),
        *same_named_runtimes("a"),
        isvc_doc("switch", "a", engine={}, runtime={"name": "same"}),
    ]
    assert upgrade_reasons(tmp_path, docs, "a/switch") == [
        "  the runtime changes from ServingRuntime a/same to ClusterServingRuntime same",
        "  the runtime named is looked up as ClusterServingRuntime then ServingRuntime in v1.3, "
        "as ServingRuntime then ClusterServingRuntime in v1.2.2",
    ]


def test_the_upgrade_judges_runtimes_by_the_webhooks_they_were_made_under(tmp_path):
    """A profile that is not disabled passes v1.2.2's runtime webhook, and stays
    after the upgrade (webhooks do not judge stored objects again), though
    v1.3's would deny it now: the upgrade view uses it on both sides."""
    docs = [
        model_doc("m", **llama_model_spec()),
        runtime_doc(
            "profile",
            annotations={"ome.io/runtime-profile": "true"},
            supportedModelFormats=[format_entry()],
        ),
        isvc_doc("svc", "a", engine={}),
    ]
    path = write(tmp_path, "fleet.yaml", yaml.safe_dump_all(docs, sort_keys=False))
    run = run_cli("audit", str(path), "--from", "v1.2.2", "--to", "v1.3", "-o", "json")
    assert run.code == 0, run.err
    [item] = run.json()["items"]
    assert (
        item["runtime"]["from"]
        == item["runtime"]["to"]
        == {
            "name": "profile",
            "kind": "ClusterServingRuntime",
            "read_from": "manifest",
            "named": False,
        }
    )
    # Made today, v1.3's webhook denies it: the plain audit leaves it out.
    audited = run_cli("audit", str(path), "-o", "json").json()
    assert [f["id"] for f in audited["manifest_findings"]] == ["manifest/denied"]


def test_the_lookup_is_no_reason_where_the_same_name_finds_nothing(tmp_path):
    """A virtual InferenceService uses no runtime in v1.3: the runtime goes, and
    the change of lookup order between the versions is not why."""
    virtual = isvc_doc("virtual", "a", engine={}, runtime={"name": "same"})
    virtual["metadata"]["annotations"] = {"ome.io/deploymentMode": "VirtualDeployment"}
    docs = [model_doc("m", **llama_model_spec()), *same_named_runtimes("a"), virtual]
    path = write(tmp_path, "fleet.yaml", yaml.safe_dump_all(docs, sort_keys=False))
    run = run_cli("audit", str(path), "--from", "v1.2.2", "-o", "json")
    [item] = run.json()["items"]
    assert item["runtime"]["why"] == ["the runtime changes from same to none"]
