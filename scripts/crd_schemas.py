#!/usr/bin/env python3
"""Regenerate rules/schemas/ome-crd-schemas.json from OME's CRD files.

    python scripts/crd_schemas.py --git /path/to/ome.git        # git show <commit>:<path>
    python scripts/crd_schemas.py --crds DIR                     # DIR/<commit>/<file>[.gz]
    python scripts/crd_schemas.py --git ... --check              # exit 1 if the data differ

Each version's kinds come from the CRD files of one commit (SOURCES), and a
version may apply changes to another's (rules/schemas/v1.3-additions.yaml).
The data are a derived field tree: each CRD's openAPIV3Schema without its
descriptions and with every subtree stored once (the pod spec recurs dozens of
times), children named by their index in one node table.
"""

from __future__ import annotations

import argparse
import copy
import gzip
import json
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "rules" / "schemas" / "ome-crd-schemas.json"
ADDITIONS = ROOT / "rules" / "schemas"
FORMAT = 1

KIND_FILES = {
    "InferenceService": "config/crd/full/ome.io_inferenceservices.yaml",
    "ServingRuntime": "config/crd/full/ome.io_servingruntimes.yaml",
    "ClusterServingRuntime": "config/crd/full/ome.io_clusterservingruntimes.yaml",
    "BaseModel": "config/crd/full/ome.io_basemodels.yaml",
    "ClusterBaseModel": "config/crd/full/ome.io_clusterbasemodels.yaml",
}

# v1.2.2: the v0.1.5 tag, the newest OME tag (2026-03-27); its five CRDs are
# byte for byte those of 17b77eda (May 2026), the commit the catalog was
# copied from. No spec.deploymentMode, as v1.2.2 had none.
SOURCES: dict[str, dict[str, Any]] = {
    "v1.2.2": {
        "repository": "sgl-project/ome",
        "commit": "957f541e469f22333282e4287d5b29b87044b935",
        "tag": "v0.1.5",
        "files": KIND_FILES,
    },
    "v1.3": {"additions": "v1.3-additions.yaml"},
}

# What the schema keeps, as the API server reads it. Formats: only those the
# API server validates for custom resources (apiextensions-apiserver
# pkg/apiserver/validation/formats.go, supportedVersionedFormats, v0.35.0
# a8d2a03a); any other is stripped before validation, so it is dropped here.
SUPPORTED_FORMATS = frozenset(
    [
        "bsonobjectid",
        "uri",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "cidr",
        "mac",
        "uuid",
        "uuid3",
        "uuid4",
        "uuid5",
        "isbn",
        "isbn10",
        "isbn13",
        "creditcard",
        "ssn",
        "hexcolor",
        "rgbcolor",
        "byte",
        "password",
        "date",
        "duration",
        "datetime",
        "k8s-short-name",
        "k8s-long-name",
    ]
)
KEPT = (
    "type",
    "format",
    "enum",
    "default",
    "nullable",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "required",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-int-or-string",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-validations",
)
CHILD_LISTS = ("anyOf", "allOf", "oneOf")


class NodeTable:
    """Every distinct subtree once; a node names its children by index."""

    def __init__(self) -> None:
        self.nodes: list[dict[str, Any]] = []
        self._index: dict[str, int] = {}

    def add(self, node: dict[str, Any]) -> int:
        key = json.dumps(node, sort_keys=True, separators=(",", ":"))
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.nodes)
            self.nodes.append(node)
        return found


def derive(schema: dict[str, Any], table: NodeTable) -> int:
    """The node of one OpenAPI schema (and of its children), as an index."""
    node: dict[str, Any] = {}
    for key in KEPT:
        if key not in schema:
            continue
        value = schema[key]
        if key == "format":
            if value.replace("-", "") not in SUPPORTED_FORMATS:
                continue
        elif key == "x-kubernetes-validations":
            value = [{k: rule[k] for k in ("rule", "message") if k in rule} for rule in value]
        node[key] = value
    list_type = schema.get("x-kubernetes-list-type")
    if list_type in ("map", "set"):  # atomic lists need no check
        node["x-kubernetes-list-type"] = list_type
    if "properties" in schema:
        node["properties"] = {
            name: derive(child, table) for name, child in sorted(schema["properties"].items())
        }
    if "items" in schema:
        node["items"] = derive(schema["items"], table)
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        node["additionalProperties"] = derive(extra, table)
    elif isinstance(extra, bool):
        node["additionalProperties"] = extra
    for key in CHILD_LISTS:
        if key in schema:
            node[key] = [derive(child, table) for child in schema[key]]
    return table.add(node)


def crd_version(crd: dict[str, Any]) -> dict[str, Any]:
    """The CRD's storage version (OME's CRDs serve one, v1beta1)."""
    versions = crd["spec"]["versions"]
    served = [v for v in versions if v.get("storage")] or versions
    return served[0]


