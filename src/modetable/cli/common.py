"""What the commands share: streams, the common options, and loading inputs."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from modetable.cli.streams import Io
from modetable.errors import ErrorCode, Location, ModetableError
from modetable.inputs.manifests import Cluster, Manifest, Refused, Rejected
from modetable.inputs.sources import same_file
from modetable.output.render import FORMATS
from modetable.parsing.yamlio import collector_paused, path_problem
from modetable.rules.policy import Policy, RuleSet, load_ruleset
from modetable.text.shown import escape

if TYPE_CHECKING:
    from modetable.views.common import AdmissionView
    from modetable.views.effective import EffectiveView
    from modetable.views.select import SelectView

__all__ = [
    "CI_FORMATS",
    "HTML_FORMAT",
    "add_isvc_inputs",
    "add_manifests",
    "add_namespaces",
    "add_output",
    "add_verbose",
    "admission_lines",
    "answer_isvc",
    "components_table",
    "covered",
    "deny_refused",
    "isvc_and_cluster",
    "load_cluster",
    "load_cluster_leniently",
    "load_policy",
    "load_rules",
    "policy_at",
    "rules_note",
    "set_help",
    "warn_refused",
    "with_namespace",
]

# The formats CI reads (modetable.reports.FORMATS), for commands whose answer is findings.
CI_FORMATS = ("github", "junit", "sarif", "markdown")

# A self-contained page (modetable.html), for commands that offer one.
HTML_FORMAT = "html"


def add_output(parser: argparse.ArgumentParser, *, ci: bool = False, html: bool = False) -> None:
    """-o: `ci` adds the formats CI reads, `html` a page that opens from disk."""
    choices = (*FORMATS, *(CI_FORMATS if ci else ()), *((HTML_FORMAT,) if html else ()))
    parser.add_argument(
        "-o", "--output", choices=choices, default="table", help="output format (default: table)"
    )


def add_verbose(parser: argparse.ArgumentParser, what: str) -> None:
    """-v: the table in full (`what` it adds)."""
    parser.add_argument("-v", "--verbose", action="store_true", help=what)


def add_namespaces(parser: argparse.ArgumentParser, namespace_help: str) -> None:
    """kubectl's -n NAMESPACE and -A (every namespace, modetable's default)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("-n", "--namespace", metavar="NAMESPACE", help=namespace_help)
    group.add_argument(
        "-A",
        "--all-namespaces",
        action="store_true",
        help="every namespace (the default when -n is not given)",
    )


def set_help(parser: argparse.ArgumentParser, option: str, text: str) -> None:
    """Say what an option inherited from the global ones means for this command."""
    for action in parser._actions:
        if option in action.option_strings:
            action.help = text


def add_isvc_inputs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--isvc",
        required=True,
        metavar="REF",
        help="the InferenceService: NAME or NAMESPACE/NAME, or a file holding one",
    )
    add_manifests(parser)
    add_output(parser)
    add_namespaces(parser, "the InferenceService's namespace (--isvc NAME -n NAMESPACE)")


def add_manifests(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "manifests",
        nargs="*",
        metavar="MANIFESTS",
        help="YAML files or folders (read recursively); - reads standard input",
    )
    parser.add_argument(
        "--live",
        action="append",
        default=[],
        metavar="PATH",
        help="objects as the cluster holds them (kubectl get clusterbasemodels,basemodels,"
        "clusterservingruntimes,servingruntimes,inferenceservices -A -o yaml): a file, "
        "folder or - (repeatable); an object also in MANIFESTS takes its status and the "
        "fields OME fills in from here",
    )


def load_rules(args: argparse.Namespace, io: Io) -> RuleSet:
    """The rules file every command reads (`rules/find.py`: --rules, $MODETABLE_RULES,
    ./rules/modes.yaml, the bundled copy); a rules cache refused is a warning."""
    return load_ruleset(getattr(args, "rules", None), warn=io.warn)


def load_policy(args: argparse.Namespace, io: Io, version: str | None = None) -> Policy:
    """The rules in force in the release asked (`version`, else --ome-version, else
    $MODETABLE_OME_VERSION, else the file's default); a release newer than the rules
    describe is answered with the newest rules and one warning."""
    return policy_at(load_rules(args, io), version or getattr(args, "ome_version", None), io)


def policy_at(rules: RuleSet, version: str | None, io: Io) -> Policy:
    """`rules.at(version)`, its warning (if any) written once."""
    found = rules.at(version)
    if found.warning:
        io.warn(found.warning)
    return found


def rules_note(policy: Policy | RuleSet) -> str:
    """The line a table output begins with when the rules file read does not
    hold the bundled rules ("" when it does, wherever it is)."""
    if policy.bundled:
        return ""
    line = f" ({policy.version} rules)" if isinstance(policy, Policy) else ""
    return f"rules: {escape(policy.file)}{line}\n"


