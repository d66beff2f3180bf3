"""What the API server refuses by OME's CRD schema, as the commands say it: each
problem an audit finding (`schema/KIND`) at the field, with the schema's
closest names as the hint; the InferenceService asked about denied with the
server's text (exit 1); every other object refused left out with a warning."""

from __future__ import annotations

import pytest
from conftest import CATALOG, need, write

# The schema check's own manifests and texts, here as the commands answer them.
from test_schema_check import EXAONE, GLM, ISVC, QUANTITY, RUNTIME

STRICT = (
    ": under kubectl's default field validation (Strict) the API server refuses the object; "
    "under Warn it drops the field with a warning, so the field has no effect either way"
)

MODEL = """\
apiVersion: ome.io/v1beta1
kind: ClusterBaseModel
metadata:
  name: llama-3
spec:
  modelFormat:
    name: safetensors
  storage:
    storageUri: hf://meta-llama/Llama-3
"""


def schema_findings(cli, path, *options) -> list[tuple[str, str, str, str | None]]:
    run = cli("audit", str(path), "-o", "json", *options)
    assert run.code in (0, 1), run.err
    return [
        (f["id"], f["message"], f"{f['location']['line']}:{f['location']['col']}", f["hint"])
        for f in run.json()["manifest_findings"]
        if f["id"].startswith("schema/")
    ]


# One case per kind of problem OME's CRDs give: the manifest, and the finding
# (id, whole message, line:col, hint).
CASES = {
    "unknown-field": (
        ISVC + "  engine:\n    runner:\n      volumeMount: []\n",
        (
            "schema/unknown-field",
            'unknown field "spec.engine.runner.volumeMount"' + STRICT,
            "11:7",
            'the closest fields OME\'s CRD has there: "volumeMounts"',
        ),
    ),
    "type": (
        ISVC + "  engine:\n    minReplicas: one\n",
        (
            "schema/type",
            'spec.engine.minReplicas: Invalid value: "string": spec.engine.minReplicas in body '
            'must be of type integer: "string"',
            "10:18",
            None,
        ),
    ),
    "enum": (
        ISVC + "  deploymentMode: MultiNode\n",
        (
            "schema/enum",
            'spec.deploymentMode: Unsupported value: "MultiNode": supported values: '
            '"OMENative", "RawDeployment"',
            "9:19",
            None,
        ),
    ),
    "required": (
        ISVC.replace("    name: llama-3\n", "    kind: BaseModel\n"),
        ("schema/required", "spec.model.name: Required value", "7:3", None),
    ),
    "minimum": (
        RUNTIME + "  acceleratorRequirements:\n    minMemory: -1\n",
        (
            "schema/minimum",
            "spec.acceleratorRequirements.minMemory: Invalid value: -1: "
            "spec.acceleratorRequirements.minMemory in body should be greater than or equal to 0",
            "7:16",
            None,
        ),
    ),
    "pattern": (
        ISVC + "  engine:\n    runner:\n      resources:\n        limits:\n          cpu: four\n",
        (
            "schema/pattern",
            'spec.engine.runner.resources.limits.cpu: Invalid value: "four": '
            f"spec.engine.runner.resources.limits.cpu in body should match '{QUANTITY}'",
            "13:16",
            None,
        ),
    ),
    "duplicate": (
        ISVC + "  engine:\n    runner:\n      env:\n"
        "        - name: A\n          value: x\n        - name: A\n          value: y\n",
        (
            "schema/duplicate",
            'spec.engine.runner.env[1]: Duplicate value: {"name":"A"}',
            "14:11",
            None,
        ),
    ),
    "name": (
        ISVC.replace("name: llama\n", "name: Llama_3\n"),
        (
            "schema/name",
            'metadata.name: Invalid value: "Llama_3": a lowercase RFC 1123 subdomain must '
            "consist of lower case alphanumeric characters, '-' or '.', and must start and end "
            "with an alphanumeric character (e.g. 'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            "4:9",
            None,
        ),
    ),
}


@pytest.mark.parametrize("kind", list(CASES))
def test_each_kind_of_problem_is_a_finding_at_the_field(cli, tmp_path, kind):
    text, expected = CASES[kind]
    path = write(tmp_path, "object.yaml", text)
    assert schema_findings(cli, path) == [expected]


def test_a_value_of_neither_type_of_an_int_or_string_fails_its_any_of():
    # Kubernetes gives the type error, anyOf's own, then the first branch's.
    path = "spec.engine.minAvailable"
    found = [f[:3] for f in _findings_of(ISVC + "  engine:\n    minAvailable: true\n")]
    assert found == [
        (
            "schema/type",
            f'{path}: Invalid value: "boolean": {path} in body must be of type '
            'integer,string: "boolean"',
            "10:19",
        ),
        (
            "schema/any-of",
            f'<nil>: Invalid value: "": "{path}" must validate at least one schema (anyOf)',
            "10:19",
        ),
        (
            "schema/type",
            f'{path}: Invalid value: "boolean": {path} in body must be of type integer: "boolean"',
            "10:19",
        ),
    ]


