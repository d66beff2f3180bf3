"""`modetable audit`: every InferenceService of a cluster dump or a GitOps tree,
and with `--from`, what an upgrade changes for each."""

from __future__ import annotations

import argparse
import io as io_module
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from io import TextIOBase
from typing import TYPE_CHECKING, Any, TextIO

from modetable.cli import ENDED_OPTIONS
from modetable.cli.common import (
    CI_FORMATS,
    HTML_FORMAT,
    Io,
    add_manifests,
    add_namespaces,
    add_output,
    covered,
    load_cluster,
    load_cluster_leniently,
    load_policy,
    load_rules,
    policy_at,
    rules_note,
    warn_refused,
)
from modetable.errors import ErrorCode, ModetableError
from modetable.output.render import FORMATS

if TYPE_CHECKING:
    from modetable.api.results import AuditRun
    from modetable.audit.fleet import Audited
    from modetable.audit.scope import NamespaceScope
    from modetable.audit.triage import Ignore
    from modetable.inputs.manifests import Cluster
    from modetable.views.audit import AuditItemView

__all__ = [
    "CONFIG_NAMES",
    "EXAMPLES",
    "FAIL_ON",
    "NO_DOUBLE_DASH",
    "OUTPUT_FORMATS",
    "PROGRESS_LABEL",
    "SPOOL_BYTES",
    "add_arguments",
    "run",
]

EXAMPLES = """\
examples:
  modetable audit manifests/
  modetable audit manifests/ --problems-only -n llama-demo
  modetable audit manifests/ -o github --fail-on warning          (in GitHub Actions)
  modetable audit manifests/ -o sarif > modetable.sarif            (code scanning)
  modetable audit --within deploy/ -- deploy/a.yaml deploy/b.yaml  (pre-commit's changed files)
  modetable audit --from v1.2.2 --to v1.3 -- manifests/
"""

