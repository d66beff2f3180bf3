"""`audit -n NAMESPACE` stays in its namespace: findings about the namespace's
objects and the cluster-scoped objects its InferenceServices use (run on,
could be given, name), nothing else, in every output format and in the
upgrade view; a namespace no object is in is an error (exit 2), one with no
InferenceService a warning."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
import yaml
from conftest import (
    CATALOG,
    SHARED,
    format_entry,
    isvc_doc,
    llama_model_spec,
    model_doc,
    need,
    run_cli,
    runtime_doc,
    write,
)
from test_docs_commands import commands, examples

import modetable

FORMATS = ("table", "json", "yaml", "github", "junit", "sarif", "markdown", "html")
FALCON = "falcon3-10b-instruct"


# --- the catalog ----------------------------------------------------------------


def test_a_catalog_namespace_lists_no_other_namespaces_objects(catalog_read_once):
    """The catalog's four duplicated cluster runtimes are used by other
    namespaces only: falcon3-10b-instruct's audit is clean, and passes
    `--fail-on warning`, in every format."""
    catalog = str(need(CATALOG))
    run = run_cli("audit", catalog, "-n", FALCON, "-o", "json", "--fail-on", "warning")
    assert (run.code, run.err) == (0, "")
    document = run.json()
    assert [i["isvc"] for i in document["items"]] == [f"{FALCON}/{FALCON}"]
    findings = [f for i in document["items"] for f in i["findings"]]
    assert findings + document["manifest_findings"] == []
    assert document["summary"]["findings"] == {"error": 0, "warning": 0, "info": 0}
    whole = run_cli("audit", catalog, "-o", "json").json()
    duplicated = {f["object"]["name"] for f in whole["manifest_findings"]}
    assert "srt-qwen2-5-32b-instruct" in duplicated  # what -n leaves out
    for fmt in FORMATS:
        shown = run_cli("audit", catalog, "-n", FALCON, "-o", fmt, "--fail-on", "warning")
        assert (shown.code, shown.err) == (0, ""), fmt
        assert "defined twice" not in shown.out, fmt
        assert not any(name in shown.out for name in duplicated), fmt


def test_a_catalog_namespace_that_uses_a_duplicated_runtime_keeps_its_warning(catalog_read_once):
    catalog = str(need(CATALOG))
    run = run_cli("audit", catalog, "-n", "qwen2-5-32b-instruct", "-o", "json")
    listed = [
        (f["id"], f["object"]["kind"], f["object"]["namespace"], f["object"]["name"])
        for f in run.json()["manifest_findings"]
    ]
    assert listed == [
        (
            "manifest/duplicate",
            "InferenceService",
            "qwen2-5-32b-instruct",
            "qwen2-5-32b-instruct",
        ),
        ("manifest/duplicate", "ClusterServingRuntime", None, "srt-qwen2-5-32b-instruct"),
    ]
    [line] = run.err.splitlines()
    assert line.startswith(
        f"modetable: warning: {catalog}/inferenceservices/Qwen/qwen2-5-32b-instruct.yaml:1:1: "
        "InferenceService qwen2-5-32b-instruct/qwen2-5-32b-instruct is defined twice"
    )
    assert line.endswith("(and 1 more defined twice: `modetable audit` lists each)")


def test_a_namespace_no_object_is_in_is_an_error(catalog_read_once):
    """A misspelled -n in a CI config must not pass forever, finding nothing:
    exit 2 with one line, whatever --fail-on says, nothing on stdout."""
    catalog = str(need(CATALOG))
    for extra in ((), ("--fail-on", "never"), ("-o", "json"), ("-q",), ("--from", "v1.2.2")):
        run = run_cli("audit", catalog, "-n", "nosuchns", *extra)
        assert (run.code, run.out, run.err) == (
            2,
            "",
            "modetable: error: no object of namespace 'nosuchns' among the manifests\n",
        ), extra
    typo = run_cli("audit", catalog, "-n", "falcon3-10b-instruc")
    assert (typo.code, typo.err) == (
        2,
        "modetable: error: no object of namespace 'falcon3-10b-instruc' among the manifests "
        '(did you mean "falcon3-10b-instruct" or "falcon-7b-instruct" or '
        '"llama-3-1-70b-instruct"?)\n',
    )


# --- a cluster made for it ------------------------------------------------------------

ONNX = {"name": "onnx", "version": "1.0.0"}
# Cluster runtimes defined twice (f.yaml, then g.yaml): one that auto-selection
# picks, one that also qualifies (ranked below it), and the parent of a runtime
# an InferenceService names (no auto-selection: autoSelect false).
_TWICE = [
    runtime_doc("picked", supportedModelFormats=[format_entry(priority=5)]),
    runtime_doc("runner-up", supportedModelFormats=[format_entry(priority=1)]),
    runtime_doc("parent", supportedModelFormats=[format_entry(autoSelect=False)]),
]


@pytest.fixture
def fleet(tmp_path) -> Path:
    """auto: picks `picked` (`runner-up` could be picked too); named: names
    `child` (which inherits from `parent`) and the malformed model `broken`;
    other: its own model and runtime, of a format no cluster runtime serves;
    lonely: a runtime and no InferenceService."""
    once = [
        model_doc("m", **llama_model_spec()),
        *_TWICE,
        runtime_doc("child", annotations={"ome.io/inherit-from": "parent"}),
        model_doc("own", kind="BaseModel", namespace="other", **llama_model_spec(modelFormat=ONNX)),
        runtime_doc(
            "local",
            kind="ServingRuntime",
            namespace="other",
            supportedModelFormats=[format_entry(modelFormat=ONNX)],
        ),
        runtime_doc("alone", kind="ServingRuntime", namespace="lonely"),
        isvc_doc("svc", "auto", engine={}),
        isvc_doc("svc", "named", engine={}, runtime={"name": "child"}),
        isvc_doc("lost", "named", engine={}, model={"name": "broken"}),
        isvc_doc("svc", "other", engine={}, model={"name": "own", "kind": "BaseModel"}),
    ]
    again = [*_TWICE, {**model_doc("broken"), "spec": [1]}]
    write(tmp_path, "fleet/f.yaml", yaml.safe_dump_all(once, sort_keys=False))
    write(tmp_path, "fleet/g.yaml", yaml.safe_dump_all(again, sort_keys=False))
    return tmp_path / "fleet"


def _listed(document: dict) -> list[tuple[str, str, str]]:
    return [
        (f["id"], f["object"]["kind"], f["object"]["name"]) for f in document["manifest_findings"]
    ]


def _twice(fleet: Path, name: str, line: int, first: int, more: int = 0) -> str:
    extra = f" (and {more} more defined twice: `modetable audit` lists each)" if more else ""
    return (
        f"modetable: warning: {fleet}/g.yaml:{line}:1: ClusterServingRuntime {name} is defined "
        f"twice (first at {fleet}/f.yaml:{first}:1); the later one is used, as kubectl apply "
        f"would leave it{extra}\n"
    )


def test_every_namespace_keeps_the_cluster_objects_it_uses_and_no_other(fleet):
    whole = run_cli("audit", str(fleet), "-o", "json")
    assert whole.err == _twice(fleet, "picked", 1, 17, more=2)
    assert _listed(whole.json()) == [
        ("manifest/invalid", "ClusterBaseModel", "broken"),
        ("manifest/duplicate", "ClusterServingRuntime", "picked"),
        ("manifest/duplicate", "ClusterServingRuntime", "runner-up"),
        ("manifest/duplicate", "ClusterServingRuntime", "parent"),
    ]
    auto = run_cli("audit", str(fleet), "-n", "auto", "-o", "json")
    assert auto.json()["items"][0]["runtime"]["name"] == "picked"
    # The runtime picked, and the one auto-selection ranks next: both its concern.
    assert _listed(auto.json()) == [
        ("manifest/duplicate", "ClusterServingRuntime", "picked"),
        ("manifest/duplicate", "ClusterServingRuntime", "runner-up"),
    ]
    assert auto.err == _twice(fleet, "picked", 1, 17, more=1)
    named = run_cli("audit", str(fleet), "-n", "named", "-o", "json")
    # The named runtime's parent, and the model it names that does not read.
    assert _listed(named.json()) == [
        ("manifest/invalid", "ClusterBaseModel", "broken"),
        ("manifest/duplicate", "ClusterServingRuntime", "parent"),
    ]
    assert named.err == _twice(fleet, "parent", 33, 49)
    other = run_cli("audit", str(fleet), "-n", "other", "-o", "json", "--fail-on", "warning")
    assert (other.code, other.err, _listed(other.json())) == (0, "", [])
    assert other.json()["summary"]["findings"] == {"error": 0, "warning": 0, "info": 0}


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_is_scoped_alike(fleet, fmt):
    """Each format shows what -o json shows: `other` nothing of the cluster's
    duplicates, `auto` the two it uses."""
    other = run_cli("audit", str(fleet), "-n", "other", "-o", fmt, "--fail-on", "warning")
    assert (other.code, other.err) == (0, "")
    assert "defined twice" not in other.out
    auto = run_cli("audit", str(fleet), "-n", "auto", "-o", fmt, "--fail-on", "warning")
    assert auto.code == 1
    for name in ("picked", "runner-up"):
        assert f"ClusterServingRuntime {name} is defined twice" in auto.out, name
    assert "ClusterServingRuntime parent" not in auto.out


def test_a_namespace_with_objects_but_no_inferenceservice_is_a_warning(fleet):
    run = run_cli("audit", str(fleet), "-n", "lonely", "-o", "json", "--fail-on", "warning")
    assert (run.code, run.err) == (
        0,
        "modetable: warning: no InferenceService of namespace 'lonely' among the manifests\n",
    )
    assert run.json()["items"] == []
    assert _listed(run.json()) == []


def test_the_upgrade_view_is_scoped_alike(fleet):
    """(It reads its inputs strictly: the malformed model left out.)"""
    write(fleet, "g.yaml", yaml.safe_dump_all(_TWICE, sort_keys=False))
    auto = run_cli("audit", "--from", "v1.2.2", str(fleet), "-n", "auto", "-o", "json")
    assert [i["isvc"] for i in auto.json()["items"]] == ["auto/svc"]
    assert auto.err == _twice(fleet, "picked", 1, 17, more=1)
    other = run_cli("audit", "--from", "v1.2.2", str(fleet), "-n", "other")
    assert (other.code, other.err) == (0, "")
    lonely = run_cli("audit", "--from", "v1.2.2", str(fleet), "-n", "lonely")
    assert lonely.err == (
        "modetable: warning: no InferenceService of namespace 'lonely' among the manifests\n"
    )
    nothing = run_cli("audit", "--from", "v1.2.2", str(fleet), "-n", "auto2")
    assert (nothing.code, nothing.err) == (
        2,
        "modetable: error: no object of namespace 'auto2' among the manifests "
        '(did you mean "auto"?)\n',
    )


def test_without_a_namespace_everything_as_before(fleet):
    """-A and no -n: every finding, the loader's one warning."""
    plain = run_cli("audit", str(fleet), "-o", "json")
    every = run_cli("audit", str(fleet), "-A", "-o", "json")
    assert (every.code, every.out, every.err) == (plain.code, plain.out, plain.err)
    assert len(plain.json()["manifest_findings"]) == 4