def _stdin_bytes(io: Io) -> Any:
    from modetable.inputs.loading import stdin_bytes

    return stdin_bytes(io.stdin)


def load_cluster(
    policy: Policy,
    manifests: list[str],
    io: Io,
    extra: list[str] = (),
    *,
    warn_duplicates: bool = True,
    live: list[str] = (),
    schema_policy: Policy | None = None,
) -> Cluster:
    """The objects of `manifests` (and of `extra` files) through the one loader
    (`modetable.inputs.loading`), joined to the `live` dumps (`--live`),
    duplicates warned about (unless `warn_duplicates` is False: the caller
    says those that concern it); `schema_policy`, the rules whose CRD schema
    checks them, when not `policy`."""
    from modetable.inputs.loading import load_paths

    # A file also reached through `manifests` is read once, where they reach it.
    inputs = [*manifests, *extra]
    stdin = _stdin_bytes(io) if "-" in inputs or "-" in live else None
    with _kept_for_the_run():
        return load_paths(
            policy,
            inputs,
            stdin,
            warn=io.warn,
            warn_duplicates=warn_duplicates,
            live=live,
            schema_policy=schema_policy,
        )


def load_cluster_leniently(
    policy: Policy,
    manifests: list[str],
    io: Io,
    *,
    warn_duplicates: bool = True,
    live: list[str] = (),
) -> tuple[Cluster, list[Rejected]]:
    """As `load_cluster`, but an object that does not read (the API server would
    refuse it), or a file that is not YAML, is left out and returned, so the
    audit goes on with the rest (a live dump is read strictly)."""
    from modetable.inputs.loading import load_paths

    stdin = _stdin_bytes(io) if "-" in manifests or "-" in live else None
    rejected: list[Rejected] = []
    with _kept_for_the_run():
        cluster = load_paths(
            policy,
            manifests,
            stdin,
            warn=io.warn,
            rejected=rejected,
            warn_duplicates=warn_duplicates,
            live=live,
        )
    return cluster, rejected


@contextlib.contextmanager
def _kept_for_the_run() -> Iterator[None]:
    """Loading builds every object of the inputs, and they live until the command
    ends: Python's cyclic collector would walk them again and again, while they
    are built (some 15 % of parsing) and at every full collection after (a tenth
    of a select against 1,000 runtimes). They are built with it paused, then
    frozen out of its sight (`gc.freeze`); `cli.main` thaws them at the end."""
    with collector_paused():
        yield
    gc.freeze()


def covered(file: str, manifests: list[str]) -> bool:
    """Whether reading `manifests` already reads `file`."""
    # realpath, not Path.resolve: a symbolic link loop is no error here.
    target = Path(os.path.realpath(file))
    for argument in manifests:
        if argument == "-":
            continue
        path = Path(os.path.realpath(argument))
        if path == target or (path.is_dir() and path in target.parents):
            return True
    return False


def with_namespace(ref: str, namespace: str | None) -> str:
    """`NAME -n NAMESPACE` as `NAMESPACE/NAME`; a namespace said twice must agree."""
    if namespace is None:
        return ref
    if os.path.isfile(ref):
        raise ModetableError(f"-n applies to a NAME, not to the file {ref!r}")
    given, _, name = ref.rpartition("/")
    if given and given != namespace:
        raise ModetableError(f"--isvc {ref!r} and -n {namespace!r} name different namespaces")
    return f"{namespace}/{name}"


def isvc_and_cluster(
    policy: Policy, args: argparse.Namespace, io: Io
) -> tuple[Manifest | Refused, Cluster]:
    """The InferenceService `--isvc` names (in the namespace `-n` names), or
    its refusal when the API server refuses it (OME's CRD schema: the command
    answers with `deny_refused`), and every object read. Every other object
    the API server refuses is a warning (it is left out of the cluster)."""
    isvc, cluster = _isvc_and_cluster(policy, args, io)
    warn_refused(policy, cluster, io, isvc)
    return isvc, cluster


def warn_refused(
    policy: Policy,
    cluster: Cluster,
    io: Io,
    asked: object = None,
    namespace: str | None = None,
) -> None:
    """One warning about the objects the API server refuses, other than `asked`
    (left out of the cluster): the first, with a count of the rest; with
    `namespace`, those of that namespace alone."""
    others = [
        r for r in cluster.refused if r is not asked and namespace in (None, r.manifest.namespace)
    ]
    if not others:
        return
    first = others[0].manifest
    said = policy.message(
        "schema_left_out",
        kind=first.kind,
        name=first.ref,
        at=first.location,
        message=others[0].server,
    )
    more = len(others) - 1
    io.warn(said + (f" (and {more} more: `modetable audit` lists each)" if more else ""))