NO_DOUBLE_DASH = (
    "no -- ends the options (--require-double-dash), so a file named like one "
    "(-nzz.yaml) would be read as an option; end them with -- (in .pre-commit-config.yaml: "
    "args: [--within, deploy/, --])"
)
PROGRESS_LABEL = "auditing"
SPOOL_BYTES = 8 * 1024 * 1024
# The severities of the rules' findings, most severe first (audit/findings.py
# _SEVERITIES; repeated here so that building the parser imports nothing).
_SEVERITIES = ("error", "warning", "info")
_NEVER = "never"
FAIL_ON = (*_SEVERITIES[:2], _NEVER)
# The config file's names (inputs/config.py NAMES; repeated here so that
# building the parser imports nothing).
CONFIG_NAMES = (".modetable.yaml", ".modetable.yml")
# The formats of -o, each of which --output-file can write too.
OUTPUT_FORMATS = (*FORMATS, *CI_FORMATS, HTML_FORMAT)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_manifests(parser)
    add_output(parser, ci=True, html=True)
    add_namespaces(parser, "audit only the InferenceServices of this namespace")
    parser.add_argument(
        "--output-file",
        action="append",
        default=[],
        metavar="FORMAT=PATH",
        help="write the audit in FORMAT (one of -o's) to the file PATH too, from the same "
        "run (repeatable: sarif=modetable.sarif json=audit.json); stdout still gets -o's",
    )
    parser.add_argument(
        "--within",
        action="append",
        default=[],
        metavar="PATH",
        help="read PATH whole (a repository's manifests) and report only what concerns "
        "MANIFESTS: their InferenceServices and those using a runtime or model in them "
        "(for pre-commit, which passes the changed files)",
    )
    parser.add_argument(
        "--require-double-dash",
        action="store_true",
        help="refuse to run unless -- ends the options before MANIFESTS (the pre-commit "
        "hook's entry: a changed file named like an option, -nzz.yaml, is then never read "
        "as one, even where a config's args leave -- out)",
    )
    parser.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        help="exit 1 when a finding is this severe or more (default: the config's fail-on, "
        "else error); a suppressed finding or one the baseline knows never fails",
    )
    parser.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="ID",
        help="suppress the findings of id ID, a glob (`*` any characters: mode/*); repeatable. "
        "Suppressed findings are counted, and listed by -v and in JSON",
    )
    config = parser.add_mutually_exclusive_group()
    config.add_argument(
        "--config",
        metavar="FILE",
        help=f"the config file (default: {CONFIG_NAMES[0]} or {CONFIG_NAMES[1]} here, else in "
        "the nearest folder above up to the repository's root): ignores with their reasons, "
        "and ome-version, fail-on, rules and docs-url's defaults",
    )
    config.add_argument("--no-config", action="store_true", help="read no config file")
    parser.add_argument(
        "--docs-url",
        metavar="URL",
        help="where the page of finding ids (docs/findings.md) is hosted: each SARIF rule "
        "links to its entry, URL#anchor (default: the config's docs-url; without one, no "
        "link, and the rule carries the entry's text in full)",
    )
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        help="the findings of FILE (--write-baseline's) are known: shown and counted apart, "
        "never failing; only new ones fail, and those no longer found are reported fixed",
    )
    parser.add_argument(
        "--write-baseline",
        metavar="FILE",
        help="write this run's findings (those suppressed aside) to FILE as a baseline",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="the table lists the suppressed findings with their reasons, and the baseline's "
        "fixed ones",
    )
    parser.add_argument(
        "--severity",
        choices=_SEVERITIES,
        help="show only the InferenceServices with a finding this severe or more",
    )
    parser.add_argument(
        "--problems-only",
        action="store_true",
        help="show only the InferenceServices with a finding (--severity info)",
    )
    parser.add_argument(
        "--no-headers", action="store_true", help="print the table without its header row"
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="print nothing: the exit code is the answer"
    )
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
    if args.require_double_dash and not getattr(args, ENDED_OPTIONS, False):
        raise ModetableError(NO_DOUBLE_DASH)
    if args.to_version is not None and args.from_version is None:
        raise ModetableError("--to needs --from (the version upgraded from)")
    if args.quiet:
        # Errors still show: the command line's handler writes them (exit 2 needs its reason).
        io = Io(stdin=io.stdin, stdout=_Sink(), stderr=_Sink())
    if args.from_version is not None:
        for given, option in (
            (args.candidates, "--candidates"),
            (args.within, "--within"),
            (args.severity or args.problems_only, "--severity/--problems-only"),
            (args.fail_on is not None, "--fail-on"),
            (args.output not in ("table", "json", "yaml", HTML_FORMAT), f"-o {args.output}"),
            (args.output_file, "--output-file"),
            (args.ignore, "--ignore"),
            (args.baseline or args.write_baseline, "--baseline/--write-baseline"),
        ):
            if given:
                raise ModetableError(f"{option} applies to an audit, not to --from")
        _configured(args)
        return _upgrade(args, io)
    ignores = _configured(args)
    return _audit(args, io, ignores)


def _configured(args: argparse.Namespace) -> list[Ignore]:
    """The config file's defaults set where neither the command line nor the
    environment gives the option (--rules, --ome-version, --fail-on, --docs-url); the
    exceptions, `--ignore`'s then the config's."""
    from modetable.audit.triage import BY_CONFIG, BY_OPTION, Ignore
    from modetable.inputs.config import docs_url_problem, find_config, read_config
    from modetable.rules.find import RULES_VARIABLE, VERSION_VARIABLE

    path = None if args.no_config else args.config or find_config()
    config = read_config(path, FAIL_ON) if path is not None else None
    ignores = [Ignore(given, BY_OPTION) for given in args.ignore]
    problem = docs_url_problem(args.docs_url) if args.docs_url is not None else None
    if problem is not None:
        raise ModetableError(f"--docs-url: {problem}")
    if config is not None:
        if (
            config.rules
            and getattr(args, "rules", None) is None
            and not os.environ.get(RULES_VARIABLE)
        ):
            args.rules = config.rules
        if (
            config.ome_version
            and getattr(args, "ome_version", None) is None
            and not os.environ.get(VERSION_VARIABLE)
        ):
            args.ome_version = config.ome_version
        if args.fail_on is None and args.from_version is None:
            args.fail_on = config.fail_on
        if args.docs_url is None:
            args.docs_url = config.docs_url
        ignores += [
            Ignore(e.id, BY_CONFIG, e.reason, e.at, object=e.object, kind=e.kind)
            for e in config.ignores
        ]
    if args.fail_on is None:
        args.fail_on = _SEVERITIES[0]
    return ignores


