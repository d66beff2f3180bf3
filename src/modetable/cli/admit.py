"""`modetable admit`: the admission verdict on an InferenceService, every check
modetable models in OME's order (the same verdict as `select`'s)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from modetable.cli.common import Io, add_isvc_inputs, add_verbose, admission_lines, answer_isvc

if TYPE_CHECKING:
    from modetable.inputs.manifests import Manifest
    from modetable.rules.policy import Policy
    from modetable.views.admit import AdmitView

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

    return answer_isvc(
        args,
        io,
        decide=admit_result,
        write_table=lambda policy, isvc, result: _print(
            policy, isvc, result.view, io, verbose=args.verbose
        ),
        exit_code=lambda result: 0 if result.allowed else 1,
    )


def _print(policy: Policy, isvc: Manifest, view: AdmitView, io: Io, *, verbose: bool) -> None:
    from modetable.output.render import line

    verdict = view.admission
    for warning in verdict.warnings:
        io.stdout.write(line(f"Warning: {warning}"))
    if verdict.allowed:
        io.stdout.write(line(f"InferenceService {isvc.ref}: allowed"))
    else:
        io.stdout.write(line(f"InferenceService {isvc.ref}: denied") + line(verdict.message or ""))
    for said in admission_lines(policy, verdict, verbose=verbose):
        io.stdout.write(line(said))
