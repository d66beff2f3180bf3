"""The mode each component runs in, after the runtime's configs are merged in,
and what fails at run time."""

from __future__ import annotations

import functools
from typing import Any

import attrs

from modetable.engine.matching import declares
from modetable.engine.modes import Objects, Resolution, resolve
from modetable.engine.runtimes import resolve_chain
from modetable.inputs.manifests import Cluster, Manifest
from modetable.parsing import paths
from modetable.rules.policy import Policy
from modetable.rules.words import Purpose, SourceEffect, SourceObject
from modetable.settled import frozen

__all__ = [
    "Effective",
    "effective",
    "failure_logs",
    "failures_with_rules",
    "logged",
    "merge_along",
]


@frozen
class Effective:
    """Each declared component's running mode and source, and run-time failures."""

    runtime: Manifest | None
    named: bool
    components: dict[str, Resolution]
    reconcile: dict[str, str]
    no_workload: bool = False
    # Component -> what OME's manager logs its failure under (no event shows it).
    logs: dict[str, str] = attrs.Factory(dict)
    # Component of `reconcile` -> the id of the run_failures rule behind its
    # error (None where no rule names its mode).
    rules: dict[str, str | None] = attrs.Factory(dict)


# The paths sources read, as a tree: segment -> the tree below it ({} at the end).
_ReadTree = dict[str, "_ReadTree"]


@functools.lru_cache(maxsize=16)  # bounded: a long-running program may make many policies
def _merged_reads(policy: Policy) -> _ReadTree:
    """Every path the running sources read from the merged InferenceService
    (once per policy; read, never changed)."""
    tree: _ReadTree = {}
    for component in policy.components:
        for plan in policy.plans(Purpose.RUNNING, component.name):
            if plan.source.object != SourceObject.MERGED:
                continue
            for segments in (*((plan.path,) if plan.path is not None else ()), *plan.present):
                node = tree
                for segment in segments:
                    node = node.setdefault(segment, {})
    return tree


def _merged_isvc(
    policy: Policy, isvc: Manifest, runtime_spec: dict[str, Any] | None
) -> dict[str, Any]:
    """The InferenceService with the runtime's component configs merged into the
    components it declares (its own keys win), where the rules read it.

    Only the paths the running sources read are merged, so the cost is theirs,
    not the size of the specs: a spec whose aliases expand to millions of nodes
    is never walked. Elsewhere the merged object holds the InferenceService's own
    values; nothing else reads it.
    """
    merged: dict[str, Any] = dict(isvc.body)
    if not runtime_spec:
        return merged
    reads = _merged_reads(policy)
    for component in policy.components:
        if not declares(policy, isvc, component):
            continue
        into, source_path = policy.merge_paths[component.name]
        below: _ReadTree | None = reads
        for segment in into:
            below = below.get(segment) if below is not None else None
        if not below:
            continue  # nothing reads inside this component
        source = paths.lookup({"spec": runtime_spec}, source_path)
        if isinstance(source, dict):
            own = paths.lookup(isvc.body, into)
            own = None if own is paths.MISSING else own
            merged = paths.assign(merged, into, merge_along(source, own, below))
    return merged


def merge_along(runtime_config: Any, isvc_component: Any, reads: _ReadTree) -> Any:
    """The runtime's component config merged under the InferenceService's, as seen
    along `reads`: mappings merge key by key on the way down each path read, the
    InferenceService's keys win, and at a path's end the value is the
    InferenceService's when it has one, else the runtime's (whether it is there,
    and whether it is a string, is all a source asks of it)."""
    if not (isinstance(runtime_config, dict) and isinstance(isvc_component, dict)):
        return runtime_config if isvc_component is None else isvc_component
    merged = dict(isvc_component)
    for key, below in reads.items():
        mine, theirs = isvc_component.get(key), runtime_config.get(key)
        value = merge_along(theirs, mine, below) if below else theirs if mine is None else mine
        if value is not None:
            merged[key] = value
    return merged


def _runtime_spec_for(
    policy: Policy, cluster: Cluster, runtime: Manifest | None, named: bool
) -> dict[str, Any] | None:
    """A named runtime is used with its inheritance merged in; an auto-selected one as it is."""
    if runtime is None:
        return None
    if named:
        return resolve_chain(policy, cluster, runtime).spec
    return runtime.spec


def effective(
    policy: Policy,
    cluster: Cluster,
    isvc: Manifest,
    runtime: Manifest | None,
    named: bool,
) -> Effective:
    spec = _runtime_spec_for(policy, cluster, runtime, named)
    objects = Objects(
        isvc=isvc.body,
        runtime={"spec": spec} if spec is not None else None,
        merged=_merged_isvc(policy, isvc, spec),
        named=named,
        fallback=isvc.location,
    )
    components = {
        c.name: resolve(policy, Purpose.RUNNING, c, objects)
        for c in policy.components
        if declares(policy, isvc, c)
    }
    no_workload = any(r.effect == SourceEffect.NO_WORKLOAD for r in components.values())
    failures = {} if no_workload else failures_with_rules(policy, components)
    return Effective(
        runtime=runtime,
        named=named,
        components=components,
        reconcile={name: error for name, (error, _rule) in failures.items()},
        no_workload=no_workload,
        logs=failure_logs(policy, failures),
        rules={name: rule for name, (_error, rule) in failures.items()},
    )


def failures_with_rules(
    policy: Policy, components: dict[str, Resolution]
) -> dict[str, tuple[str, str | None]]:
    """Component → (its run-time error, the id of the run_failures rule behind it),
    in reconcile order. A component not reconciled because an earlier one failed
    gets that one's rule; one whose mode no rule names gets None."""
    failures: dict[str, tuple[str, str | None]] = {}
    stopped_by: tuple[str, str] | None = None
    for component in policy.components:
        resolution = components.get(component.name)
        if resolution is None:
            continue
        if stopped_by is not None:
            error = policy.message("not_reconciled", component=stopped_by[0])
            failures[component.name] = (error, stopped_by[1])
            continue
        mode = resolution.mode
        if mode is None or mode in component.runs_in:
            continue
        rule = next(
            (f for f in policy.run_failures if component.name in f.components and mode in f.modes),
            None,
        )
        if rule is None:
            error = policy.message("cannot_run_in", component=component.name, mode=mode)
            failures[component.name] = (error, None)
            continue
        failures[component.name] = (
            policy.message(rule.error, component=component.name),
            rule.id,
        )
        if rule.stops_later:
            stopped_by = (component.name, rule.id)
    return failures


def failure_logs(policy: Policy, failures: dict[str, tuple[str, str | None]]) -> dict[str, str]:
    """Component -> the line OME's manager logs its own failure under (its run
    failure's `log`), of `failures` as failures_with_rules gives them; the
    components not reconciled after it log nothing."""
    rules = {f.id: f for f in policy.run_failures}
    logs = {}
    for name, (error, rule_id) in failures.items():
        rule = rules.get(rule_id or "")
        if rule is not None and error == policy.message(rule.error, component=name):
            logs[name] = policy.message(rule.log)
    return logs


def logged(error: str, log: str | None) -> str:
    """A run-time error as OME's manager logs it (`log`: the line it logs it under)."""
    return f"{log}: {error}" if log else error