def _audit(args: argparse.Namespace, io: Io, ignores: list[Ignore]) -> int:
    from modetable.api.results import AuditRun
    from modetable.audit.progress import Progress
    from modetable.audit.report import Concerns, shown
    from modetable.inputs.baseline import read_baseline
    from modetable.output import atomic

    files = _output_files(args)
    if args.write_baseline is not None and os.path.abspath(args.write_baseline) in {
        os.path.abspath(path) for _fmt, path in files
    }:
        raise ModetableError(f"--write-baseline and --output-file name {args.write_baseline!r}")
    baseline = read_baseline(args.baseline) if args.baseline is not None else None
    policy = load_policy(args, io)
    concerns = Concerns(args.manifests if args.within else [])
    inputs = [*args.within, *(m for m in args.manifests if not covered(m, args.within))]
    # With -n, only the objects defined twice that concern the namespace are said.
    cluster, rejected = load_cluster_leniently(
        policy, inputs, io, warn_duplicates=args.namespace is None, live=args.live
    )
    run = AuditRun(
        policy,
        cluster,
        rejected,
        namespace=args.namespace,
        candidates=args.candidates,
        concerns=concerns,
        ignores=ignores,
        baseline=baseline,
    )
    if run.note is not None:
        io.warn(run.note)
    threshold = "info" if args.problems_only else args.severity
    progress = Progress(io.stderr, len(run.isvcs), PROGRESS_LABEL)
    # The baseline holds every item's findings, those --severity hides too.
    every: list[Audited] = []
    kept: Iterable[Audited] = (
        item
        for item in _noted(run.audited(advance=progress.advance), every)
        if shown(item, threshold)
    )
    try:
        if files or args.write_baseline is not None:
            # One run, every format: the items audited once; the files written
            # all or none, before stdout gets -o's format.
            kept = list(kept)
            progress.close()
            # Every format is drawn from the same views: each item's made once.
            view = _views_once(run)
            written = [
                (path, _rendered(fmt, kept, run, args, view).encode("utf-8")) for fmt, path in files
            ]
            if args.write_baseline is not None:
                written.append((args.write_baseline, _baseline(every, run).encode("utf-8")))
            atomic.write_files(written)
            _write(args.output, kept, run, args, io.stdout, progress.close, view)
        else:
            _write(args.output, kept, run, args, io.stdout, progress.close)
    finally:
        progress.close()
    if args.namespace is not None:
        _warn_duplicates(cluster, run.scope, io)
    for ignore in run.unused_suppressions():
        io.warn(f"{ignore}: suppresses no finding")
    return 1 if run.summary.fails(None if args.fail_on == _NEVER else args.fail_on) else 0


def _noted(items: Iterable[Audited], into: list[Audited]) -> Iterator[Audited]:
    """`items`, each added to `into` as it passes."""
    for item in items:
        into.append(item)
        yield item


def _baseline(items: list[Audited], run: AuditRun) -> str:
    """The baseline file of this run: every finding but those suppressed and
    the pending (waiting for OME's model agent: no debt, they never fail), and
    the entries of the baseline read about what the audit leaves out."""
    from modetable.audit.triage import baseline_entry
    from modetable.views.baseline import baseline_document

    entries = [
        baseline_entry(finding, item.isvc.ref)
        for item in items
        for finding in (*item.findings, *item.known)
        if not finding.pending
    ]
    summary = run.summary
    entries += [
        baseline_entry(finding, "")
        for finding in (*summary.manifest_findings, *summary.manifest_known)
    ]
    # What -n or --within left out stays as it was.
    return baseline_document([*entries, *run.outside_entries()])


