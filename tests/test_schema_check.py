"""An ome.io object checked as the Kubernetes API server checks it: one test per
kind of problem, with the server's whole text, the field path and where the
offending key or value is written."""

from __future__ import annotations

import re

import pytest
from conftest import CATALOG, EXAMPLES, ROOT, SPEC_DIR, need

from modetable.errors import Location
from modetable.inputs.crd_schema import KindSchema, load
from modetable.inputs.schema_check import (
    SchemaProblem,
    check_object,
    kubectl_message,
    server_message,
)
from modetable.parsing.yamlio import load_documents
from modetable.rules.words import SchemaError

QUANTITY = (
    r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|"
    r"([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$"
)


def check(text: str, version: str = "v1.3") -> tuple[SchemaProblem, ...]:
    ((obj, start),) = load_documents(text, "x.yaml")
    schema = load().at(version).kind(obj["kind"])
    return check_object(schema, obj, start)


def shown(problems: tuple[SchemaProblem, ...]) -> list[tuple[str, str, str, str]]:
    return [(p.error, p.path, f"{p.location.line}:{p.location.col}", p.text) for p in problems]


ISVC = """\
apiVersion: ome.io/v1beta1
kind: InferenceService
metadata:
  name: llama
  namespace: demo
spec:
  model:
    name: llama-3
"""

RUNTIME = """\
apiVersion: ome.io/v1beta1
kind: ClusterServingRuntime
metadata:
  name: srt
spec:
"""


def test_an_unknown_field_is_found_at_its_key_with_the_closest_names():
    problems = check(ISVC + "  engine:\n    runner:\n      volumeMount: []\n")
    assert shown(problems) == [
        (
            "unknown-field",
            "spec.engine.runner.volumeMount",
            "11:7",
            'unknown field "spec.engine.runner.volumeMount"',
        )
    ]
    assert problems[0].suggestions == ("volumeMounts",)
    assert problems[0].strict


def test_a_value_of_another_type_is_refused_with_the_servers_text():
    problems = check(ISVC + "  engine:\n    minReplicas: one\n")
    assert shown(problems) == [
        (
            "type",
            "spec.engine.minReplicas",
            "10:18",
            'spec.engine.minReplicas: Invalid value: "string": spec.engine.minReplicas in body '
            'must be of type integer: "string"',
        )
    ]


def test_a_whole_float_is_an_integer_as_kubernetes_reads_json_numbers():
    assert check(ISVC + "  engine:\n    minReplicas: 2.0\n") == ()
    (problem,) = check(ISVC + "  engine:\n    minReplicas: 1.5\n")
    assert problem.text == (
        'spec.engine.minReplicas: Invalid value: "number": spec.engine.minReplicas in body '
        'must be of type integer: "number"'
    )


def test_a_value_outside_an_enum_lists_the_supported_values():
    problems = check(ISVC + "  deploymentMode: MultiNode\n")
    assert shown(problems) == [
        (
            "enum",
            "spec.deploymentMode",
            "9:19",
            'spec.deploymentMode: Unsupported value: "MultiNode": supported values: '
            '"OMENative", "RawDeployment"',
        )
    ]


def test_a_missing_required_field_is_shown_at_the_key_of_the_mapping_that_lacks_it():
    problems = check(ISVC.replace("    name: llama-3\n", "    kind: BaseModel\n"))
    assert shown(problems) == [
        ("required", "spec.model.name", "7:3", "spec.model.name: Required value")
    ]


def test_a_null_the_schema_does_not_allow_is_dropped_not_refused():
    assert check(ISVC + "  engine:\n    minReplicas: null\n") == ()
    # ... so a required field given as null is missing.
    problems = check(ISVC.replace("name: llama-3", "name: null"))
    assert shown(problems) == [
        ("required", "spec.model.name", "7:3", "spec.model.name: Required value")
    ]


def test_a_number_below_the_minimum():
    problems = check(RUNTIME + "  acceleratorRequirements:\n    minMemory: -1\n")
    assert shown(problems) == [
        (
            "minimum",
            "spec.acceleratorRequirements.minMemory",
            "7:16",
            "spec.acceleratorRequirements.minMemory: Invalid value: -1: "
            "spec.acceleratorRequirements.minMemory in body should be greater than or equal to 0",
        )
    ]


def test_a_string_shorter_than_its_min_length():
    text = ISVC + '  kedaConfig:\n    authenticationRef:\n      name: ""\n'
    problems = check(text, "v1.2.2")
    assert shown(problems) == [
        (
            "min-length",
            "spec.kedaConfig.authenticationRef.name",
            "11:13",
            'spec.kedaConfig.authenticationRef.name: Invalid value: "": '
            "spec.kedaConfig.authenticationRef.name in body should be at least 1 chars long",
        )
    ]


