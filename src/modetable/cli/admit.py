"""`modetable admit`: the admission verdict on an InferenceService's modes."""

from __future__ import annotations

import argparse

from modetable.cli.common import Io, add_isvc_inputs, isvc_and_cluster, load_policy


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_isvc_inputs(parser)


def run(args: argparse.Namespace, io: Io) -> int:
    from modetable.admission import admit
    from modetable.render import dump

    policy = load_policy(args)
    isvc, _cluster = isvc_and_cluster(policy, args, io)
    verdict = admit(policy, isvc)
    data = {
        "admission": {
            "allowed": verdict.allowed,
            "message": verdict.message,
            "warnings": list(verdict.warnings),
        }
    }
    if args.output != "table":
        dump(data, args.output, io.stdout)
    else:
        for warning in verdict.warnings:
            io.stdout.write(f"Warning: {warning}\n")
        if verdict.allowed:
            io.stdout.write(f"InferenceService {isvc.ref}: allowed\n")
        else:
            io.stdout.write(f"InferenceService {isvc.ref}: denied\n{verdict.message}\n")
    return 0 if verdict.allowed else 1
