"""`modetable match`: every runtime against an InferenceService, mode rule alone."""

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
from modetable.manifests import Manifest
from modetable.modes import resolution_json
from modetable.rules.policy import Policy

__all__ = ["EXAMPLES", "add_arguments", "run"]

EXAMPLES = """\
examples:
  modetable match --isvc llama-demo/llama-3-70b manifests/
  modetable match --isvc examples/inference-service.yaml examples/ --explain
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_isvc_inputs(parser)
    parser.add_argument("--runtime", metavar="NAME", help="match only this runtime")
    parser.add_argument(
        "--explain",
        action="store_true",
        help="after the table, say which source gave each side's mode and which were passed over",
    )


def run(args: argparse.Namespace, io: Io) -> int:
    from modetable.matching import match_runtime, requested_modes
    from modetable.rules.policy import rules_json
    from modetable.runtimes import InheritanceError, find_named_runtime, runtime_request
    from modetable.selection.scoring import scope_order

    policy = load_policy(args, io)
    isvc, cluster = isvc_and_cluster(policy, args, io)
    request = runtime_request(policy, isvc)
    named_runtime = find_named_runtime(policy, cluster, isvc, request) if request else None
    scope = scope_order(policy)
    candidates = sorted(
        cluster.runtimes_for(isvc.namespace), key=lambda r: (scope(r.scope), r.name)
    )
    if args.runtime is not None:
        candidates = [r for r in candidates if r.name == args.runtime]
        if not candidates:
            raise ModetableError(f"no runtime {args.runtime!r} for namespace {isvc.namespace}")
    requested = requested_modes(policy, isvc)
    results: list[dict[str, Any]] = []
    for runtime in candidates:
        named = runtime is named_runtime
        entry: dict[str, Any] = {
            "name": runtime.name,
            "kind": runtime.kind,
            "scope": policy.rules.manifests.scope_labels[runtime.scope],
            "named": named,
        }
        try:
            match = match_runtime(policy, cluster, isvc, runtime, named, requested)
        except InheritanceError as exc:
            entry.update(result="error", reason=exc.message, row=None, components={})
            results.append(entry)
            continue
        rejection = match.rejection
        entry.update(
            result="pass" if match.passed else "reject",
            reason=match.reason,
            row=rejection.row if rejection else None,
            components={
                c.component: {
                    "row": c.row,
                    "outcome": c.outcome,
                    "reason": c.reason,
                    "requested": resolution_json(c.requested),
                    "declared": resolution_json(c.declared),
                }
                for c in match.components
            },
        )
        results.append(entry)
    data = {
        "isvc": isvc.ref,
        "version": policy.release,
        "requested": {name: resolution_json(r) for name, r in requested.items()},
        "runtimes": results,
        "rules": rules_json(policy),
    }
    if args.output != "table":
        from modetable.render import dump

        dump(data, args.output, io.stdout)
    else:
        io.stdout.write(rules_note(policy))
        _print_table(policy, isvc, data, io, explain=args.explain)
    # Negative: no runtime passes, or the named runtime's chain is broken (OME's
    # webhook rejects the InferenceService then, whatever the others do).
    if any(r["result"] == "error" for r in results):
        return 1
    return 0 if any(r["result"] == "pass" for r in results) else 1


def _print_table(
    policy: Policy, isvc: Manifest, data: dict[str, Any], io: Io, *, explain: bool
) -> None:
    from modetable.render import table

    outcomes = policy.rules.matching.outcomes
    asks = ", ".join(
        f"{name} {r['mode'] or 'none'}" + (f" ({r['source']})" if r["source"] else "")
        for name, r in data["requested"].items()
    )
    io.stdout.write(f"InferenceService {isvc.ref} asks: {asks}\n")
    if not data["runtimes"]:
        io.stdout.write("No runtimes for its namespace or at cluster scope.\n")
        return
    rows = []
    for entry in data["runtimes"]:
        result = (
            policy.explanation("chain_broken")
            if entry["result"] == "error"
            else outcomes[entry["result"]]
        )
        name = entry["name"] + (" (named)" if entry["named"] else "")
        rows.append([name, entry["scope"], result, entry["row"] or "-", entry["reason"] or "-"])
    io.stdout.write(table(["RUNTIME", "SCOPE", "RESULT", "ROW", "REASON"], rows))
    if explain:
        for entry in data["runtimes"]:
            io.stdout.write(f"\n{entry['name']} ({entry['kind']}):\n")
            for component, detail in entry["components"].items():
                io.stdout.write(
                    f"  {component}: row {detail['row']}, {outcomes[detail['outcome']]}\n"
                )
                for side, label in (("requested", "InferenceService"), ("declared", "runtime")):
                    side_data = detail[side]
                    mode = side_data["mode"] or "none"
                    source = f" from {side_data['source']}" if side_data["source"] else ""
                    io.stdout.write(f"    {label}: {mode}{source}\n")
                    for reading in side_data["passed_over"]:
                        io.stdout.write(f"      passed over {reading['path']}: {reading['why']}\n")
            if entry["result"] == "error":
                io.stdout.write(f"  {entry['reason']}\n")
