"""The JSON Schema of the rules file: generated, kept in the repository, and
the shipped file validates against it."""

from __future__ import annotations

import json

import jsonschema
import yaml
from conftest import ROOT, RULES, run_cli

from modetable.rules.schema import rules_schema, rules_schema_text

SCHEMA_FILE = ROOT / "schema" / "modes.schema.json"
CORPUS = ROOT / "tests" / "rules_corpus"


def validator() -> jsonschema.Draft7Validator:
    schema = json.loads(SCHEMA_FILE.read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def test_the_schema_in_the_repository_is_up_to_date():
    assert SCHEMA_FILE.read_text() == rules_schema_text(), (
        "schema/modes.schema.json is out of date: "
        "run `modetable rules schema > schema/modes.schema.json`"
    )


def test_rules_schema_prints_it():
    run = run_cli("rules", "schema")
    assert run.code == 0
    assert run.out == SCHEMA_FILE.read_text()
    assert json.loads(run.out)["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_the_shipped_and_minimal_files_validate():
    check = validator()
    for path in (RULES, CORPUS / "minimal.yaml"):
        errors = [e.message for e in check.iter_errors(yaml.safe_load(path.read_text()))]
        assert errors == [], path


def test_the_rules_file_points_editors_at_the_schema():
    first = RULES.read_text().splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schema/modes.schema.json"
    assert (RULES.parent / "../schema/modes.schema.json").resolve() == SCHEMA_FILE


def test_the_schema_catches_what_an_editor_can_see():
    check = validator()
    for name, wanted in [
        ("unknown-key", "Additional properties are not allowed ('stauts' was unexpected)"),
        ("version-unquoted", "2.1 is not valid under any of the given schemas"),
        ("wrong-type", "'five' is not of type 'integer'"),
    ]:
        document = yaml.safe_load((CORPUS / "broken" / f"{name}.yaml").read_text())
        assert wanted in [e.message for e in check.iter_errors(document)], name


def test_defaults_and_names_are_described():
    schema = rules_schema()
    mode = schema["definitions"]["Mode"]["properties"]
    assert mode["name"]["description"] == "the name of a mode, unique in the file"
    assert mode["since"]["default"] is None
    row = schema["definitions"]["Row"]
    assert row["required"] == ["id", "requested", "declared", "outcome"]
    assert row["additionalProperties"] is False
    assert schema["properties"]["running_merge"] == {"$ref": "#/definitions/RunningMerge"}
    assert set(schema["definitions"]["RunningMerge"]["properties"]) == {"from", "into"}


def test_the_schema_has_an_id():
    schema = json.loads(SCHEMA_FILE.read_text())
    assert schema["$id"] == "urn:modetable:rules-schema:format-1"


def test_the_installed_rules_keep_a_working_schema_reference():
    """The wheel ships the schema beside the bundled rules, in the checkout's
    layout, so the schema line of the installed file finds the installed schema
    (and modetable finds the installed rules there)."""
    import tomllib
    from pathlib import PurePosixPath

    from modetable.rules import find

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = project["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    # The CRD schemas ride along (loaded only where objects are checked).
    assert set(shipped) == {
        "rules/modes.yaml",
        "schema/modes.schema.json",
        "rules/schemas/ome-crd-schemas.json",
    }
    rules, schema = (
        PurePosixPath(shipped[k]) for k in ("rules/modes.yaml", "schema/modes.schema.json")
    )
    reference = RULES.read_text().splitlines()[0].split("$schema=", 1)[1]
    parts = [*rules.parent.parts]
    for part in PurePosixPath(reference).parts:
        parts = parts[:-1] if part == ".." else [*parts, part]
    assert PurePosixPath(*parts) == schema
    # Where the lookup looks for the installed copy.
    assert rules == PurePosixPath("modetable", *find.BUNDLED_PARTS)
