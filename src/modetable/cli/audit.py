"""`modetable audit`: every InferenceService of a cluster dump or a GitOps tree,
and with `--from`, what an upgrade changes for each."""

from __future__ import annotations

import argparse
import shutil
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

from modetable.cli.common import (
    Io,
    add_manifests,
    add_output,
    load_cluster,
    load_policy,
    load_rules,
    policy_at,
    rules_note,
)
from modetable.errors import ModetableError

__all__ = ["PROGRESS_LABEL", "SPOOL_BYTES", "add_arguments", "run"]

PROGRESS_LABEL = "auditing"
SPOOL_BYTES = 8 * 1024 * 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_manifests(parser)
    add_output(parser)
    parser.add_argument(
        "--from",
        dest="from_version",
        metavar="V",
        help="show the upgrade impact from OME version V (to --to)",
    )
    parser.add_argument(
        "--to",
        dest="to_version",
        metavar="V",
        help="the version upgraded to, with --from (default: --ome-version, else the "
        "default version)",
    )
    parser.add_argument(
        "--candidates",
        action="store_true",
        help="list every candidate runtime in each item (JSON and YAML; slow on a large fleet)",
    )


def run(args: argparse.Namespace, io: Io) -> int:
    if args.to_version is not None and args.from_version is None:
        raise ModetableError("--to needs --from (the version upgraded from)")
    if args.from_version is not None:
        if args.candidates:
            raise ModetableError("--candidates applies to an audit, not to --from")
        return _upgrade(args, io)
    return _audit(args, io)


def _audit(args: argparse.Namespace, io: Io) -> int:
    from modetable.audit.fleet import AuditSummary, audit_fleet, item_json
    from modetable.audit.output import write_audit
    from modetable.audit.progress import Progress
    from modetable.rules.policy import rules_json

    policy = load_policy(args, io)
    cluster = load_cluster(policy, args.manifests, io)
    summary = AuditSummary(policy)
    progress = Progress(io.stderr, len(cluster.isvcs), PROGRESS_LABEL)
    audited = (
        summary.add(item)
        for item in audit_fleet(
            policy, cluster, candidates=args.candidates, advance=progress.advance
        )
    )
    try:
        if args.output == "table":
            everything = list(audited)
            progress.close()
            io.stdout.write(rules_note(policy))
            write_audit(policy, everything, summary.as_json(), io.stdout)
        else:
            items = (item_json(i, candidates=args.candidates) for i in audited)
            _spooled(io, args.output, items, summary.as_json, rules_json(policy))
    finally:
        progress.close()
    return 0 if summary.clean else 1


def _upgrade(args: argparse.Namespace, io: Io) -> int:
    from modetable.audit.output import write_upgrade
    from modetable.audit.progress import Progress
    from modetable.audit.upgrade import impact_json, upgrade_impact, upgrade_summary_json
    from modetable.manifests import check_fields
    from modetable.rules.policy import rules_json

    ruleset = load_rules(args)
    before = policy_at(ruleset, args.from_version, io)
    after = policy_at(ruleset, args.to_version or getattr(args, "ome_version", None), io)
    cluster = load_cluster(after, args.manifests, io)
    check_fields(before, cluster)
    progress = Progress(io.stderr, 2 * len(cluster.isvcs), PROGRESS_LABEL)
    try:
        impacts = upgrade_impact(before, after, cluster, advance=progress.advance)
    finally:
        progress.close()
    summary = upgrade_summary_json(before, after, impacts)
    if args.output == "table":
        io.stdout.write(rules_note(ruleset))
        write_upgrade(after, impacts, summary, io.stdout)
    else:
        # Two lines compared: each side's in `from` and `to`, none in `version`.
        used = {**rules_json(ruleset), "from": before.version, "to": after.version}
        _spooled(io, args.output, (impact_json(i) for i in impacts), lambda: summary, used)
    return 1 if summary["breaking"] else 0


def _spooled(
    io: Io,
    output: str,
    items: Iterator[dict[str, Any]],
    summary: Callable[[], dict[str, Any]],
    rules: dict[str, Any],
) -> None:
    """JSON or YAML written item by item into a spool (memory, then a temporary
    file past SPOOL_BYTES) that reaches stdout only once every item is made, so
    bad input met at a later item leaves stdout empty, not half a document."""
    from modetable.audit.output import WRITERS

    with tempfile.SpooledTemporaryFile(SPOOL_BYTES, "w+", encoding="utf-8") as spool:
        WRITERS[output](spool, items, summary, rules)
        spool.seek(0)
        shutil.copyfileobj(spool, io.stdout)
