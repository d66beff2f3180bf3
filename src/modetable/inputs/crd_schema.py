"""OME's CRD schemas, per OME version, as the data file holds them
(rules/schemas/ome-crd-schemas.json, made by scripts/crd_schemas.py).

The file is read only when an object is checked: nothing imports this module
on a command's way to its answer unless that command checks objects.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import attrs

from modetable.errors import ModetableError
from modetable.settled import frozen

__all__ = ["DATA_PARTS", "FORMAT", "KindSchema", "SchemaSet", "VersionSchemas", "data_path", "load"]

# Where the wheel puts the file (pyproject's force-include), beside the rules.
DATA_PARTS = ("_bundled", "rules", "schemas", "ome-crd-schemas.json")
FORMAT = 1


@frozen
class KindSchema:
    """One kind's schema in one version: its API group and version, whether it
    is namespaced, and its root node in the node table."""

    kind: str
    group: str
    version: str
    namespaced: bool
    root: int
    nodes: tuple[dict[str, Any], ...] = attrs.field(repr=False, eq=False)

    def node(self, index: int) -> dict[str, Any]:
        return self.nodes[index]


@frozen
class VersionSchemas:
    """The kinds of one OME version, and where their schema comes from."""

    version: str
    source: dict[str, Any] = attrs.field(eq=False)
    kinds: dict[str, KindSchema] = attrs.field(eq=False)

    def kind(self, name: str) -> KindSchema | None:
        return self.kinds.get(name)


@frozen
class SchemaSet:
    versions: dict[str, VersionSchemas] = attrs.field(eq=False)

    def at(self, version: str) -> VersionSchemas:
        found = self.versions.get(version)
        if found is None:
            known = ", ".join(self.versions)
            raise ModetableError(f"no CRD schemas for OME {version} (the data has {known})")
        return found


def data_path() -> Path:
    """The schema data shipped with the package, or the repository's own."""
    package = Path(__file__).resolve().parents[1]
    packaged = package.joinpath(*DATA_PARTS)
    if packaged.is_file():
        return packaged
    repository = package.parents[1].joinpath(*DATA_PARTS[1:])
    if repository.is_file():
        return repository
    raise ModetableError("the bundled CRD schema data is missing (rules/schemas)")


@lru_cache(maxsize=4)
def load(path: Path | None = None) -> SchemaSet:
    """The schemas of every version in the data file (read once a process)."""
    data = json.loads((path or data_path()).read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ModetableError(f"CRD schema data of format {data.get('format')}, not {FORMAT}")
    nodes = tuple(data["nodes"])
    versions = {}
    for version, entry in data["versions"].items():
        kinds = {
            kind: KindSchema(
                kind=kind,
                group=meta["group"],
                version=meta["version"],
                namespaced=meta["scope"] == "Namespaced",
                root=meta["root"],
                nodes=nodes,
            )
            for kind, meta in entry["kinds"].items()
        }
        source = {key: value for key, value in entry.items() if key != "kinds"}
        versions[version] = VersionSchemas(version=version, source=source, kinds=kinds)
    return SchemaSet(versions=versions)
