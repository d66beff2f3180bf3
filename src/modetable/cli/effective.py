"""`modetable effective`: each component's running mode, `MODE (SOURCE)`."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from modetable.cli.common import Io, add_isvc_inputs, answer_isvc, components_table

if TYPE_CHECKING:
    from modetable.api.results import EffectiveResult

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

    return answer_isvc(
        args,
        io,
        decide=lambda policy, cluster, isvc: effective_result(policy, cluster, isvc, args.runtime),
        write_table=lambda _, __, result: _print(result, io),
        exit_code=lambda _: 0,
    )


def _print(result: EffectiveResult, io: Io) -> None:
    from modetable.output.render import line

    view = result.view
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
