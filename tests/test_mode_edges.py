"""The mode rule's sharp edges as findings (issue 25): a mode value OME passes
over where it is written, a mode where it does not count, an annotation a
runtime inherits, a named runtime's mode overriding spec.deploymentMode; each
finding whole, at the value's line and column; in every output format; and
on the catalog."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from conftest import CATALOG, ROOT, need, run_cli, write

from modetable.audit.edges import EDGES
from modetable.rules.words import ModeSourceFinding

MODEL = """\
apiVersion: ome.io/v1beta1
kind: ClusterBaseModel
metadata:
  name: m
spec:
  modelFormat: {name: safetensors, version: "1.0.0"}
  modelFramework: {name: transformers, version: "4.46.0"}
  modelArchitecture: LlamaForCausalLM
  modelParameterSize: 8B
  storage: {storageUri: "hf://example/m"}
"""

RUNTIME = """\
apiVersion: ome.io/v1beta1
kind: ClusterServingRuntime
metadata:
  name: {name}{annotations}
spec:
  supportedModelFormats:
    - modelFormat: {{name: safetensors, version: "1.0.0"}}
      modelFramework: {{name: transformers, version: "4.46.0"}}
      modelArchitecture: LlamaForCausalLM
      autoSelect: true
{configs}"""

# Line 7 holds the InferenceService's metadata annotation, line 14 the
# engine's, line 9 spec.deploymentMode.
ISVC = """\
apiVersion: ome.io/v1beta1
kind: InferenceService
metadata:
  name: svc
  namespace: ns
  annotations:
    ome.io/deploymentMode: {metadata}