def _findings_of(text: str) -> list[tuple[str, str, str, str | None]]:
    import tempfile
    from pathlib import Path

    from conftest import run_cli

    with tempfile.TemporaryDirectory() as folder:
        path = write(Path(folder), "object.yaml", text)
        return schema_findings(run_cli, path)


def test_the_hint_names_the_schemas_closest_fields(cli, tmp_path):
    text = ISVC + "  acceleratorSelector:\n    polcy: BestFit\n"
    path = write(tmp_path, "isvc.yaml", text)
    assert schema_findings(cli, path) == [
        (
            "schema/unknown-field",
            'unknown field "spec.acceleratorSelector.polcy"' + STRICT,
            "10:5",
            'the closest fields OME\'s CRD has there: "policy"',
        )
    ]


def test_exaones_misnamed_model_field_is_told_its_name(cli):
    """The catalog's exaone writes spec.model.modelName: the field is `name`
    (the last word of what was written), and spec.deployment is
    deploymentMode's first word; spec.model.runtime has no sibling like it."""
    path = need(CATALOG) / EXAONE
    document = cli("admit", "--isvc", "default/exaone-3-5-7-8b-instruct", str(path), "-o", "json")
    assert document.code == 1
    assert [
        (f["message"], f"{f['location']['line']}:{f['location']['col']}", f["hint"])
        for f in document.json()["schema_findings"]
    ] == [
        (
            'unknown field "spec.deployment"' + STRICT,
            "9:3",
            'the closest fields OME\'s CRD has there: "deploymentMode"',
        ),
        (
            'unknown field "spec.model.modelName"' + STRICT,
            "7:5",
            'the closest fields OME\'s CRD has there: "name"',
        ),
        ('unknown field "spec.model.runtime"' + STRICT, "8:5", None),
        ("spec.model.name: Required value", "6:3", None),
    ]


@pytest.mark.parametrize(
    ("key", "names", "expected"),
    [
        ("modelName", ["apiGroup", "fineTunedWeights", "kind", "name", "overlays"], ("name",)),
        ("Name", ["kind", "name"], ("name",)),
        ("model_name", ["kind", "name"], ("name",)),
        ("group", ["apiGroup", "kind", "name"], ("apiGroup",)),
        ("modelRef", ["engine", "model", "runtime"], ("model",)),
        ("deployment", ["deploymentMode", "placement", "rollout"], ("deploymentMode",)),
        ("imageName", ["env", "image", "imagePullPolicy", "name"], ("image", "name")),
        ("polcy", ["policy", "acceleratorClass"], ("policy",)),
        ("volumeMount", ["image", "name", "volumeDevices", "volumeMounts"], ("volumeMounts",)),
        ("runtime", ["apiGroup", "fineTunedWeights", "kind", "name", "overlays"], ()),
        ("minReplicas", ["engine", "model", "runtime", "scalingPolicy"], ()),
        ("a", ["apiGroup", "kind"], ()),
    ],
)
def test_the_closest_fields(key, names, expected):
    """Another case first, then the names whose words begin or end the key's
    (or the key's theirs), else difflib's misspellings; nothing far off."""
    from modetable.inputs.schema_check import closest_fields

    assert closest_fields(key, names) == expected


def test_every_output_format_carries_the_finding(cli, tmp_path):
    path = write(tmp_path, "isvc.yaml", ISVC + "  engine:\n    runner:\n      volumeMount: []\n")
    message = 'unknown field "spec.engine.runner.volumeMount"' + STRICT
    table = cli("audit", str(path))
    assert table.code == 1
    assert f"{path}:11:7: error: {message} [schema/unknown-field]" in table.out
    github = cli("audit", str(path), "-o", "github")
    assert f"::error file={path},line=11,col=7," in github.out
    sarif = cli("audit", str(path), "-o", "sarif").json()
    (result,) = sarif["runs"][0]["results"]
    assert result["ruleId"] == "schema/unknown-field"
    assert result["message"]["text"].startswith(message)
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (11, 7)
    for output in ("junit", "markdown", "yaml", "html"):
        assert "spec.engine.runner.volumeMount" in cli("audit", str(path), "-o", output).out


def test_an_object_the_api_server_refuses_is_left_out_of_the_audit(cli, tmp_path):
    path = write(tmp_path, "isvc.yaml", ISVC + "  deployment: {}\n")
    document = cli("audit", str(path), "-o", "json").json()
    assert document["items"] == []
    assert [f["object"] for f in document["manifest_findings"]] == [
        {"kind": "InferenceService", "namespace": "demo", "name": "llama"}
    ]


def _catalog_findings(cli, version: str) -> list[tuple[str, str, str, str]]:
    run = cli("audit", str(need(CATALOG)), "-o", "json", "--ome-version", version)
    return [
        (
            f["location"]["file"][len(str(CATALOG)) + 1 :],
            f"{f['location']['line']}:{f['location']['col']}",
            f["id"],
            f["message"],
        )
        for f in run.json()["manifest_findings"]
        if f["id"].startswith("schema/")
    ]