def test_a_quantity_that_does_not_match_its_pattern():
    text = ISVC + "  engine:\n    runner:\n      resources:\n        limits:\n          cpu: four\n"
    path = "spec.engine.runner.resources.limits.cpu"
    assert shown(check(text)) == [
        (
            "pattern",
            path,
            "13:16",
            f"{path}: Invalid value: \"four\": {path} in body should match '{QUANTITY}'",
        )
    ]


def test_an_int_or_string_of_neither_type_fails_its_any_of_too():
    problems = check(ISVC + "  engine:\n    minAvailable: true\n")
    path = "spec.engine.minAvailable"
    assert shown(problems) == [
        (
            "type",
            path,
            "10:19",
            f'{path}: Invalid value: "boolean": {path} in body must be of type '
            'integer,string: "boolean"',
        ),
        (
            "any-of",
            path,
            "10:19",
            f'<nil>: Invalid value: "": "{path}" must validate at least one schema (anyOf)',
        ),
        (
            "type",
            path,
            "10:19",
            f'{path}: Invalid value: "boolean": {path} in body must be of type integer: "boolean"',
        ),
    ]
    assert check(ISVC + '  engine:\n    minAvailable: "50%"\n    maxUnavailable: 1\n') == ()


def test_additional_properties_are_checked_against_their_schema():
    problems = check(ISVC + "  engine:\n    labels:\n      tier: 1\n")
    path = "spec.engine.labels.tier"
    assert shown(problems) == [
        (
            "type",
            path,
            "11:13",
            f'{path}: Invalid value: "integer": {path} in body must be of type string: "integer"',
        )
    ]


def test_a_field_that_preserves_unknown_fields_refuses_nothing_below_it():
    rollout = "  rollout:\n    groups:\n      - name: g\n        anything: {at: all}\n"
    assert check(ISVC + rollout) == ()
    # v1.2.2 had no spec.rollout.
    assert [p.text for p in check(ISVC + rollout, "v1.2.2")] == ['unknown field "spec.rollout"']


def test_two_items_of_a_list_map_with_one_key():
    env = "        - name: A\n          value: x\n        - name: A\n          value: y\n"
    problems = check(ISVC + "  engine:\n    runner:\n      env:\n" + env)
    assert shown(problems) == [
        (
            "duplicate",
            "spec.engine.runner.env[1]",
            "14:11",
            'spec.engine.runner.env[1]: Duplicate value: {"name":"A"}',
        )
    ]