spec:
  deploymentMode: OMENative
  model:
    name: m
  engine:
    annotations:
      ome.io/deploymentMode: {engine}
{rest}"""


def _audit(tmp_path, *texts: str, fmt: str = "json"):
    path = write(tmp_path, "f.yaml", "---\n".join(texts))
    return path, run_cli("audit", str(path), "-o", fmt)


def _whole(finding: dict) -> tuple:
    where = finding["location"]
    return (
        finding["id"],
        finding["severity"],
        finding["message"],
        where["file"],
        where["line"],
        where["col"],
    )


def _plain_runtime(name: str = "rt", annotations: str = "", configs: str = "") -> str:
    return RUNTIME.format(name=name, annotations=annotations, configs=configs)


def test_every_edge_has_its_verdict_or_its_comparison():
    assert set(EDGES) == set(ModeSourceFinding)


def test_a_misspelled_engine_annotation_and_a_mode_in_metadata(tmp_path):
    isvc = ISVC.format(metadata="OMENative", engine="Multinode", rest="")
    path, run = _audit(tmp_path, isvc, MODEL, _plain_runtime())
    assert run.code == 0, run.err
    [item] = run.json()["items"]
    assert [_whole(f) for f in item["findings"]] == [
        (
            "mode_source/not_valid",
            "warning",
            'spec.engine.annotations[ome.io/deploymentMode] is "Multinode", not a deployment '
            'mode in v1.3 (did you mean "MultiNode"?): OME counts it as no mode, and the '
            "engine's mode comes from spec.deploymentMode instead (OMENative)",
            str(path),
            14,
            30,
        ),
        (
            "mode_source/does_not_count",
            "warning",
            'metadata.annotations[ome.io/deploymentMode] is "OMENative", but OME does not read '
            "a mode there for matching: the engine's mode comes from spec.deploymentMode "
            "instead (OMENative); only VirtualDeployment counts there, for the whole "
            "InferenceService",
            str(path),
            7,
            28,
        ),
    ]
    assert all(f["related"] == [] and f["object"]["name"] == "svc" for f in item["findings"])


def test_a_mode_in_the_wrong_case_and_one_of_another_version(tmp_path):
    rest = "  decoder:\n    annotations:\n      ome.io/deploymentMode: MultiNodeRayVLLM\n"
    isvc = ISVC.format(metadata="VirtualDeployment", engine="omenative", rest=rest)
    path, run = _audit(tmp_path, isvc, MODEL, _plain_runtime())
    [item] = run.json()["items"]
    edges = [_whole(f) for f in item["findings"] if f["id"].startswith("mode_source/")]
    assert edges == [
        (
            "mode_source/not_valid",
            "warning",
            'spec.engine.annotations[ome.io/deploymentMode] is "omenative", not a deployment '
            'mode in v1.3 (did you mean "OMENative"?): OME counts it as no mode, and the '
            "engine's mode comes from spec.deploymentMode instead (OMENative)",
            str(path),
            14,
            30,
        ),
        # VirtualDeployment in metadata.annotations counts (the whole service is
        # virtual): no finding of the place (mode/VirtualDeployment says it).
        (
            "mode_source/not_valid",
            "warning",
            'spec.decoder.annotations[ome.io/deploymentMode] is "MultiNodeRayVLLM", not a '
            "deployment mode in v1.3 (a mode before v1.3 only): OME counts it as no mode, and "
            "the decoder's mode comes from spec.deploymentMode instead (OMENative)",
            str(path),
            17,
            30,
        ),
    ]


def test_another_versions_mode_is_a_mode_in_its_own_version(tmp_path):
    """MultiNodeRayVLLM is a mode of v1.2.2: no finding there (the rules' modes decide)."""
    rest = "  decoder:\n    annotations:\n      ome.io/deploymentMode: MultiNodeRayVLLM\n"
    isvc = ISVC.format(metadata="RawDeployment", engine="MultiNode", rest=rest)
    # v1.2.2's CRD has no spec.deploymentMode (the API server would refuse it).
    isvc = isvc.replace("  deploymentMode: OMENative\n", "")
    path = write(tmp_path, "f.yaml", "---\n".join([isvc, MODEL, _plain_runtime()]))
    run = run_cli("--ome-version", "v1.2.2", "audit", str(path), "-o", "json")
    [item] = run.json()["items"]
    assert [f["id"] for f in item["findings"] if f["id"].startswith("mode_source/")] == [
        "mode_source/does_not_count"  # the metadata annotation, in v1.2.2 too
    ]


def test_a_runtimes_metadata_and_misspelled_modes_not_its_router_mode(tmp_path):
    configs = (
        "  engineConfig:\n    annotations:\n      ome.io/deploymentMode: rawdeployment\n"
        "  routerConfig:\n    annotations:\n      ome.io/deploymentMode: MultiNode\n"
    )
    annotations = "\n  annotations:\n    ome.io/deploymentMode: MultiNode"
    runtime = _plain_runtime(annotations=annotations, configs=configs)
    isvc = ISVC.format(metadata="RawDeployment", engine="OMENative", rest="")
    path, run = _audit(tmp_path, runtime, isvc, MODEL)
    found = [_whole(f) for f in run.json()["manifest_findings"]]
    declares_none = (
        "no other place sets one: the runtime declares no engine mode, so it passes "
        "matching whatever the InferenceService asks for"
    )
    assert found == [
        (
            "mode_source/not_valid",
            "warning",
            'spec.engineConfig.annotations[ome.io/deploymentMode] is "rawdeployment", not a '
            'deployment mode in v1.3 (did you mean "RawDeployment"?): '
            f"OME counts it as no mode, and {declares_none}",
            str(path),
            15,
            30,
        ),
        (
            "mode_source/does_not_count",
            "warning",
            'metadata.annotations[ome.io/deploymentMode] is "MultiNode", but OME does not read '
            f"a mode there for matching: {declares_none}",
            str(path),
            6,
            28,
        ),
        # The routerConfig mode (line 18) is none: it sets the router's running mode.
    ]
    assert {f["object"]["name"] for f in run.json()["manifest_findings"]} == {"rt"}


def test_an_annotation_a_runtime_inherits(tmp_path):
    """Info on the child, at the annotation naming its parent, the parent's value related."""
    parent = _plain_runtime(
        name="base",
        configs="  engineConfig:\n    annotations:\n      ome.io/deploymentMode: MultiNode\n",
    )
    child = _plain_runtime(
        name="child", annotations="\n  annotations:\n    ome.io/inherit-from: base"
    )
    path, run = _audit(tmp_path, parent, child)
    [finding] = [f for f in run.json()["manifest_findings"] if f["object"]["name"] == "child"]
    assert _whole(finding) == (
        "mode_source/when_named",
        "info",
        'spec.engineConfig.annotations[ome.io/deploymentMode] is "MultiNode", inherited from '
        "ClusterServingRuntime base: auto-selection does not see it; only InferenceServices "
        "that name child get it",
        str(path),
        20,
        26,
    )
    assert finding["related"] == [
        {"file": str(path), "line": 13, "col": 30, "label": "ClusterServingRuntime base"}
    ]


def test_a_named_runtimes_mode_overriding_spec_deployment_mode(tmp_path):
    runtime = _plain_runtime(
        configs="  engineConfig:\n    annotations:\n      ome.io/deploymentMode: MultiNode\n"
    )
    isvc = """\
apiVersion: ome.io/v1beta1
kind: InferenceService
metadata:
  name: svc
  namespace: ns
spec:
  deploymentMode: OMENative
  model:
    name: m
  runtime:
    name: rt
  engine: {}
"""
    path, run = _audit(tmp_path, isvc, MODEL, runtime)
    [item] = run.json()["items"]
    [finding] = [f for f in item["findings"] if f["id"] == "mode_source/overridden"]
    assert _whole(finding) == (
        "mode_source/overridden",
        "warning",
        "engine runs in MultiNode, which ClusterServingRuntime rt sets "
        "(spec.engineConfig.annotations[ome.io/deploymentMode]), though spec.deploymentMode "
        "asks for OMENative",
        str(path),
        7,
        19,
    )
    assert finding["related"] == [
        {"file": str(path), "line": 37, "col": 30, "label": "ClusterServingRuntime rt"}
    ]


@pytest.fixture
def misspelled(tmp_path):
    isvc = ISVC.format(metadata="OMENative", engine="Multinode", rest="")
    return write(tmp_path, "f.yaml", "---\n".join([isvc, MODEL, _plain_runtime()]))


NOT_VALID = (
    'spec.engine.annotations[ome.io/deploymentMode] is "Multinode", not a deployment mode '
    'in v1.3 (did you mean "MultiNode"?)'
)
NO_COUNT = 'metadata.annotations[ome.io/deploymentMode] is "OMENative", but OME does not read'


@pytest.mark.parametrize(
    "fmt", ["table", "json", "yaml", "github", "junit", "sarif", "markdown", "html"]
)
def test_the_edges_in_every_format(misspelled, fmt):
    run = run_cli("audit", str(misspelled), "-o", fmt)
    assert run.code == 0, run.err
    out = run.out
    if fmt == "table":
        assert f"{misspelled}:14:30: warning: {NOT_VALID}" in out
        assert f"{misspelled}:7:28: warning: {NO_COUNT}" in out
    elif fmt in ("json", "yaml"):
        document = json.loads(out) if fmt == "json" else yaml.safe_load(out)
        places = {(f["id"], f["location"]["line"]) for f in document["items"][0]["findings"]}
        assert places == {("mode_source/not_valid", 14), ("mode_source/does_not_count", 7)}
    elif fmt == "github":
        assert (
            f"::warning file={misspelled},line=14,col=30,title=modetable mode_source/not_valid"
            in out
        )
        assert (
            f"::warning file={misspelled},line=7,col=28,title=modetable mode_source/does_not_count"
            in out
        )
    elif fmt == "junit":
        text = ET.fromstring(out).find(".//system-out").text
        assert f"{misspelled}:14:30: warning: {NOT_VALID}" in text
        assert f"{misspelled}:7:28: warning: {NO_COUNT}" in text
    elif fmt == "sarif":
        results = json.loads(out)["runs"][0]["results"]
        regions = {
            (r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
            for r in results
        }
        assert regions == {("mode_source/not_valid", 14), ("mode_source/does_not_count", 7)}
    elif fmt == "markdown":
        assert "`mode_source/not_valid`" in out and "`mode_source/does_not_count`" in out
        assert f"`{misspelled}:14:30`" in out and f"`{misspelled}:7:28`" in out
    else:
        # The page's rows are data in the page (JSON, escaped for a script element).
        assert json.dumps(NOT_VALID)[1:-1] in out
        assert json.dumps(NO_COUNT)[1:-1] in out


def test_the_catalogs_services_with_a_mode_in_metadata_each_get_the_finding(catalog_read_once):
    """Seven catalog InferenceServices write a mode in metadata.annotations."""
    run = run_cli("audit", str(need(CATALOG)), "-o", "json")
    document = run.json()
    written = []
    for item in document["items"]:
        text = Path(item["at"].rsplit(":", 2)[0]).read_text(encoding="utf-8")
        for doc in yaml.safe_load_all(text):
            meta = (doc or {}).get("metadata") or {}
            if (
                doc.get("kind") == "InferenceService"
                and meta.get("name") == item["name"]
                and "ome.io/deploymentMode" in (meta.get("annotations") or {})
            ):
                written.append(item["isvc"])
    flagged = [
        item["isvc"]
        for item in document["items"]
        if any(
            f["id"] == "mode_source/does_not_count"
            and f["message"].startswith("metadata.annotations[ome.io/deploymentMode] is ")
            for f in item["findings"]
        )
    ]
    assert len(written) == 7
    assert sorted(flagged) == sorted(set(written))


def test_no_catalog_finding_stands_where_an_object_begins_when_a_field_decides(
    catalog_read_once,
):
    """Every finding of an InferenceService stands at a field (its value, its
    key, or the nearest key holding a field it lacks), never where the
    InferenceService or another object begins; only the manifests' own findings
    about whole objects (one defined twice) stand there."""
    run = run_cli("audit", str(need(CATALOG)), "-o", "json")
    document = run.json()
    starts = {item["at"] for item in document["items"]}
    for item in document["items"]:
        for finding in item["findings"]:
            where = finding["location"]
            place = f"{where['file']}:{where['line']}:{where['col']}"
            assert place not in starts, (item["isvc"], finding["id"])
            assert (where["line"], where["col"]) != (1, 1), (item["isvc"], finding["id"])
            for other in finding["related"]:
                assert other["file"] != where["file"] or other["line"] != where["line"]
    wholes = {f["id"] for f in document["manifest_findings"] if f["location"]["col"] == 1}
    assert wholes <= {"manifest/duplicate"}


def test_the_sharp_edges_page_lists_each_edge_with_an_example_the_audit_gives(tmp_path, v13):
    """docs/sharp-edges.md's region: each `mode_source` id of the rules, and
    each example's YAML, audited, gives the finding the page shows."""
    page = (ROOT / "docs" / "sharp-edges.md").read_text(encoding="utf-8")
    region = page.split("<!-- BEGIN modetable:sharp-edges -->")[1]
    region = region.split("<!-- END modetable:sharp-edges -->")[0]
    ids = [f"mode_source/{kind}" for kind in v13.rules.findings.mode_source]
    sections = region.split("### ")[1:]
    assert [s.split("`")[1] for s in sections] == ids
    shown = 0
    for section in sections:
        if "```yaml\n" not in section:
            assert "No place gives it in v1.3." in section
            continue
        example = section.split("```yaml\n")[1].split("```")[0]
        said = section.split("```text\n")[1].split("```")[0].strip()
        path = write(tmp_path, f"{shown}.yaml", example)
        document = run_cli("audit", str(path), "-o", "json").json()
        every = [f for item in document["items"] for f in item["findings"]]
        every += document["manifest_findings"]
        assert said in [f"{f['severity']}: {f['message']} [{f['id']}]" for f in every]
        shown += 1
    assert shown == 4  # not_accepted: no place gives it in v1.3