def read_crd(text: str) -> dict[str, Any]:
    documents = [d for d in yaml.load_all(text, Loader=_LOADER) if d]
    (crd,) = (d for d in documents if d.get("kind") == "CustomResourceDefinition")
    return crd


def _walk(schema: dict[str, Any], at: list[str], each: list[Any]) -> Iterable[tuple[dict, str]]:
    """(parent schema, field name) for every place `at` names."""
    if len(at) == 1:
        names = each[0] if at[0] == "*" else [at[0]]
        for name in names:
            yield schema, name
        return
    head, rest = at[0], at[1:]
    if head == "[]":
        yield from _walk(schema["items"], rest, each)
        return
    names, left = (each[0], each[1:]) if head == "*" else ([head], each)
    for name in names:
        child = schema.get("properties", {}).get(name)
        if child is None:
            raise SystemExit(f"additions: no field {name!r} on the way to {'.'.join(at)}")
        yield from _walk(child, rest, left)


def apply_additions(schemas: dict[str, dict], changes: list[dict[str, Any]]) -> None:
    """Apply a version's changes to copies of another version's schemas."""
    for change in changes:
        each = change.get("each", [])
        if each and not isinstance(each[0], list):
            each = [each]
        for kind in change["kinds"]:
            for parent, name in _walk(schemas[kind], list(change["at"]), list(each)):
                properties = parent.setdefault("properties", {})
                if change.get("remove"):
                    if name not in properties:
                        raise SystemExit(f"additions: {kind} has no {name!r} to remove")
                    del properties[name]
                    parent["required"] = [r for r in parent.get("required", []) if r != name]
                    if not parent["required"]:
                        del parent["required"]
                else:
                    properties[name] = copy.deepcopy(change["set"])


def build(read: Callable[[str, str, str], str]) -> dict[str, Any]:
    """The data file's content; `read(repository, commit, path)` gives a CRD's text."""
    table = NodeTable()
    versions: dict[str, Any] = {}
    openapi: dict[str, dict[str, dict]] = {}
    for version, source in SOURCES.items():
        if "additions" in source:
            additions = yaml.safe_load((ADDITIONS / source["additions"]).read_text())
            base = additions["base"]
            schemas = copy.deepcopy(openapi[base])
            apply_additions(schemas, additions["changes"])
            entry = {
                "pinned": False,
                "stands_in_for": additions["stands_in_for"],
                "base": base,
                "base_source": versions[base]["source"],
                "additions": f"rules/schemas/{source['additions']}",
            }
            kinds_meta = {k: dict(v) for k, v in versions[base]["kinds"].items()}
        else:
            schemas, kinds_meta = {}, {}
            for kind, path in source["files"].items():
                crd = read_crd(read(source["repository"], source["commit"], path))
                served = crd_version(crd)
                schemas[kind] = served["schema"]["openAPIV3Schema"]
                kinds_meta[kind] = {
                    "group": crd["spec"]["group"],
                    "version": served["name"],
                    "scope": crd["spec"]["scope"],
                }
            entry = {
                "pinned": True,
                "source": {k: source[k] for k in ("repository", "commit", "tag")},
            }
        openapi[version] = schemas
        for kind, schema in schemas.items():
            kinds_meta[kind]["root"] = derive(schema, table)
        entry["kinds"] = kinds_meta
        versions[version] = entry
    return {"format": FORMAT, "versions": versions, "nodes": table.nodes}


def render(data: dict[str, Any]) -> str:
    """One node a line: small diffs when a CRD changes."""
    lines = ["{", f'"format": {data["format"]},']
    lines.append('"versions": ' + json.dumps(data["versions"], indent=1, sort_keys=True) + ",")
    lines.append('"nodes": [')
    nodes = [json.dumps(n, separators=(",", ":"), sort_keys=True) for n in data["nodes"]]
    lines.append(",\n".join(nodes))
    lines.append("]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def git_reader(git_dir: Path) -> Callable[[str, str, str], str]:
    def read(repository: str, commit: str, path: str) -> str:
        return subprocess.run(
            ["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    return read


def directory_reader(directory: Path) -> Callable[[str, str, str], str]:
    """CRDs laid out as DIR/<commit>/<file name>, each plain or gzipped."""

    def read(repository: str, commit: str, path: str) -> str:
        base = directory / commit / Path(path).name
        zipped = base.with_name(base.name + ".gz")
        if zipped.is_file():
            return gzip.decompress(zipped.read_bytes()).decode("utf-8")
        return base.read_text(encoding="utf-8")

    return read


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--git", type=Path, help="a git directory of OME's repository")
    where.add_argument("--crds", type=Path, help="a folder of CRDs: DIR/<commit>/<file>[.gz]")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    read = git_reader(args.git) if args.git else directory_reader(args.crds)
    text = render(build(read))
    if args.check:
        if args.out.read_text(encoding="utf-8") != text:
            print(f"{args.out} differs from what the CRDs give", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