# Every schema problem of the catalog: the objects OME's CRD accepts have none.
CATALOG_PROBLEMS = [
    (EXAONE, "9:3", "schema/unknown-field", 'unknown field "spec.deployment"' + STRICT),
    (EXAONE, "7:5", "schema/unknown-field", 'unknown field "spec.model.modelName"' + STRICT),
    (EXAONE, "8:5", "schema/unknown-field", 'unknown field "spec.model.runtime"' + STRICT),
    (EXAONE, "6:3", "schema/required", "spec.model.name: Required value"),
    (GLM, "10:3", "schema/unknown-field", 'unknown field "spec.maxReplicas"' + STRICT),
    (GLM, "9:3", "schema/unknown-field", 'unknown field "spec.minReplicas"' + STRICT),
    (GLM, "7:3", "schema/unknown-field", 'unknown field "spec.modelRef"' + STRICT),
    (GLM, "11:3", "schema/unknown-field", 'unknown field "spec.scaleTarget"' + STRICT),
]


@pytest.mark.slow
@pytest.mark.parametrize("version", ["v1.2.2", "v1.3"])
def test_the_catalogs_schema_findings_are_exaones_and_glms_alone(cli, version):
    assert _catalog_findings(cli, version) == CATALOG_PROBLEMS


def test_admit_denies_an_inference_service_with_an_unknown_field(cli, tmp_path):
    path = write(tmp_path, "isvc.yaml", ISVC + "  engine:\n    runner:\n      volumeMount: []\n")
    run = cli("admit", "--isvc", str(path), str(path))
    assert (run.code, run.err) == (1, "")
    assert run.out == (
        "InferenceService demo/llama: denied\n"
        f'Error from server (BadRequest): error when creating "{path}": InferenceService in '
        'version "v1beta1" cannot be handled as a InferenceService: strict decoding error: '
        'unknown field "spec.engine.runner.volumeMount"\n'
    )


def test_admits_json_names_the_check_and_each_problem(cli, tmp_path):
    path = write(tmp_path, "isvc.yaml", ISVC + "  deploymentMode: Foo\n")
    document = cli("admit", "--isvc", "demo/llama", str(path), "-o", "json").json()
    text = (
        'spec.deploymentMode: Unsupported value: "Foo": supported values: "OMENative", '
        '"RawDeployment"'
    )
    assert document["admission"] == {
        "allowed": False,
        "message": f'The InferenceService "llama" is invalid: {text}',
        "warnings": [],
        "denied_by": "crd-schema",
        "warning_checks": [],
        "checked": ["crd-schema"],
        "not_checked": [],
    }
    assert [
        (f["id"], f["message"], f["location"]["line"]) for f in document["schema_findings"]
    ] == [("schema/enum", text, 9)]


@pytest.mark.parametrize("command", ["select", "effective", "explain", "match"])
def test_the_other_commands_answer_with_the_denial_first(cli, tmp_path, command):
    path = write(tmp_path, "isvc.yaml", ISVC + "  engine:\n    minReplicas: one\n")
    run = cli(command, "--isvc", "demo/llama", str(path))
    assert run.code == 1
    assert run.out == (
        "InferenceService demo/llama: denied\n"
        'The InferenceService "llama" is invalid: spec.engine.minReplicas: Invalid value: '
        '"string": spec.engine.minReplicas in body must be of type integer: "string"\n'
    )


def test_another_object_refused_is_a_warning_and_left_out(cli, tmp_path):
    runtime = RUNTIME + "  disabled: nope\n"
    write(tmp_path, "m/isvc.yaml", ISVC)
    write(tmp_path, "m/runtime.yaml", runtime)
    write(tmp_path, "m/model.yaml", MODEL)
    run = cli("admit", "--isvc", "demo/llama", str(tmp_path / "m"))
    assert run.err == (
        f"modetable: warning: ClusterServingRuntime srt ({tmp_path / 'm' / 'runtime.yaml'}:1:1) "
        'is left out, as the API server refuses it: ClusterServingRuntime.ome.io "srt" is '
        'invalid: spec.disabled: Invalid value: "string": spec.disabled in body must be of '
        'type boolean: "string"\n'
    )
    assert run.code == 0


def test_the_commands_page_example_is_a_real_run(tmp_path, monkeypatch):
    from conftest import ROOT, run_cli

    page = (ROOT / "docs" / "commands.md").read_text()
    section = page[page.index("The API server comes first.") :]
    block = section.split("```console\n", 1)[1].split("```", 1)[0]
    first, *shown = block.splitlines()
    write(tmp_path, "isvc.yaml", ISVC + "  engine:\n    runner:\n      volumeMount: []\n")
    write(tmp_path, "manifests/model.yaml", MODEL)
    monkeypatch.chdir(tmp_path)
    run = run_cli(*first.split()[2:])
    assert (run.code, run.err, run.out.splitlines()) == (1, "", shown)
