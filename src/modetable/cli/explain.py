"""`modetable explain`: the table of `kubectl ome runtime explain`, by default
cut to the runtime picked (or the closest), those the mode rule rejects and one
line counting the rest; `--all` every runtime; `--why` one runtime's full trace."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from modetable.cli.common import (
    Io,
    add_manifests,
    add_namespaces,
    add_output,
    deny_refused,
    isvc_and_cluster,
    load_cluster,
    load_policy,
    rules_note,
    warn_refused,
    with_namespace,
)
from modetable.inputs.manifests import Refused

if TYPE_CHECKING:
    from modetable.selection.explain import Brief

__all__ = ["EXAMPLES", "add_arguments", "run"]

EXAMPLES = """\
examples:
  modetable explain --isvc llama-demo/llama-3-70b manifests/
  modetable explain --model llama-3-3-70b-instruct -n llama-demo manifests/
  modetable explain --isvc llama-demo/llama-3-70b manifests/ --all
  modetable explain --isvc llama-3-70b -n llama-demo manifests/ --why srt-llama-3-3-70b-instruct
"""

_DEFAULT_NAMESPACE = "default"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument(
        "--isvc",
        metavar="REF",
        help="the InferenceService: NAME or NAMESPACE/NAME, or a file holding one",
    )
    target.add_argument(
        "--model",
        metavar="REF",
        help="a model: NAMESPACE/NAME (the namespace's model first, then the cluster's) or NAME",
    )
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "--all",
        action="store_true",
        help="every runtime (by default: the one picked or the closest, those the mode "
        "rule rejects, and the rest counted)",
    )
    shown.add_argument(
        "--why",
        metavar="NAME",
        help="only this runtime: every check in order, with what it read",
    )
    add_manifests(parser)
    add_output(parser)
    add_namespaces(parser, "the namespace of --isvc NAME, or of --model NAME")


def run(args: argparse.Namespace, io: Io) -> int:
    from modetable.output.render import dump, line, table
    from modetable.selection.explain import brief, explain_isvc, explain_model, rows, why
    from modetable.selection.rules import selection_rules

    policy = load_policy(args, io)
    if args.isvc:
        isvc, cluster = isvc_and_cluster(policy, args, io)
        if isinstance(isvc, Refused):
            return deny_refused(policy, args, io, isvc)
        explanation = explain_isvc(policy, cluster, isvc)
    else:
        cluster = load_cluster(policy, args.manifests, io, live=args.live)
        warn_refused(policy, cluster, io)
        namespace, _, name = with_namespace(args.model, args.namespace).rpartition("/")
        explanation = explain_model(policy, cluster, name, namespace or _DEFAULT_NAMESPACE)
    trace = why(explanation, args.why) if args.why is not None else None
    if explanation.note:
        io.stderr.write(line(explanation.note))
    if explanation.lookup:
        io.stderr.write(line(f"Model: {explanation.lookup}"))
    if explanation.cause is not None:
        cause = explanation.cause
        io.stderr.write(
            line(
                f"Cause: {cause.kind} {cause.ref} ({cause.location}): "
                + policy.message("model_format_required")
            )
        )
        if explanation.hint:
            io.stderr.write(line(explanation.hint))
    if args.output != "table":
        from modetable.views.converter import unstructure
        from modetable.views.explain import ExplainView

        dump(unstructure(ExplainView.of(policy, explanation, trace)), args.output, io.stdout)
        return 0
    io.stdout.write(rules_note(policy))
    if trace is not None:
        from modetable.selection.report import trace_lines

        io.stdout.write("".join(line(text) for text in trace_lines(policy, trace)))
        return 0
    if not explanation.candidates:
        io.stderr.write(line(policy.message("explain_no_runtimes")))
        return 0
    columns = selection_rules(policy).explain.columns
    if args.all:
        io.stdout.write(table(columns, rows(policy, explanation)))
        return 0
    shown = brief(policy, explanation)
    io.stdout.write(line(_decision(shown)))
    io.stdout.write(table(columns, rows(policy, explanation, shown.shown)))
    if shown.hidden:
        io.stdout.write(line(_the_rest(shown)))
    return 0


def _decision(shown: Brief) -> str:
    picked = shown.picked
    if picked is None:
        closest = len(shown.closest)
        which = (
            "the closest"
            if closest == shown.as_close
            else f"{closest} of the {shown.as_close} closest"
        )
        return (
            f"None of the {_runtimes(shown.total)} checked qualifies; "
            f"below, {which} (furthest through the checks)"
        )
    which = (
        "the only runtime that qualifies"
        if shown.qualifying == 1
        else f"the first of the {shown.qualifying} that qualify"
    )
    return f"Picked: {picked.name} ({picked.kind}, {picked.scope_label}), {which}"


def _the_rest(shown: Brief) -> str:
    """`N more not shown: ...; --all lists every runtime`."""
    parts = []
    if shown.ranked_lower:
        verbs = "qualifies but ranks" if shown.ranked_lower == 1 else "qualify but rank"
        parts.append(f"{shown.ranked_lower} {verbs} lower")
    failing = sum(count for _check, count in shown.failing)
    if failing:
        verb = "fails" if failing == 1 else "fail"
        counted = ", ".join(f"{check} {count}" for check, count in shown.failing)
        parts.append(f"{failing} {verb} a check ({counted})")
    return (
        f"{shown.hidden} more {_runtimes(shown.hidden, counted=False)} not shown: "
        f"{'; '.join(parts)}. "
        "--all lists every runtime, --why NAME traces one."
    )


def _runtimes(count: int, *, counted: bool = True) -> str:
    word = "runtime" if count == 1 else "runtimes"
    return f"{count} {word}" if counted else word
