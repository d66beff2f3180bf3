"""`modetable effective`: each component's running mode, `MODE (SOURCE)`."""

from __future__ import annotations

import argparse

from modetable.cli.common import (
    Io,
    add_isvc_inputs,
    components_table,
    deny_refused,
    isvc_and_cluster,
    load_policy,
    rules_note,
)
from modetable.inputs.manifests import Refused

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
    from modetable.api.results import effective_result
    from modetable.output.render import dump, line

    policy = load_policy(args, io)
    isvc, cluster = isvc_and_cluster(policy, args, io)
    if isinstance(isvc, Refused):
        return deny_refused(policy, args, io, isvc)
    result = effective_result(policy, cluster, isvc, args.runtime)
    view = result.view
    if args.output != "table":
        from modetable.views.converter import unstructure

        dump(unstructure(view), args.output, io.stdout)
        return 0
    io.stdout.write(rules_note(policy))
    runtime = view.runtime
    if runtime is None:
        io.stdout.write(line(f"InferenceService {view.isvc}: no runtime"))
        if view.message:
            io.stdout.write(line(view.message))
    else:
        how = "named" if view.named else ("auto-selected" if result.selected else "not named")
        io.stdout.write(
            line(f"InferenceService {view.isvc}: runtime {runtime.name} ({runtime.kind}, {how})")
        )
    io.stdout.write(components_table(view))
    return 0
