"""`modetable match`: every runtime against an InferenceService, mode rule alone;
by default the table shows those it rejects (and the one named), and counts
those it passes."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from modetable.cli.common import Io, add_isvc_inputs, answer_isvc
from modetable.inputs.manifests import Manifest
from modetable.rules.policy import Policy
from modetable.rules.words import Purpose

if TYPE_CHECKING:
    from modetable.views.common import ResolutionView
    from modetable.views.match import MatchView

__all__ = ["EXAMPLES", "add_arguments", "run"]

EXAMPLES = """\
examples:
  modetable match --isvc llama-demo/llama-3-70b manifests/
  modetable match --isvc examples/inference-service.yaml examples/ --explain
  modetable match --isvc llama-demo/llama-3-70b manifests/ --all
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_isvc_inputs(parser)
    parser.add_argument("--runtime", metavar="NAME", help="match only this runtime")
    parser.add_argument(
        "--all",
        action="store_true",
        help="every runtime (by default: those the mode rule rejects and the one named, "
        "the others counted)",
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="after the table, say which source gave each side's mode and which were passed over",
    )


def run(args: argparse.Namespace, io: Io) -> int:
    from modetable.api.results import match_result

    return answer_isvc(
        args,
        io,
        decide=lambda policy, cluster, isvc: match_result(policy, cluster, isvc, args.runtime),
        write_table=lambda policy, isvc, result: _print_table(
            policy, isvc, result.view, io, explain=args.explain, every=args.all
        ),
        # Negative: no runtime passes, or the named runtime's chain is broken (OME's
        # webhook rejects the InferenceService then, whatever the others do).
        exit_code=lambda result: 0 if result.ok else 1,
    )


def _print_table(
    policy: Policy, isvc: Manifest, view: MatchView, io: Io, *, explain: bool, every: bool
) -> None:
    from modetable.output.render import line, table

    outcomes = policy.rules.matching.outcomes
    asks = ", ".join(
        f"{name} {r.mode or 'none'}"
        + (f" (from {policy.source_words(Purpose.REQUESTED, name, r.source)})" if r.source else "")
        for name, r in view.requested.items()
    )
    io.stdout.write(line(f"InferenceService {isvc.ref} asks: {asks}"))
    if not view.runtimes:
        io.stdout.write("No runtimes for its namespace or at cluster scope.\n")
        return
    shown = [entry for entry in view.runtimes if every or not entry.passed or entry.named]
    rows = []
    for entry in shown:
        result = policy.explanation("chain_broken") if entry.broken else outcomes[entry.result]
        name = entry.name + (" (named)" if entry.named else "")
        rule = policy.row_words(entry.row) if entry.row else "-"
        rows.append([name, entry.scope, result, rule, entry.reason or "-"])
    if rows:
        io.stdout.write(table(["RUNTIME", "SCOPE", "RESULT", "RULE", "REASON"], rows))
    hidden = len(view.runtimes) - len(shown)
    if hidden:
        io.stdout.write(line(_passing(hidden, every_one=not rows)))
    if explain:
        io.stdout.write("\n" + line(f"InferenceService {isvc.ref}:"))
        for component, side in view.requested.items():
            io.stdout.write(
                line(f"  {component}: {_mode(policy, Purpose.REQUESTED, component, side)}")
            )
            io.stdout.writelines(_passed_over(side, "    "))
        for entry in shown:
            io.stdout.write("\n" + line(f"{entry.name} ({entry.kind}):"))
            for component, detail in entry.components.items():
                decided = f"{outcomes[detail.outcome]}: {policy.row_words(detail.row)}"
                io.stdout.write(line(f"  {component}: {decided}"))
                declared = _mode(policy, Purpose.DECLARED, component, detail.declared)
                io.stdout.write(line(f"    runtime: {declared}"))
                io.stdout.writelines(_passed_over(detail.declared, "      "))
            if entry.broken:
                io.stdout.write(line(f"  {entry.reason}"))


def _passing(count: int, *, every_one: bool) -> str:
    """The line that counts the runtimes the mode rule passes, not shown."""
    if every_one:
        if count == 1:
            return "The runtime passes the mode rule; --all lists it."
        return f"All {count} runtimes pass the mode rule; --all lists them."
    counted = "1 more runtime passes" if count == 1 else f"{count} more runtimes pass"
    return f"{counted} the mode rule; --all lists every runtime."


def _mode(policy: Policy, purpose: Purpose, component: str, side: ResolutionView) -> str:
    """`MODE from WHERE` (or `none`) of a side of the match: the place the mode
    came from in an operator's words (the source's id is JSON's)."""
    source = f" from {policy.source_words(purpose, component, side.source)}" if side.source else ""
    return f"{side.mode or 'none'}{source}"


def _passed_over(side: ResolutionView, indent: str) -> list[str]:
    from modetable.output.render import line

    return [
        line(f"{indent}passed over {reading.path}: {reading.why}")
        for reading in side.passed_over or ()
    ]
