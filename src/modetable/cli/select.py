"""`modetable select`: the runtime OME uses for an InferenceService, or why none,
with admission, events, conditions and each component's running mode."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from modetable.cli.common import (
    Io,
    add_isvc_inputs,
    add_verbose,
    admission_lines,
    answer_isvc,
    components_table,
)
from modetable.rules.policy import Policy

if TYPE_CHECKING:
    from modetable.views.select import SelectView

__all__ = ["EXAMPLES", "add_arguments", "run"]

EXAMPLES = """\
examples:
  modetable select --isvc llama-demo/llama-3-70b manifests/
  modetable select --isvc llama-3-70b -n llama-demo manifests/ -o json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_isvc_inputs(parser)
    add_verbose(parser, "list the checks of OME's webhooks modetable does not model (the table)")


def run(args: argparse.Namespace, io: Io) -> int:
    from modetable.api.results import SelectResult, select_result

    def exit_code(result: SelectResult) -> int:
        # A virtual InferenceService needs no runtime: OME marks it Ready. One
        # whose model waits for OME's model agent gets one of `pending.runtimes`.
        pending = result.view.pending
        could_pick = bool(pending and pending.runtimes)
        return 0 if result.runtime is not None or result.virtual or could_pick else 1

    return answer_isvc(
        args,
        io,
        decide=select_result,
        write_table=lambda policy, _, result: _print(policy, result.view, io, verbose=args.verbose),
        exit_code=exit_code,
    )


def _print(policy: Policy, view: SelectView, io: Io, *, verbose: bool) -> None:
    from modetable.output.render import line, table

    out = io.stdout
    runtime = view.runtime
    pending = view.pending
    if runtime is None and pending and pending.runtimes:
        out.write(line(f"InferenceService {view.isvc}: pending ({view.version})"))
    elif runtime is None:
        out.write(line(f"InferenceService {view.isvc}: no runtime ({view.version})"))
    else:
        how = "named" if view.named else "auto-selected"
        out.write(
            line(
                f"InferenceService {view.isvc}: runtime {runtime.name} "
                f"({runtime.kind}, {how}, {view.version})"
            )
        )
    if view.message:
        out.write(line(view.message))
    out.writelines(line(text) for text in _cause_lines(view))
    if view.lookup:
        out.write(line(f"Model: {view.lookup}"))
    admission = view.admission
    out.write("\n")
    for warning in admission.warnings:
        out.write(line(f"Warning: {warning}"))
    if admission.allowed:
        out.write("Admission: allowed\n")
    else:
        out.write("Admission: denied\n" + line(admission.message or ""))
    for said in admission_lines(policy, admission, verbose=verbose):
        out.write(line(said))
    webhook = policy.rules.runtime_admission
    if runtime is not None and webhook is not None:
        # The runtime used is taken to exist: say which of its checks that rests on
        # (without -v, the line above points at them when allowed; else this one).
        if verbose:
            out.write(line(policy.message(webhook.not_modelled)))
        elif not admission.allowed:
            out.write(line(policy.message("not_modelled_brief")))
    if view.events:
        out.write("\n")
        rows = [[e.type, e.reason, e.message] for e in view.events]
        out.write(table(["TYPE", "REASON", "MESSAGE"], rows))
    if view.conditions:
        out.write("\n")
        rows = [[c.type, c.status, c.reason, c.message or "-"] for c in view.conditions]
        out.write(table(["CONDITION", "STATUS", "REASON", "MESSAGE"], rows))
    if view.components:
        out.write("\n")
        out.write(components_table(view))


def _cause_lines(view: SelectView) -> list[str]:
    """The object to fix when it is the model or a runtime, and what to do
    (select's `cause`, `hint`)."""
    lines = []
    cause = view.cause
    if cause:
        lines.append(f"Cause: {cause.kind} {cause.ref} ({cause.at})")
    if view.hint:
        lines.append(view.hint)
    pending = view.pending
    if pending:
        model = pending.model
        lines.append(
            f"Pending: {model.kind} {model.ref} ({model.at}) has no {', '.join(pending.fields)} yet"
        )
        if pending.answer:
            lines.append(f"Until then: {pending.answer}")
    return lines
