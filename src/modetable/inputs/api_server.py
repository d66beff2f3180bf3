"""What the Kubernetes API server refuses before any webhook: each ome.io
object checked against OME's CRD schema of the policy's version
(`schema_check`, the data of `crd_schema`), when the rules' admission runs a
check of kind `crd_schema`. An object it refuses never exists in the cluster:
the loader leaves it out and keeps it as a `manifests.Refused`.

The schema data is read only here, and only when such a check is in force.
"""

from __future__ import annotations

import functools

from modetable.inputs.crd_schema import KindSchema, load
from modetable.inputs.manifests import Manifest, Refused, kind_roles
from modetable.inputs.schema_check import check_object, kubectl_message, server_message
from modetable.rules.model.admission import AdmissionRule
from modetable.rules.policy import Policy
from modetable.rules.words import AdmissionCheck

__all__ = ["refusal", "schema_check_rule", "takes_only_listed_values"]


# Asked for every object loaded and every admission: found once per policy
# (bounded: a long-running program may make many policies).
@functools.lru_cache(maxsize=16)
def schema_check_rule(policy: Policy) -> AdmissionRule | None:
    """The admission check of kind crd_schema in force, or None: no schema
    check, or no schema data for the policy's version (a rules file's own
    version: its objects are taken as the API server's, unchecked)."""
    if policy.version not in load().versions:
        return None
    return next((r for r in policy.admission if r.check == AdmissionCheck.CRD_SCHEMA), None)


def _schema(policy: Policy, manifest: Manifest) -> KindSchema | None:
    """The CRD schema of the object's kind and API group in the policy's version."""
    schema = load().at(policy.version).kind(manifest.kind)
    api_version = manifest.body.get("apiVersion")
    if schema is None or not isinstance(api_version, str):
        return None
    group, _, version = api_version.rpartition("/")
    return schema if group == schema.group and version == schema.version else None


def refusal(policy: Policy, manifest: Manifest) -> Refused | None:
    """The API server's refusal of `manifest` on create, or None when it
    accepts it (or no schema check is in force, or OME's CRD has no schema for
    its kind and version)."""
    if schema_check_rule(policy) is None:
        return None
    schema = _schema(policy, manifest)
    if schema is None:
        return None
    problems = check_object(schema, manifest.body, manifest.location)
    if not problems:
        return None
    return Refused(
        manifest=manifest,
        role=kind_roles(policy.rules.manifests)[manifest.kind][0],
        problems=problems,
        server=server_message(schema, manifest.name, problems),
        kubectl=kubectl_message(schema, manifest.name, problems, manifest.location.file),
    )


def takes_only_listed_values(policy: Policy, kind: str, segments: tuple[str, ...]) -> bool:
    """Whether OME's CRD schema of `kind` lists the values the field at
    `segments` may hold (an enum): any other is the API server's refusal."""
    if schema_check_rule(policy) is None:
        return False
    schema = load().at(policy.version).kind(kind)
    if schema is None:
        return False
    node = schema.node(schema.root)
    for segment in segments:
        index = node.get("properties", {}).get(segment)
        if index is None:
            return False
        node = schema.node(index)
    return "enum" in node