def test_the_api_scopes_alike(fleet):
    policy = modetable.load_rules().at()
    with pytest.warns(modetable.ModetableWarning):  # the duplicates, when read
        cluster = modetable.Cluster.from_paths(fleet, rules=policy, lenient=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        other = modetable.audit_cluster(policy, cluster, namespace="other").to_json()
        auto = modetable.audit_cluster(policy, cluster, namespace="auto").to_json()
    assert _listed(other) == []
    assert _listed(auto) == [
        ("manifest/duplicate", "ClusterServingRuntime", "picked"),
        ("manifest/duplicate", "ClusterServingRuntime", "runner-up"),
    ]
    cli = run_cli("audit", str(fleet), "-n", "auto", "-o", "json").json()
    assert json.loads(json.dumps(auto)) == cli
    with pytest.warns(modetable.ModetableWarning) as said:
        lonely = modetable.audit_cluster(policy, cluster, namespace="lonely")
    assert [str(w.message) for w in said] == [
        "no InferenceService of namespace 'lonely' among the manifests"
    ]
    assert said[0].filename == __file__
    assert lonely.to_json()["items"] == []
    with pytest.raises(modetable.ModetableError) as refused:
        modetable.audit_cluster(policy, cluster, namespace="nosuchns")
    assert str(refused.value) == "no object of namespace 'nosuchns' among the manifests"


def test_the_pages_example(monkeypatch):
    """docs/commands.md's example of a misspelled namespace, run from ../shared:
    the line it shows on stderr, and the exit code `echo $?` shows."""
    need(CATALOG)
    monkeypatch.chdir(SHARED)
    [block] = examples("### One namespace: `-n`")
    [(argv, shown), (echo, code)] = commands(block.replace("$ echo $?", "$ echo"))
    assert (argv[0], echo) == ("modetable", ["echo"])
    run = run_cli(*argv[1:])
    assert (run.code, run.out) == (int(code[0]), "")
    assert run.err.splitlines() == [
        f"modetable: error: {shown[0].removeprefix('modetable: error: ')}"
    ]


def test_a_missing_parent_is_used_by_its_name(tmp_path):
    """A runtime whose parent is malformed (so not found): the parent's finding
    is the concern of the namespace that names the child, not of another."""
    documents = [
        model_doc("m", **llama_model_spec()),
        runtime_doc("kid", annotations={"ome.io/inherit-from": "gone"}),
        {**runtime_doc("gone"), "spec": [1]},
        runtime_doc("plain", supportedModelFormats=[format_entry()]),
        isvc_doc("svc", "x", engine={}, runtime={"name": "kid"}),
        isvc_doc("svc", "y", engine={}, runtime={"name": "plain"}),
    ]
    path = write(tmp_path, "f.yaml", yaml.safe_dump_all(documents, sort_keys=False))
    gone = [("manifest/invalid", "ClusterServingRuntime", "gone")]
    assert _listed(run_cli("audit", str(path), "-o", "json").json()) == gone
    assert _listed(run_cli("audit", str(path), "-n", "x", "-o", "json").json()) == gone
    assert _listed(run_cli("audit", str(path), "-n", "y", "-o", "json").json()) == []
