"""`modetable explain`: the table of `kubectl ome runtime explain`, and with
--why one runtime's full trace."""

from __future__ import annotations

import argparse

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

__all__ = ["EXAMPLES", "add_arguments", "run"]

EXAMPLES = """\
examples:
  modetable explain --isvc llama-demo/llama-3-70b manifests/
  modetable explain --model llama-3-3-70b-instruct -n llama-demo manifests/
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
    parser.add_argument(
        "--why",
        metavar="NAME",
        help="after the table, every check on this runtime in order, with what it read",
    )
    add_manifests(parser)
    add_output(parser)
    add_namespaces(parser, "the namespace of --isvc NAME, or of --model NAME")


def run(args: argparse.Namespace, io: Io) -> int:
    from modetable.output.render import dump, line, table
    from modetable.rules.policy import rules_json
    from modetable.selection.explain import (
        explain_isvc,
        explain_model,
        explanation_json,
        rows,
        why,
    )
    from modetable.selection.rules import selection_rules

    policy = load_policy(args, io)
    if args.isvc:
        isvc, cluster = isvc_and_cluster(policy, args, io)
        if isinstance(isvc, Refused):
            return deny_refused(policy, args, io, isvc)
        explanation = explain_isvc(policy, cluster, isvc)
    else:
        cluster = load_cluster(policy, args.manifests, io)
        warn_refused(policy, cluster, io)
        namespace, _, name = with_namespace(args.model, args.namespace).rpartition("/")
        explanation = explain_model(policy, cluster, name, namespace or _DEFAULT_NAMESPACE)
    trace = why(explanation, args.why) if args.why is not None else None
    if explanation.note:
        io.stderr.write(line(explanation.note))
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
        data = explanation_json(policy, explanation)
        if trace is not None:
            from modetable.selection.report import check_json

            data["why"] = {
                "name": trace.name,
                "kind": trace.kind,
                "checks": [check_json(c) for c in trace.checks],
            }
        data["rules"] = rules_json(policy)
        dump(data, args.output, io.stdout)
        return 0
    io.stdout.write(rules_note(policy))
    if not explanation.candidates:
        io.stderr.write(line(policy.message("explain_no_runtimes")))
        return 0
    io.stdout.write(table(selection_rules(policy).explain.columns, rows(policy, explanation)))
    if trace is not None:
        from modetable.selection.report import trace_lines

        io.stdout.write("\n" + "".join(line(text) for text in trace_lines(policy, trace)))
    return 0
