"""scripts/crd_schemas.py: the schema data derived from OME's CRD files."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, SHARED

SCRIPT = ROOT / "scripts" / "crd_schemas.py"
spec = importlib.util.spec_from_file_location("crd_schemas", SCRIPT)
crd_schemas = importlib.util.module_from_spec(spec)
spec.loader.exec_module(crd_schemas)

CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.ome.io}
spec:
  group: ome.io
  scope: Cluster
  names: {kind: Thing}
  versions:
    - name: v1beta1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          description: dropped
          properties:
            spec:
              type: object
              required: [a]
              properties:
                a: {type: integer, format: int32, minimum: 1, description: dropped}
                b: {type: integer, format: int32, minimum: 1}
                when: {type: string, format: date-time}
                quantity:
                  anyOf: [{type: integer}, {type: string}]
                  x-kubernetes-int-or-string: true
                tags:
                  type: array
                  x-kubernetes-list-type: atomic
                  items: {type: string}
                ports:
                  type: array
                  x-kubernetes-list-type: map
                  x-kubernetes-list-map-keys: [port]
                  items: {type: object, properties: {port: {type: integer}}}
                labels: {type: object, additionalProperties: {type: string}}
"""


def test_the_derived_tree_drops_descriptions_and_stores_each_subtree_once():
    table = crd_schemas.NodeTable()
    schema = crd_schemas.read_crd(CRD)["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    root = crd_schemas.derive(schema, table)
    nodes = table.nodes
    spec = nodes[nodes[root]["properties"]["spec"]]
    fields = spec["properties"]
    # a and b are one node: the same schema once descriptions are gone; int32
    # is a format the API server strips, date-time one it validates.
    assert fields["a"] == fields["b"]
    assert nodes[fields["a"]] == {"type": "integer", "minimum": 1}
    assert nodes[fields["when"]] == {"type": "string", "format": "date-time"}
    assert nodes[fields["quantity"]] == {
        "x-kubernetes-int-or-string": True,
        "anyOf": [nodes.index({"type": "integer"}), nodes.index({"type": "string"})],
    }
    assert nodes[fields["tags"]] == {"type": "array", "items": nodes.index({"type": "string"})}
    ports = nodes[fields["ports"]]
    assert (ports["x-kubernetes-list-type"], ports["x-kubernetes-list-map-keys"]) == (
        "map",
        ["port"],
    )
    assert nodes[fields["labels"]] == {
        "type": "object",
        "additionalProperties": nodes.index({"type": "string"}),
    }
    assert spec["required"] == ["a"]
    assert all("description" not in json.dumps(node) for node in nodes)


def test_additions_set_and_remove_fields_through_lists_of_names():
    schema = crd_schemas.read_crd(CRD)["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    schemas = {"Thing": schema}
    crd_schemas.apply_additions(
        schemas,
        [
            {"kinds": ["Thing"], "at": ["spec", "mode"], "set": {"type": "string"}},
            {"kinds": ["Thing"], "at": ["spec", "*"], "each": ["a", "b"], "remove": True},
            {
                "kinds": ["Thing"],
                "at": ["spec", "ports", "[]", "name"],
                "set": {"type": "string"},
            },
        ],
    )
    spec = schema["properties"]["spec"]
    assert sorted(spec["properties"]) == ["labels", "mode", "ports", "quantity", "tags", "when"]
    assert "required" not in spec  # a was the only required field
    assert spec["properties"]["ports"]["items"]["properties"]["name"] == {"type": "string"}


def crd_source() -> tuple[str, Path]:
    """Where the pinned CRDs can be read: ../shared/ome-crds (laid out by
    commit), or OME's git repository named by $OME_GIT_DIR."""
    shared = SHARED / "ome-crds"
    if shared.is_dir():
        return "--crds", shared
    named = os.environ.get("OME_GIT_DIR")
    if named and Path(named).exists() and shutil.which("git"):
        return "--git", Path(named)
    pytest.skip(
        "OME's CRD files are not here: ../shared/ome-crds/<commit>/ or $OME_GIT_DIR "
        "(a git directory of sgl-project/ome) holds them"
    )


def test_the_shipped_data_is_what_the_crd_files_give():
    flag, where = crd_source()
    assert crd_schemas.main([flag, str(where), "--check"]) == 0


def test_the_wheel_ships_the_data():
    text = (ROOT / "pyproject.toml").read_text()
    assert (
        '"rules/schemas/ome-crd-schemas.json" = '
        '"modetable/_bundled/rules/schemas/ome-crd-schemas.json"' in text
    )