def deny_refused(policy: Policy, args: argparse.Namespace, io: Io, refused: Refused) -> int:
    """The answer of admit, select, effective, explain and match about an
    InferenceService the API server refuses: its denial, before any webhook
    (`-o json`: admit's document), exit 1."""
    from modetable.api.results import refused_result
    from modetable.output.render import dump, line

    verdict = refused_result(policy, Cluster((), (), ()), refused)
    if args.output != "table":
        dump(verdict.to_json(), args.output, io.stdout)
        return 1
    io.stdout.write(rules_note(policy))
    denied = line(f"InferenceService {refused.manifest.ref}: denied")
    # kubectl prints several problems one per line.
    said = "".join(line(part) for part in (verdict.message or "").split("\n"))
    io.stdout.write(denied + said)
    return 1


class _Answer(Protocol):
    @property
    def view(self) -> object: ...


_A = TypeVar("_A", bound=_Answer)


def answer_isvc(
    args: argparse.Namespace,
    io: Io,
    *,
    decide: Callable[[Policy, Cluster, Manifest], _A],
    write_table: Callable[[Policy, Manifest, _A], None],
    exit_code: Callable[[_A], int],
) -> int:
    """The run of a command that answers about the one InferenceService `--isvc`
    names (select, match, effective, admit): its answer decided, written as its
    view's document (`-o json`, `-o yaml`) or, after the rules' note, as the
    command's table; one the API server refuses is denied (`deny_refused`)."""
    policy = load_policy(args, io)
    isvc, cluster = isvc_and_cluster(policy, args, io)
    if isinstance(isvc, Refused):
        return deny_refused(policy, args, io, isvc)
    answer = decide(policy, cluster, isvc)
    if args.output != "table":
        from modetable.output.render import dump
        from modetable.views.document import document

        dump(document(answer.view), args.output, io.stdout)
    else:
        io.stdout.write(rules_note(policy))
        write_table(policy, isvc, answer)
    return exit_code(answer)


def _isvc_and_cluster(
    policy: Policy, args: argparse.Namespace, io: Io
) -> tuple[Manifest | Refused, Cluster]:
    ref: str = with_namespace(args.isvc, getattr(args, "namespace", None))
    if os.path.islink(ref) and not os.path.exists(ref):
        raise ModetableError(
            path_problem(ref) or "no such file or directory",
            Location(ref),
            code=ErrorCode.CANNOT_READ,
        )
    if os.path.isfile(ref):
        cluster = load_cluster(policy, args.manifests, io, extra=[ref], live=args.live)
        # The file's InferenceServices, each as the cluster holds it: a later copy
        # elsewhere (a duplicate) stands for the one in the file.
        target = same_file(ref)
        kind = policy.rules.manifests.inference_service
        held = [
            *cluster.isvcs,
            *(early for early, _ in cluster.duplicates),
            *(r.manifest for r in cluster.refused if r.role == "isvc"),
        ]
        refs = {
            m.ref: None for m in held if m.kind == kind and same_file(m.location.file) == target
        }
        if len(refs) != 1:
            count = "no InferenceService" if not refs else f"{len(refs)} InferenceServices"
            raise ModetableError(
                f"--isvc file holds {count}; name one with NAMESPACE/NAME", Location(ref)
            )
        return _find_isvc(cluster, next(iter(refs))), cluster
    cluster = load_cluster(policy, args.manifests, io, live=args.live)
    return _find_isvc(cluster, ref), cluster


def _find_isvc(cluster: Cluster, ref: str) -> Manifest | Refused:
    return cluster.refused_isvc(ref) or cluster.find_isvc(ref)


def admission_lines(policy: Policy, admission: AdmissionView, *, verbose: bool) -> list[str]:
    """What a table says after the verdict: when allowed, by which checks (with
    `verbose`, and what is not modelled; else one line pointing at -v); then
    each check not decided, and why."""
    lines = []
    if admission.allowed:
        scope = "admission_scope" if verbose else "admission_scope_brief"
        lines.append(policy.message(scope, count=len(admission.checked)))
    lines.extend(
        policy.message("admission_not_checked", check=n.check, why=n.why)
        for n in admission.not_checked
    )
    return lines


def components_table(view: SelectView | EffectiveView) -> str:
    """The COMPONENT / MODE (/ RUN-TIME ERROR) table of select's and effective's
    answer: a failure is shown as OME's manager logs it, when the rules say how."""
    from modetable.engine.running import logged
    from modetable.output.render import table

    reconcile, logs = view.reconcile, view.reconcile_logs
    rows = [
        [
            name,
            f"{component.mode} ({component.source})",
            logged(reconcile[name], logs.get(name)) if name in reconcile else "",
        ]
        for name, component in view.components.items()
    ]
    headers = ["COMPONENT", "MODE", "RUN-TIME ERROR"] if reconcile else ["COMPONENT", "MODE"]
    return table(headers, [row[: len(headers)] for row in rows])