def _views_anew(run: AuditRun) -> Callable[[Audited], AuditItemView]:
    """An item's view, made anew at each use (a stream holds none)."""
    return lambda audited: run.item(audited).view


def _views_once(run: AuditRun) -> Callable[[Audited], AuditItemView]:
    """An item's view, made at its first use and kept for the next format's
    (the items are held in a list then: their ids stay theirs)."""
    made: dict[int, AuditItemView] = {}

    def view(audited: Audited) -> AuditItemView:
        found = made.get(id(audited))
        if found is None:
            found = made[id(audited)] = run.item(audited).view
        return found

    return view


def _write(
    fmt: str,
    kept: Iterable[Audited],
    run: AuditRun,
    args: argparse.Namespace,
    out: TextIO,
    done: Callable[[], None] = lambda: None,
    view: Callable[[Audited], AuditItemView] | None = None,
) -> None:
    """The audit in format `fmt` on `out`; `done` is called once every item is
    audited, before anything is written (the progress bar ends); `view` makes an
    item's view (`_views_anew` by default)."""
    from modetable.audit.report import write_report

    if view is None:
        view = _views_anew(run)
    if fmt in ("json", "yaml"):
        from modetable.views.converter import unstructure

        # The items and the rest as the Python API's AuditResult.to_json() gives them.
        items = (unstructure(view(audited)) for audited in kept)
        _spooled(out, fmt, items, lambda: unstructure(run.trailer()))
    elif fmt == HTML_FORMAT:
        from modetable.html.audit_page import audit_page
        from modetable.views.audit import AuditView

        # The page is drawn from the very view `-o json` prints.
        listed = tuple(view(audited) for audited in kept)
        done()
        out.write(audit_page(AuditView(listed, run.trailer())))
    else:
        everything = list(kept)
        done()
        # The outputs people read (the table, Markdown) name the rules file.
        preface = rules_note(run.policy) if fmt in ("table", "markdown") else ""
        write_report(
            fmt, run.policy, everything, run.summary, out, args, preface, run.fixed_entries()
        )


def _rendered(
    fmt: str,
    kept: list[Audited],
    run: AuditRun,
    args: argparse.Namespace,
    view: Callable[[Audited], AuditItemView],
) -> str:
    """The audit in format `fmt`, as -o would print it."""
    out = io_module.StringIO()
    _write(fmt, kept, run, args, out, view=view)
    return out.getvalue()


def _output_files(args: argparse.Namespace) -> list[tuple[str, str]]:
    """--output-file's (format, path) pairs, each checked: a format of -o, a
    path given, no path twice."""
    files: list[tuple[str, str]] = []
    seen: set[str] = set()
    for given in args.output_file:
        fmt, equals, path = given.partition("=")
        if not equals or fmt not in OUTPUT_FORMATS or not path:
            raise ModetableError(
                f"--output-file takes FORMAT=PATH, FORMAT one of {', '.join(OUTPUT_FORMATS)}: "
                f"not {given!r}"
            )
        if path == "-":
            raise ModetableError(
                f"--output-file names a file, not standard output (-o's): {given!r}"
            )
        if os.path.abspath(path) in seen:
            raise ModetableError(f"--output-file names {path!r} twice")
        seen.add(os.path.abspath(path))
        files.append((fmt, path))
    return files


def _warn_duplicates(cluster: Cluster, scope: NamespaceScope, io: Io) -> None:
    """The loader's warning about objects defined twice, of those that concern
    the namespace (`audit.scope.NamespaceScope`) alone."""
    from modetable.inputs.loading import duplicates_warning

    said = duplicates_warning([d for d in cluster.duplicates if scope.covers_manifest(d[1])])
    if said is not None:
        io.warn(said)


