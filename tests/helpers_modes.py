"""Small drivers over the engine for the spec-page tests."""

from __future__ import annotations

from conftest import cluster_of

from modetable.admission import admit
from modetable.engine.matching import match_runtime, requested_modes
from modetable.engine.running import effective


def match(policy, isvc: dict, runtime: dict, *others: dict, named: bool | None = None):
    """The RuntimeMatch of `runtime` against `isvc` (named when the ISVC names it)."""
    cluster = cluster_of(policy, isvc, runtime, *others)
    (service,) = cluster.isvcs
    target = next(r for r in cluster.runtimes if r.name == runtime["metadata"]["name"])
    if named is None:
        named = (isvc["spec"].get("runtime") or {}).get("name") == target.name
    return match_runtime(policy, cluster, service, target, named)


def requested(policy, isvc: dict):
    cluster = cluster_of(policy, isvc)
    return requested_modes(policy, cluster.isvcs[0])


def running(policy, isvc: dict, runtime: dict | None = None, *others: dict, named: bool = False):
    docs = [isvc] + ([runtime] if runtime else []) + list(others)
    cluster = cluster_of(policy, *docs)
    (service,) = cluster.isvcs
    target = None
    if runtime is not None:
        target = next(r for r in cluster.runtimes if r.name == runtime["metadata"]["name"])
    return effective(policy, cluster, service, target, named)


def modes_of(result) -> dict[str, str]:
    """`effective`'s components as `kubectl ome runtime effective` prints them."""
    return {name: f"{r.mode} ({r.source_label})" for name, r in result.components.items()}


def admission(policy, isvc: dict):
    cluster = cluster_of(policy, isvc)
    return admit(policy, cluster.isvcs[0])


def reading_named(resolution, name: str):
    """The one reading of `resolution` from the source printed as `name`."""
    (found,) = [r for r in resolution.readings if r.source_label == name]
    return found
