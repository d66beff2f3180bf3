"""`modetable match`: every runtime against an InferenceService, mode rule alone."""

from __future__ import annotations

import argparse
from typing import Any

from modetable.cli.common import (
    Io,
    add_isvc_inputs,
    deny_refused,
    isvc_and_cluster,
    load_policy,
    rules_note,
)
from modetable.inputs.manifests import Manifest, Refused
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
    from modetable.api.results import match_result

    policy = load_policy(args, io)
    isvc, cluster = isvc_and_cluster(policy, args, io)
    if isinstance(isvc, Refused):
        return deny_refused(policy, args, io, isvc)
    result = match_result(policy, cluster, isvc, args.runtime)
    data = result.to_json()
    if args.output != "table":
        from modetable.output.render import dump

        dump(data, args.output, io.stdout)
    else:
        io.stdout.write(rules_note(policy))
        _print_table(policy, isvc, data, io, explain=args.explain)
    # Negative: no runtime passes, or the named runtime's chain is broken (OME's
    # webhook rejects the InferenceService then, whatever the others do).
    return 0 if result.ok else 1


def _print_table(
    policy: Policy, isvc: Manifest, data: dict[str, Any], io: Io, *, explain: bool
) -> None:
    from modetable.output.render import line, table

    outcomes = policy.rules.matching.outcomes
    asks = ", ".join(
        f"{name} {r['mode'] or 'none'}" + (f" ({r['source']})" if r["source"] else "")
        for name, r in data["requested"].items()
    )
    io.stdout.write(line(f"InferenceService {isvc.ref} asks: {asks}"))
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
            io.stdout.write("\n" + line(f"{entry['name']} ({entry['kind']}):"))
            for component, detail in entry["components"].items():
                io.stdout.write(
                    line(f"  {component}: row {detail['row']}, {outcomes[detail['outcome']]}")
                )
                for side, label in (("requested", "InferenceService"), ("declared", "runtime")):
                    side_data = detail[side]
                    mode = side_data["mode"] or "none"
                    source = f" from {side_data['source']}" if side_data["source"] else ""
                    io.stdout.write(line(f"    {label}: {mode}{source}"))
                    for reading in side_data["passed_over"]:
                        io.stdout.write(
                            line(f"      passed over {reading['path']}: {reading['why']}")
                        )
            if entry["result"] == "error":
                io.stdout.write(line(f"  {entry['reason']}"))