def test_a_name_that_is_no_dns_subdomain():
    problems = check(ISVC.replace("name: llama\n", "name: Llama_3\n"))
    assert shown(problems) == [
        (
            "name",
            "metadata.name",
            "4:9",
            'metadata.name: Invalid value: "Llama_3": a lowercase RFC 1123 subdomain must '
            "consist of lower case alphanumeric characters, '-' or '.', and must start and end "
            "with an alphanumeric character (e.g. 'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        )
    ]


def test_a_missing_name_and_a_bad_namespace_and_label():
    text = ISVC.replace("  name: llama\n  namespace: demo\n", "  namespace: my.ns\n")
    text = text.replace("  namespace: my.ns\n", "  namespace: my.ns\n  labels: {tier: -x}\n")
    problems = check(text)
    assert [p.text for p in problems] == [
        "metadata.name: Required value: name or generateName is required",
        'metadata.namespace: Invalid value: "my.ns": must not contain dots',
        'metadata.labels: Invalid value: "-x": a valid label must be an empty string or '
        "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
        "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
        "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]
    assert [f"{p.location.line}:{p.location.col}" for p in problems] == ["3:1", "4:14", "5:18"]


def test_an_unknown_field_of_metadata():
    (problem,) = check(ISVC.replace("  namespace: demo\n", "  namespace: demo\n  lables: {}\n"))
    assert (problem.path, problem.text, problem.suggestions) == (
        "metadata.lables",
        'unknown field "metadata.lables"',
        ("labels",),
    )


# Checks OME's CRDs do not use, on a schema written here (the checker reads
# any structural schema the same way).
NODES = (
    {"type": "string", "maxLength": 3},  # 0
    {"type": "array", "items": 0, "maxItems": 2, "minItems": 1},  # 1
    {"type": "number", "maximum": 1.5, "exclusiveMaximum": True},  # 2
    {"type": "string", "format": "date-time"},  # 3
    {"type": "object", "maxProperties": 1, "additionalProperties": 0},  # 4
    {"type": "integer", "minimum": 5, "exclusiveMinimum": True},  # 5
    {
        "type": "object",
        "properties": {"code": 0, "codes": 1, "ratio": 2, "at": 3, "tags": 4, "count": 5},
    },  # 6
    {"type": "object", "properties": {"spec": 6}},  # 7
)
SMALL = KindSchema(
    kind="Thing", group="ome.io", version="v1beta1", namespaced=False, root=7, nodes=NODES
)


def small(spec: str) -> list[tuple[str, str, str, str]]:
    ((obj, _),) = load_documents("metadata: {name: t}\nspec:\n" + spec, "t.yaml")
    return shown(check_object(SMALL, obj))


def test_a_string_over_its_max_length():
    assert small("  code: abcd\n") == [
        ("max-length", "spec.code", "3:9", "spec.code: Too long: may not be more than 3 bytes")
    ]


def test_a_list_over_its_max_items_and_under_its_min_items():
    assert small("  codes: [a, b, c]\n") == [
        ("max-items", "spec.codes", "3:10", "spec.codes: Too many: 3: must have at most 2 items")
    ]
    assert small("  codes: []\n") == [
        (
            "min-items",
            "spec.codes",
            "3:10",
            "spec.codes: Invalid value: 0: spec.codes in body should have at least 1 items",
        )
    ]


def test_exclusive_bounds():
    assert small("  ratio: 1.5\n  count: 5\n") == [
        (
            "maximum",
            "spec.ratio",
            "3:10",
            "spec.ratio: Invalid value: 1.5: spec.ratio in body should be less than 1.5",
        ),
        (
            "minimum",
            "spec.count",
            "4:10",
            "spec.count: Invalid value: 5: spec.count in body should be greater than 5",
        ),
    ]


def test_a_string_not_of_its_format():
    assert small("  at: yesterday\n") == [
        (
            "format",
            "spec.at",
            "3:7",
            'spec.at: Invalid value: "yesterday": spec.at in body must be of type date-time: '
            '"yesterday"',
        )
    ]
    assert small("  at: 2026-05-01T10:00:00Z\n") == []


def test_an_object_over_its_max_properties():
    assert small("  tags: {a: x, b: y}\n") == [
        (
            "max-properties",
            "spec.tags",
            "3:9",
            "spec.tags: Too many: 2: must have at most 1 item",
        )
    ]


def test_the_api_servers_message_joins_the_problems_of_one_object():
    text = ISVC + "  engine:\n    minReplicas: one\n  deploymentMode: Foo\n"
    problems = check(text)
    schema = load().at("v1.3").kind("InferenceService")
    one = (
        'spec.engine.minReplicas: Invalid value: "string": spec.engine.minReplicas in body '
        'must be of type integer: "string"'
    )
    two = (
        'spec.deploymentMode: Unsupported value: "Foo": supported values: "OMENative", '
        '"RawDeployment"'
    )
    assert server_message(schema, "llama", problems) == (
        f'InferenceService.ome.io "llama" is invalid: [{one}, {two}]'
    )
    assert kubectl_message(schema, "llama", problems, "isvc.yaml") == (
        f'The InferenceService "llama" is invalid: \n* {one}\n* {two}'
    )
    assert kubectl_message(schema, "llama", problems[:1], "isvc.yaml") == (
        f'The InferenceService "llama" is invalid: {one}'
    )


def test_unknown_fields_refuse_the_request_before_validation():
    text = ISVC + "  engine:\n    minReplicas: one\n    replicas: 2\n  deployment: {}\n"
    problems = check(text)
    schema = load().at("v1.3").kind("InferenceService")
    assert kubectl_message(schema, "llama", problems, "isvc.yaml") == (
        'Error from server (BadRequest): error when creating "isvc.yaml": InferenceService in '
        'version "v1beta1" cannot be handled as a InferenceService: strict decoding error: '
        'unknown field "spec.deployment", unknown field "spec.engine.replicas"'
    )
    warned = kubectl_message(schema, "llama", problems, "isvc.yaml", field_validation="Warn")
    assert warned.splitlines() == [
        'Warning: unknown field "spec.deployment"',
        'Warning: unknown field "spec.engine.replicas"',
        'The InferenceService "llama" is invalid: spec.engine.minReplicas: Invalid value: '
        '"string": spec.engine.minReplicas in body must be of type integer: "string"',
    ]


EXAONE = "inferenceservices/LGAI-EXAONE/exaone-3-5-7-8b-instruct-isvc.yaml"
GLM = "inferenceservices/zai-org/glm-4-5v.yaml"


def catalog_problems(version: str) -> dict[str, list[tuple[str, str, str]]]:
    found: dict[str, list[tuple[str, str, str]]] = {}
    schemas = load().at(version)
    for path in sorted(need(CATALOG).rglob("*.yaml")):
        for obj, start in load_documents(path.read_text(), str(path)):
            schema = schemas.kind(obj.get("kind")) if isinstance(obj, dict) else None
            if schema is None or not str(obj.get("apiVersion")).startswith("ome.io/"):
                continue
            for problem in check_object(schema, obj, start):
                where = f"{problem.location.line}:{problem.location.col}"
                found.setdefault(str(path.relative_to(CATALOG)), []).append(
                    (where, problem.error, problem.text)
                )
    return found


@pytest.mark.parametrize("version", ["v1.2.2", "v1.3"])
def test_the_catalog_has_two_objects_the_crd_refuses(version):
    assert catalog_problems(version) == {
        EXAONE: [
            ("9:3", "unknown-field", 'unknown field "spec.deployment"'),
            ("7:5", "unknown-field", 'unknown field "spec.model.modelName"'),
            ("8:5", "unknown-field", 'unknown field "spec.model.runtime"'),
            ("6:3", "required", "spec.model.name: Required value"),
        ],
        GLM: [
            ("10:3", "unknown-field", 'unknown field "spec.maxReplicas"'),
            ("9:3", "unknown-field", 'unknown field "spec.minReplicas"'),
            ("7:3", "unknown-field", 'unknown field "spec.modelRef"'),
            ("11:3", "unknown-field", 'unknown field "spec.scaleTarget"'),
        ],
    }


def documented_objects() -> list[tuple[str, dict, Location]]:
    """The objects the project's examples, docs and the spec pages write out."""
    sources = [*sorted(EXAMPLES.glob("*.yaml")), *sorted((ROOT / "docs").glob("*.md"))]
    sources += [ROOT / "README.md", *sorted(need(SPEC_DIR).glob("*.md"))]
    found = []
    for path in sources:
        text = path.read_text()
        blocks = [text]
        if path.suffix == ".md":
            blocks = [
                "\n" * text[: m.start()].count("\n") + "\n" + m.group(1)
                for m in re.finditer(r"```ya?ml[^\n]*\n(.*?)```", text, re.S)
            ]
        for block in blocks:
            for obj, start in load_documents(block, str(path)):
                if isinstance(obj, dict) and str(obj.get("apiVersion", "")).startswith("ome.io/"):
                    found.append((str(path), obj, start))
    return found


def test_every_documented_object_passes_v1_3s_schema():
    objects = documented_objects()
    assert len(objects) >= 6
    schemas = load().at("v1.3")
    refused = [
        (name, problem.text)
        for name, obj, start in objects
        for problem in check_object(schemas.kind(obj["kind"]), obj, start)
    ]
    assert refused == []


def test_documented_objects_without_v1_3s_fields_pass_v1_2_2s_schema():
    schemas = load().at("v1.2.2")
    refused = [
        (name, problem.text)
        for name, obj, start in documented_objects()
        for problem in check_object(schemas.kind(obj["kind"]), obj, start)
    ]
    # spec.deploymentMode came with v1.3: the page's example InferenceService
    # (and its copy in examples/), and the sharp edges' example of a runtime
    # overriding it (rendered from v1.3's rules), are its documented uses.
    assert refused == [
        (str(EXAMPLES / "inference-service.yaml"), 'unknown field "spec.deploymentMode"'),
        (str(ROOT / "docs" / "sharp-edges.md"), 'unknown field "spec.deploymentMode"'),
        (
            str(SPEC_DIR / "runtime-deployment-mode-matching.md"),
            'unknown field "spec.deploymentMode"',
        ),
    ]


def test_the_schema_data_has_every_version_the_rules_describe(ruleset):
    schemas = load()
    assert list(schemas.versions) == list(ruleset.rules.versions)
    for version in schemas.versions.values():
        assert set(version.kinds) == {
            "InferenceService",
            "ServingRuntime",
            "ClusterServingRuntime",
            "BaseModel",
            "ClusterBaseModel",
        }
    assert schemas.at("v1.2.2").source["source"]["tag"] == "v0.1.5"
    assert schemas.at("v1.3").source["pinned"] is False


def test_problem_class_names_are_the_finding_words():
    assert SchemaError.UNKNOWN_FIELD == "unknown-field"