def _upgrade(args: argparse.Namespace, io: Io) -> int:
    from modetable.api.results import namespace_note
    from modetable.audit.output import write_upgrade
    from modetable.audit.progress import Progress
    from modetable.audit.scope import NamespaceScope
    from modetable.audit.upgrade import upgrade_impact
    from modetable.inputs.checks import check_fields
    from modetable.reports.finding import ObjectRef
    from modetable.views.converter import unstructure
    from modetable.views.upgrade import (
        ComparedRulesView,
        ImpactView,
        UpgradeSummaryView,
        UpgradeTrailerView,
        UpgradeView,
    )

    ruleset = load_rules(args, io)
    before = policy_at(ruleset, args.from_version, io)
    after = policy_at(ruleset, args.to_version or getattr(args, "ome_version", None), io)
    # The objects are the cluster's before the upgrade, made under `before`'s
    # webhooks (a runtime they deny never existed; one only `after`'s deny
    # stays, as webhooks do not judge stored objects again). The manifests are
    # those written for the version upgraded to: its CRD schema checks them
    # (one it refuses is left out, with a warning).
    cluster = load_cluster(
        before,
        args.manifests,
        io,
        warn_duplicates=args.namespace is None,
        live=args.live,
        schema_policy=after,
    )
    warn_refused(after, cluster, io, namespace=args.namespace)
    check_fields(after, cluster)
    scope = NamespaceScope(args.namespace)
    if args.namespace is not None:
        note = namespace_note(cluster, (), args.namespace)
        if note is not None:
            io.warn(note)
    count = sum(args.namespace in (None, m.namespace) for m in cluster.isvcs)
    progress = Progress(io.stderr, 2 * count, PROGRESS_LABEL)
    try:
        impacts = upgrade_impact(
            before,
            after,
            cluster,
            namespace=args.namespace,
            advance=progress.advance,
            # The runtimes that could be picked are what a namespace may use.
            candidates=scope.waits_for_use(
                ObjectRef.of(later) for _earlier, later in cluster.duplicates
            ),
        )
    finally:
        progress.close()
    if args.namespace is not None:
        for impact in impacts:
            scope.add(before, cluster, impact.before)
            scope.add(after, cluster, impact.after)
        _warn_duplicates(cluster, scope, io)
    trailer = UpgradeTrailerView(
        UpgradeSummaryView.of(before, after, impacts),
        ComparedRulesView.of(ruleset, before, after),
    )
    if args.output == "table":
        io.stdout.write(rules_note(ruleset))
        write_upgrade(before, after, impacts, io.stdout)
    elif args.output == HTML_FORMAT:
        from modetable.html.audit_page import upgrade_page

        listed = tuple(ImpactView.of(i) for i in impacts)
        io.stdout.write(upgrade_page(UpgradeView(listed, trailer)))
    else:
        _spooled(
            io.stdout,
            args.output,
            (unstructure(ImpactView.of(i)) for i in impacts),
            lambda: unstructure(trailer),
        )
    return 1 if trailer.summary.breaking else 0


def _spooled(
    out: TextIO, output: str, items: Iterator[dict[str, Any]], trailer: Callable[[], dict[str, Any]]
) -> None:
    """JSON or YAML written item by item into a spool (memory, then a temporary
    file past SPOOL_BYTES) that reaches stdout only once every item is made, so
    bad input met at a later item leaves stdout empty, not half a document."""
    from modetable.audit.output import WRITERS

    with tempfile.SpooledTemporaryFile(SPOOL_BYTES, "w+", encoding="utf-8") as spool:
        try:
            WRITERS[output](spool, items, trailer)
            spool.seek(0)
        except OSError as exc:  # the spool's file refused (a full disk, `ulimit -f`)
            raise ModetableError(
                f"cannot write to a temporary file in {tempfile.gettempdir()}: "
                f"{exc.strerror or exc}",
                code=ErrorCode.CANNOT_WRITE,
            ) from None
        shutil.copyfileobj(spool, out)


class _Sink(TextIOBase):
    """stdout and stderr under --quiet: everything written is dropped."""

    def write(self, text: str) -> int:
        return len(text)
