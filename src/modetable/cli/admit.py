"""`modetable admit`: the admission verdict on an InferenceService, every check
modetable models in OME's order (the same verdict as `select`'s)."""

from __future__ import annotations

import argparse

from modetable.cli.common import (
    Io,
    add_isvc_inputs,
    add_verbose,
    admission_lines,
    deny_refused,
    isvc_and_cluster,
    load_policy,
    rules_note,
)
from modetable.inputs.manifests import Refused

__all__ = ["EXAMPLES", "add_arguments", "run"]

EXAMPLES = """\
examples:
  modetable admit --isvc svc -n ns manifests/
  modetable admit --isvc isvc.yaml manifests/ -o json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_isvc_inputs(parser)
    add_verbose(parser, "when allowed, list the checks modetable does not model (the table)")


def run(args: argparse.Namespace, io: Io) -> int:
    from modetable.api.results import admit_result
    from modetable.output.render import dump, line

    policy = load_policy(args, io)
    isvc, cluster = isvc_and_cluster(policy, args, io)
    if isinstance(isvc, Refused):
        return deny_refused(policy, args, io, isvc)
    view = admit_result(policy, cluster, isvc).view
    verdict = view.admission
    if args.output != "table":
        from modetable.views.converter import unstructure

        dump(unstructure(view), args.output, io.stdout)
    else:
        io.stdout.write(rules_note(policy))
        for warning in verdict.warnings:
            io.stdout.write(line(f"Warning: {warning}"))
        if verdict.allowed:
            io.stdout.write(line(f"InferenceService {isvc.ref}: allowed"))
        else:
            io.stdout.write(
                line(f"InferenceService {isvc.ref}: denied") + line(verdict.message or "")
            )
        for said in admission_lines(policy, verdict, verbose=args.verbose):
            io.stdout.write(line(said))
    return 0 if verdict.allowed else 1
