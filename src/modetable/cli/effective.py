"""`modetable effective`: each component's running mode, `MODE (SOURCE)`."""

from __future__ import annotations

import argparse
from typing import Any

from modetable.cli.common import (
    Io,
    add_isvc_inputs,
    isvc_and_cluster,
    load_policy,
    rules_note,
)
from modetable.errors import ModetableError
from modetable.manifests import Cluster, Manifest, runtime_json
from modetable.modes import resolution_json
from modetable.rules.policy import Policy

__all__ = ["EXAMPLES", "add_arguments", "run"]

EXAMPLES = """\
examples:
  modetable effective --isvc ns/svc manifests/
  modetable effective --isvc svc -n ns manifests/ -o json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_isvc_inputs(parser)
    parser.add_argument(
        "--runtime",
        metavar="NAME",
        help="use this runtime instead of the one the InferenceService names",
    )


def run(args: argparse.Namespace, io: Io) -> int:
    from modetable.render import dump, table
    from modetable.rules.policy import rules_json
    from modetable.running import effective
    from modetable.runtimes import find_named_runtime, runtime_request

    policy = load_policy(args, io)
    isvc, cluster = isvc_and_cluster(policy, args, io)
    request = runtime_request(policy, isvc)
    named_runtime = find_named_runtime(policy, cluster, isvc, request) if request else None
    if request and named_runtime is None and args.runtime is None:
        raise ModetableError(
            f"InferenceService {isvc.ref} names runtime {request.name!r}, "
            "which is not among the manifests",
            request.location,
        )
    runtime = named_runtime
    selected = False
    if args.runtime is not None:
        runtime = _runtime_by_name(policy, cluster, isvc, args.runtime, named_runtime)
    elif request is None:
        # None named: the runtime OME would select, if any.
        from modetable.selection import select

        runtime = select(policy, cluster, isvc).runtime
        selected = runtime is not None
    named = runtime is not None and runtime is named_runtime
    result = effective(policy, cluster, isvc, runtime, named)

    data: dict[str, Any] = {
        "isvc": isvc.ref,
        "version": policy.release,
        "runtime": runtime_json(runtime),
        "named": named,
        "components": {
            name: resolution_json(r, trace=False) for name, r in result.components.items()
        },
        "reconcile": result.reconcile,
        "rules": rules_json(policy),
    }
    if args.output != "table":
        dump(data, args.output, io.stdout)
        return 0
    io.stdout.write(rules_note(policy))
    if runtime is None:
        io.stdout.write(f"InferenceService {isvc.ref}: no runtime\n")
    else:
        how = "named" if named else ("auto-selected" if selected else "not named")
        io.stdout.write(
            f"InferenceService {isvc.ref}: runtime {runtime.name} ({runtime.kind}, {how})\n"
        )
    rows = [
        [name, f"{r.mode} ({r.source_label})", result.reconcile.get(name, "")]
        for name, r in result.components.items()
    ]
    headers = ["COMPONENT", "MODE", "RUN-TIME ERROR"] if result.reconcile else ["COMPONENT", "MODE"]
    io.stdout.write(table(headers, [row[: len(headers)] for row in rows]))
    return 0


def _runtime_by_name(
    policy: Policy, cluster: Cluster, isvc: Manifest, name: str, named: Manifest | None
) -> Manifest:
    from modetable.selection.scoring import scope_order

    if named is not None and named.name == name:
        return named
    found = [r for r in cluster.runtimes_for(isvc.namespace) if r.name == name]
    if not found:
        raise ModetableError(
            f"no runtime {name!r} for namespace {isvc.namespace} among the manifests"
        )
    # A namespace's own runtime comes before a cluster runtime of the same name.
    scope = scope_order(policy)
    found.sort(key=lambda r: scope(r.scope))
    return found[0]
