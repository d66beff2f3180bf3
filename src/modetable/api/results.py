"""What select, effective, admit, match and audit answer, as values.

Each result is frozen and holds the engine's answer; `view` is that answer as
the command shows it (`modetable.views`), and `to_json()` builds from it, on
every call, the document `modetable COMMAND -o json` prints. The command line
prints exactly that (and reads its tables from the same view), so the
commands and the Python API cannot drift. The builders here take the engine's types (a rules
`Policy`, a `manifests.Cluster`, a `Manifest`); `modetable/api/decide.py`
gives them the public ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from modetable.api.arguments import made_by, one_of
from modetable.engine.modes import Resolution
from modetable.engine.runtimes import InheritanceError, find_named_runtime, runtime_request
from modetable.errors import ModetableError
from modetable.inputs.manifests import Cluster, Manifest, Refused, Rejected
from modetable.rules.policy import Policy
from modetable.settled import frozen

if TYPE_CHECKING:
    # Each command imports only the engine it runs (a cold start is measured).
    from modetable.admission import Admission
    from modetable.audit.fleet import Audited
    from modetable.audit.report import Concerns
    from modetable.audit.triage import Ignore
    from modetable.engine.matching import RuntimeMatch
    from modetable.engine.running import Effective
    from modetable.inputs.baseline import Baseline, BaselineEntry
    from modetable.reports.finding import Finding, ObjectRef
    from modetable.selection import Candidate, Evaluator, Outcome
    from modetable.views.admit import AdmitView
    from modetable.views.audit import AuditItemView, AuditTrailerView, AuditView
    from modetable.views.effective import EffectiveView
    from modetable.views.match import MatchView
    from modetable.views.select import SelectView

__all__ = [
    "AdmitResult",
    "AuditItem",
    "AuditResult",
    "AuditRun",
    "EffectiveResult",
    "Later",
    "MatchResult",
    "SelectResult",
    "admit_result",
    "audit_result",
    "effective_result",
    "match_result",
    "namespace_note",
    "refused_result",
    "select_result",
]

# A result is made by the function that answers it, never by its caller.
_MAKER = "select, effective, admit, match or audit_cluster"


def _made(kind: str | type | tuple[type, ...]) -> Any:
    return made_by(kind, _MAKER)


@frozen(eq=False)
class _AboutOne:
    """What select, effective, admit and match answer about: the policy decided
    with and the InferenceService."""

    _policy: Policy = attrs.field(alias="policy", repr=False, validator=_made(Policy))
    _isvc: Manifest = attrs.field(alias="isvc", repr=False, validator=_made(Manifest))

    @property
    def isvc(self) -> str:
        """The InferenceService, `NAMESPACE/NAME`."""
        return self._isvc.ref

    @property
    def version(self) -> str:
        """The OME release asked for (`v1.3.1`)."""
        return self._policy.release


def _document(view: Any) -> dict[str, Any]:
    from modetable.views.converter import unstructure

    return unstructure(view)


# --- select ---------------------------------------------------------------------


class Later:
    """An outcome's candidates (every runtime of the namespace and cluster
    assessed: only the view shows them), found when the view is asked for by
    `make`, the outcome made again through an evaluator that assesses them
    (the Python API's `select`: the same outcome, candidates included, from
    the memo its Cluster keeps). Found anew each time: a result stays as it
    was made, and may be shared across threads. A copy or a pickle holds them
    found."""

    __slots__ = ("_candidates", "_make")

    def __init__(
        self,
        make: Callable[[], Outcome] | None = None,
        candidates: tuple[Candidate, ...] | None = None,
    ) -> None:
        self._make = make
        self._candidates = candidates

    def candidates(self) -> tuple[Candidate, ...]:
        if self._candidates is not None:
            return self._candidates
        assert self._make is not None
        return self._make().candidates

    def __reduce__(self) -> tuple[type[Later], tuple[None, tuple[Candidate, ...]]]:
        return (Later, (None, self.candidates()))


@frozen(eq=False)
class SelectResult(_AboutOne):
    """`modetable select`: the runtime OME uses for an InferenceService, or why
    none, with what admission, events and conditions show."""

    _outcome: Outcome = attrs.field(
        alias="outcome", repr=False, validator=_made("modetable.selection:Outcome")
    )
    # The candidates, assessed when the view is first asked for (None: the
    # outcome holds them).
    _later: Later | None = attrs.field(
        alias="later", default=None, repr=False, validator=_made((Later, type(None)))
    )

    @property
    def result(self) -> str:
        """The outcome's name in the rules: `picked`, `named`, `none`, `model_missing`..."""
        return self._outcome.result

    @property
    def runtime(self) -> str | None:
        """The name of the runtime OME uses, or None."""
        runtime = self._outcome.runtime
        return runtime.name if runtime is not None else None

    @property
    def named(self) -> bool:
        """Whether the InferenceService names that runtime (not auto-selected)."""
        return self._outcome.named

    @property
    def message(self) -> str | None:
        """Why there is no runtime, or what is wrong with the one named."""
        return self._outcome.message

    @property
    def virtual(self) -> bool:
        """Whether the InferenceService is virtual (VirtualDeployment): the
        controller resolves no runtime for it, and it needs none."""
        return not self._outcome.resolved

    @property
    def pending(self) -> bool:
        """Whether its model waits for OME's model agent: the outcome is what
        OME does once the model is filled in (`to_json()["pending"]` says what
        it lacks and what OME answers until then)."""
        return self._outcome.pending is not None

    @property
    def allowed(self) -> bool:
        """Whether admission lets the InferenceService in."""
        return self._outcome.admission.allowed

    @property
    def modes(self) -> dict[str, str | None]:
        """Each component's running mode."""
        return {name: r.mode for name, r in self._outcome.components.items()}

    @property
    def view(self) -> SelectView:
        """The answer as `modetable select` shows it."""
        from modetable.views.select import SelectView

        outcome = self._outcome
        if self._later is not None:
            outcome = attrs.evolve(outcome, candidates=self._later.candidates())
        return SelectView.of(self._policy, outcome)

    def to_json(self) -> dict[str, Any]:
        """What `modetable select -o json` prints (docs/json.md)."""
        return _document(self.view)


def select_result(
    policy: Policy,
    cluster: Cluster,
    isvc: Manifest,
    evaluator: Evaluator | None = None,
    later: Later | None = None,
) -> SelectResult:
    """`select`'s answer; through `evaluator` when given, which assesses every
    candidate unless `later` finds them (the outcome is the one every step
    run gives)."""
    from modetable.selection import select

    outcome = select(policy, cluster, isvc, evaluator)
    return SelectResult(policy=policy, isvc=isvc, outcome=outcome, later=later)


# --- effective ------------------------------------------------------------------


@frozen(eq=False)
class EffectiveResult(_AboutOne):
    """`modetable effective`: each component's running mode and the rule that set it."""

    _effective: Effective = attrs.field(
        alias="effective", repr=False, validator=_made("modetable.engine.running:Effective")
    )
    # The runtime was auto-selected (the InferenceService names none).
    selected: bool = attrs.field(default=False, validator=_made(bool))
    # Why no runtime is used, as select says it (None when one is, or when
    # none is named or picked for lack of the model in the manifests).
    message: str | None = attrs.field(default=None, validator=_made((str, type(None))))

    @property
    def runtime(self) -> str | None:
        """The name of the runtime whose configs are merged in, or None."""
        runtime = self._effective.runtime
        return runtime.name if runtime is not None else None

    @property
    def named(self) -> bool:
        """Whether the InferenceService names that runtime."""
        return self._effective.named

    @property
    def modes(self) -> dict[str, str | None]:
        """Each component's running mode."""
        return {name: r.mode for name, r in self._effective.components.items()}

    @property
    def reconcile(self) -> dict[str, str]:
        """Component → the error OME's reconciler would stop at."""
        return dict(self._effective.reconcile)

    @property
    def view(self) -> EffectiveView:
        """The answer as `modetable effective` shows it."""
        from modetable.views.effective import EffectiveView

        return EffectiveView.of(self._policy, self._isvc, self._effective, self.message)

    def to_json(self) -> dict[str, Any]:
        """What `modetable effective -o json` prints (docs/json.md)."""
        return _document(self.view)


def effective_result(
    policy: Policy,
    cluster: Cluster,
    isvc: Manifest,
    runtime: str | None = None,
    evaluator: Evaluator | None = None,
) -> EffectiveResult:
    """The running modes with the runtime the InferenceService names, else
    `runtime` (a name) when given, else the one OME would select (through
    `evaluator` when given)."""
    from modetable.engine.running import effective
    from modetable.selection import select
    from modetable.selection.checks import runtime_view
    from modetable.selection.outcome import disabled_refusal

    request = runtime_request(policy, isvc)
    named_runtime = find_named_runtime(policy, cluster, isvc, request) if request else None
    selected = False
    message = None
    if runtime is not None:
        used = _runtime_by_name(policy, cluster, isvc, runtime, named_runtime)
    else:
        # The runtime OME uses, as select finds it: the one it would select,
        # or the one named, but none where OME refuses it for what the
        # manifests show (`cause`: disabled, a model with no format), and none
        # for a virtual InferenceService, which needs none.
        outcome = select(policy, cluster, isvc, evaluator)
        used, message = outcome.runtime, outcome.message
        if outcome.resolved and request:
            if named_runtime is None:
                raise ModetableError(
                    f"InferenceService {isvc.ref} names runtime {request.name!r}, "
                    "which is not among the manifests",
                    request.location,
                )
            # A broken chain is the webhook's error, verbatim (exit 2).
            view = runtime_view(policy, cluster, named_runtime, named=True)
            if used is None and outcome.cause is None:
                # Selection stopped before the runtime (a model missing from
                # the manifests, which the cluster may hold): the runtime
                # named, unless OME refuses it whatever the model.
                refusal = disabled_refusal(policy, view)
                used, message = (None, refusal) if refusal else (named_runtime, None)
        selected = used is not None and request is None
    named = used is not None and used is named_runtime
    found = effective(policy, cluster, isvc, used, named)
    return EffectiveResult(
        policy=policy, isvc=isvc, effective=found, selected=selected, message=message
    )


def _runtime_by_name(
    policy: Policy, cluster: Cluster, isvc: Manifest, name: str, named: Manifest | None
) -> Manifest:
    from modetable.selection.scoring import scope_order

    if named is not None and named.name == name:
        return named
    found = [r for r in cluster.runtimes_for(isvc.namespace) if r.name == name]
    if not found:
        raise ModetableError(
            f"no runtime {name!r} for namespace {isvc.namespace} among the manifests"
        )
    # A namespace's own runtime comes before a cluster runtime of the same name.
    scope = scope_order(policy)
    found.sort(key=lambda r: scope(r.scope))
    return found[0]


# --- admit ----------------------------------------------------------------------


@frozen(eq=False)
class AdmitResult(_AboutOne):
    """`modetable admit`: the admission verdict, every check modetable models in
    OME's order (the same verdict as `select`'s)."""

    _admission: Admission = attrs.field(
        alias="admission", repr=False, validator=_made("modetable.admission:Admission")
    )
    _schema_findings: tuple[Finding, ...] = attrs.field(
        alias="schema_findings", default=(), repr=False, validator=_made(tuple)
    )

    @property
    def allowed(self) -> bool:
        """Whether the InferenceService is admitted."""
        return self._admission.allowed

    @property
    def message(self) -> str | None:
        """The denial as `kubectl apply` shows it, or None when allowed."""
        return self._admission.message

    @property
    def warnings(self) -> tuple[str, ...]:
        """The warnings `kubectl apply` shows, in order."""
        return self._admission.warnings

    @property
    def denied_by(self) -> str | None:
        """The id of the rules' admission check that denied, or None."""
        return self._admission.denied_by

    @property
    def warning_checks(self) -> tuple[str, ...]:
        """For each warning, at the same index, the id of the check that gave it."""
        return self._admission.warning_checks

    @property
    def checked(self) -> tuple[str, ...]:
        """The ids of the checks run, in order, up to the one that denied."""
        return self._admission.checked

    @property
    def not_checked(self) -> tuple[tuple[str, str], ...]:
        """(check id, why) of each check in force that could not be decided offline."""
        return tuple((n.check, n.why) for n in self._admission.not_checked)

    @property
    def schema_findings(self) -> tuple[Finding, ...]:
        """What the API server refuses in the InferenceService by OME's CRD
        schema, problem by problem (empty unless it is refused)."""
        return self._schema_findings

    @property
    def view(self) -> AdmitView:
        """The answer as `modetable admit` shows it."""
        from modetable.views.admit import AdmitView

        return AdmitView.of(self._policy, self._admission, self._schema_findings)

    def to_json(self) -> dict[str, Any]:
        """What `modetable admit -o json` prints (docs/json.md)."""
        return _document(self.view)


def admit_result(
    policy: Policy, cluster: Cluster, isvc: Manifest, evaluator: Evaluator | None = None
) -> AdmitResult:
    """The admission verdict select shows (through `evaluator` when given)."""
    from modetable.selection import select

    verdict = select(policy, cluster, isvc, evaluator).admission
    return AdmitResult(policy=policy, isvc=isvc, admission=verdict)


def refused_result(policy: Policy, cluster: Cluster, refused: Refused) -> AdmitResult:
    """The verdict on an InferenceService the API server refuses (OME's CRD
    schema): its denial, before any webhook, and each problem as a finding.
    Nothing else is decided: the object never exists."""
    from modetable.admission import admit
    from modetable.audit.findings import schema_findings

    # Checked on its own: the schema check runs, and denies, before any other.
    verdict = admit(policy, refused.manifest, Cluster((), (), ()))
    return AdmitResult(
        policy=policy,
        isvc=refused.manifest,
        admission=verdict,
        schema_findings=tuple(schema_findings(policy, refused)),
    )


# --- match ----------------------------------------------------------------------


@frozen
class _Matched:
    """One runtime against the InferenceService: its match, or its broken chain."""

    runtime: Manifest
    named: bool
    match: RuntimeMatch | None
    error: InheritanceError | None = None


@frozen(eq=False)
class MatchResult(_AboutOne):
    """`modetable match`: every runtime of the namespace and cluster against an
    InferenceService, on the mode rule alone."""

    _requested: dict[str, Resolution] = attrs.field(
        alias="requested", repr=False, validator=_made(dict)
    )
    _matched: tuple[_Matched, ...] = attrs.field(
        alias="matched", repr=False, validator=_made(tuple)
    )

    @property
    def passing(self) -> tuple[str, ...]:
        """The runtimes that pass, in the command's order."""
        return tuple(m.runtime.name for m in self._matched if m.match and m.match.passed)

    @property
    def ok(self) -> bool:
        """A runtime passes, and the named runtime's chain is not broken (OME's
        webhook rejects the InferenceService then, whatever the others do): the
        command's exit code 0."""
        return bool(self.passing) and not any(m.error for m in self._matched)

    @property
    def view(self) -> MatchView:
        """The answer as `modetable match` shows it."""
        from modetable.views.match import MatchedView, MatchView

        policy = self._policy
        runtimes = tuple(
            MatchedView.of(policy, m.runtime, m.named, m.match, m.error) for m in self._matched
        )
        return MatchView.of(policy, self._isvc, self._requested, runtimes)

    def to_json(self) -> dict[str, Any]:
        """What `modetable match -o json` prints (docs/json.md)."""
        return _document(self.view)


def match_result(
    policy: Policy, cluster: Cluster, isvc: Manifest, runtime: str | None = None
) -> MatchResult:
    """Every runtime of the namespace and cluster (namespaced first, then by
    name), or only those named `runtime`."""
    from modetable.engine.matching import match_runtime, requested_modes
    from modetable.selection.scoring import scope_order

    request = runtime_request(policy, isvc)
    named_runtime = find_named_runtime(policy, cluster, isvc, request) if request else None
    scope = scope_order(policy)
    candidates = sorted(
        cluster.runtimes_for(isvc.namespace), key=lambda r: (scope(r.scope), r.name)
    )
    if runtime is not None:
        candidates = [r for r in candidates if r.name == runtime]
        if not candidates:
            raise ModetableError(f"no runtime {runtime!r} for namespace {isvc.namespace}")
    requested = requested_modes(policy, isvc)
    matched = []
    for candidate in candidates:
        named = candidate is named_runtime
        try:
            found = match_runtime(policy, cluster, isvc, candidate, named, requested)
        except InheritanceError as exc:
            matched.append(_Matched(candidate, named, None, exc))
            continue
        matched.append(_Matched(candidate, named, found))
    return MatchResult(policy=policy, isvc=isvc, requested=requested, matched=tuple(matched))


# --- audit ----------------------------------------------------------------------


@frozen(eq=False)
class AuditItem:
    """One InferenceService of an audit: the outcome OME reaches, what is wrong
    with it, and the deprecated modes it runs in."""

    _audited: Audited = attrs.field(
        alias="audited", repr=False, validator=_made("modetable.audit.fleet:Audited")
    )
    _candidates: bool = attrs.field(
        alias="candidates", default=False, repr=False, validator=_made(bool)
    )

    @property
    def isvc(self) -> str:
        """The InferenceService, `NAMESPACE/NAME`."""
        return self._audited.isvc.ref

    @property
    def runtime(self) -> str | None:
        """The name of the runtime OME uses, or None."""
        runtime = self._audited.outcome.runtime
        return runtime.name if runtime is not None else None

    @property
    def problems(self) -> tuple[str, ...]:
        """What OME would refuse or fail at: `denied`, `no_runtime`, `run_failure`."""
        return self._audited.problems

    @property
    def severity(self) -> str | None:
        """The most severe finding's severity (`error`, `warning`, `info`), or None."""
        from modetable.reports.finding import worst

        return worst(self._audited.findings)

    @property
    def view(self) -> AuditItemView:
        """The item as `modetable audit` shows it."""
        from modetable.views.audit import AuditItemView

        return AuditItemView.of(self._audited, candidates=self._candidates)

    def to_json(self) -> dict[str, Any]:
        """The item as `modetable audit -o json` prints it in `items` (docs/json.md)."""
        return _document(self.view)


class AuditRun:
    """An audit under way: the InferenceServices one at a time, then the rest of
    the document. The command streams it; `audit_result` keeps it whole."""

    def __init__(
        self,
        policy: Policy,
        cluster: Cluster,
        rejected: Sequence[Rejected] = (),
        *,
        namespace: str | None = None,
        candidates: bool = False,
        concerns: Concerns | None = None,
        ignores: Sequence[Ignore] = (),
        baseline: Baseline | None = None,
    ) -> None:
        from modetable.audit.edges import runtime_edges
        from modetable.audit.findings import duplicate_finding, invalid_finding, schema_findings
        from modetable.audit.fleet import AuditSummary
        from modetable.audit.report import Concerns, audited_isvcs
        from modetable.audit.scope import NamespaceScope
        from modetable.audit.triage import Triage
        from modetable.reports.finding import ObjectRef

        self.policy = policy
        self.cluster = cluster
        self.candidates = candidates
        # What an audit `--within` a tree reports (everything by default).
        self.concerns = concerns if concerns is not None else Concerns([])
        concerned = self.concerns.location
        # What an audit of one namespace reports (audit/scope.py); a namespace
        # holding nothing is refused, one holding no InferenceService is `note`.
        self.scope = NamespaceScope(namespace)
        self.note = None if namespace is None else namespace_note(cluster, rejected, namespace)
        self.summary = AuditSummary(policy)
        # The exceptions (--ignore, the config's, the objects' annotations) and
        # the baseline, applied to every finding (audit/triage.py).
        self.baseline = baseline
        self._audited_refs: set[str] = set()
        self.triage = Triage(
            policy, cluster, ignores, baseline.entries if baseline is not None else None
        )
        found = [
            invalid_finding(policy, r.error, ObjectRef(r.kind, r.namespace, r.name))
            for r in rejected
            if concerned(r.error.location)
        ]
        # An object the API server refuses (OME's CRD schema), problem by problem.
        found += [
            finding
            for refused in cluster.refused
            if concerned(refused.manifest.location)
            for finding in schema_findings(policy, refused)
        ]
        found += [
            duplicate_finding(policy, earlier, later)
            for earlier, later in cluster.duplicates
            if concerned(later.location) or concerned(earlier.location)
        ]
        # The runtimes' mode values OME passes over (audit/edges.py), each runtime once.
        found += [
            finding
            for runtime in cluster.runtimes
            for finding in runtime_edges(policy, cluster, runtime)
            if concerned(finding.location)
        ]
        # A cluster-scoped object's findings wait until the namespace's use of
        # it is known: every InferenceService audited, with its candidates.
        self._waiting = self.scope.waits_for_use(f.object for f in found)
        self._manifest_findings = found
        if not self._waiting:
            self._add_manifest_findings()
        self.isvcs = audited_isvcs(cluster, namespace)

    def _add_manifest_findings(self) -> None:
        covers = self.scope.covers
        kept = [f for f in self._manifest_findings if covers(f.object)]
        self.summary.add_manifest_findings(self.triage.sort(kept, None))
        self._manifest_findings = []

    def audited(self, advance: Callable[[], None] | None = None) -> Iterator[Audited]:
        """Each InferenceService audited (sorted by namespace, then name), counted
        in the summary as it comes."""
        from modetable.audit.fleet import audit_fleet

        for audited in audit_fleet(
            self.policy,
            self.cluster,
            # The runtimes that could be picked are what a namespace may use.
            candidates=self.candidates or self._waiting,
            advance=advance,
            isvcs=self.isvcs,
        ):
            self.scope.add(self.policy, self.cluster, audited)
            if self.concerns.item(audited):
                self._audited_refs.add(audited.isvc.ref)
                audited = audited.sorted_as(self.triage.sort(audited.findings, audited.isvc))
                self.summary.add(audited)
                yield audited
        if self._waiting:
            self._waiting = False
            self._add_manifest_findings()
        if self.baseline is not None:
            self.summary.fixed = len(self.fixed_entries())

    def item(self, audited: Audited) -> AuditItem:
        return AuditItem(audited=audited, candidates=self.candidates)

    def trailer(self) -> AuditTrailerView:
        """What follows `items` in the JSON: the manifests' findings, the
        summary, the rules (asked for once every item is made)."""
        from modetable.views.audit import AuditTrailerView, BaselineView

        if self._waiting:
            raise RuntimeError("an audit's trailer is asked for before its last item")
        baseline = None
        if self.baseline is not None:
            baseline = BaselineView.of(self.baseline.file, self.fixed_entries())
        return AuditTrailerView.of(self.policy, self.summary, self.unused_suppressions(), baseline)

    def fixed_entries(self) -> list[BaselineEntry]:
        """The baseline's entries no finding met, of what the audit covers
        (all of them in a full audit; see `outside_entries`)."""
        return self._unmet()[0]

    def outside_entries(self) -> list[BaselineEntry]:
        """The baseline's entries no finding met, about what an audit with `-n`
        or `--within` leaves out: neither known nor fixed, kept when the
        baseline is written again."""
        return self._unmet()[1]

    def _unmet(self) -> tuple[list[BaselineEntry], list[BaselineEntry]]:
        fixed: list[BaselineEntry] = []
        outside: list[BaselineEntry] = []
        for entry in self.triage.fixed():
            (fixed if self._covers_entry(entry) else outside).append(entry)
        return fixed, outside

    def _covers_entry(self, entry: BaselineEntry) -> bool:
        """Whether a baseline entry is about what this audit covers: an
        InferenceService of `-n`'s namespace, one `--within` audited; a
        finding about the manifests, of an object of the namespace (not with
        `--within`, which cannot tell)."""
        from modetable.reports.finding import ObjectRef

        if entry.subject:
            namespace = entry.subject.partition("/")[0]
            if not self.scope.everything and namespace != self.scope.namespace:
                return False
            return self.concerns.everything or entry.subject in self._audited_refs
        if not self.concerns.everything:
            return False
        kind, _, ref = entry.object.partition(" ")
        namespace, _, name = ref.rpartition("/")
        if not kind or not name:
            return self.scope.everything
        return self.scope.covers(ObjectRef(kind, namespace or None, name))

    def unused_suppressions(self) -> list[Ignore]:
        """The exceptions that suppressed nothing: an annotation's, of an object
        the audit covers; `--ignore`'s and the config's only when the audit
        covers everything (with `-n` or `--within`, they may be about what it
        leaves out)."""
        cluster = self.cluster
        partial = not (self.scope.everything and self.concerns.everything)

        def covers(holder: ObjectRef) -> bool:
            found = cluster.get(holder.kind or "", holder.name or "", holder.namespace)
            return self.scope.covers(holder) and (
                found is None or self.concerns.location(found.location)
            )

        unused = self.triage.unused(covers)
        if partial:
            return [i for i in unused if i.holder is not None]
        return unused


@frozen(eq=False)
class AuditResult:
    """`modetable audit`: every InferenceService audited, and the summary."""

    items: tuple[AuditItem, ...] = attrs.field(validator=_made(tuple))
    _trailer: AuditTrailerView = attrs.field(
        alias="trailer", repr=False, validator=_made("modetable.views.audit:AuditTrailerView")
    )
    _failing: frozenset[str] = attrs.field(alias="failing", repr=False, validator=_made(frozenset))

    @property
    def summary(self) -> dict[str, Any]:
        """The counts (`summary` of the JSON)."""
        return _document(self._trailer.summary)

    def fails(self, severity: str | None = "error") -> bool:
        """Whether a finding is `severity` or more severe (`error`, `warning`,
        `info`; None: never): the command's exit code 1 under `--fail-on`."""
        from modetable.reports.finding import SEVERITIES

        return one_of("severity", severity, SEVERITIES) in self._failing

    @property
    def view(self) -> AuditView:
        """The audit as `modetable audit` shows it."""
        from modetable.views.audit import AuditView

        return AuditView(tuple(item.view for item in self.items), self._trailer)

    def to_json(self) -> dict[str, Any]:
        """What `modetable audit -o json` prints (docs/json.md)."""
        return _document(self.view)


def audit_result(
    policy: Policy,
    cluster: Cluster,
    rejected: Sequence[Rejected] = (),
    *,
    namespace: str | None = None,
    candidates: bool = False,
    ignore: Sequence[str] = (),
    baseline: Baseline | None = None,
) -> AuditResult:
    import warnings

    from modetable.audit.triage import BY_OPTION, Ignore
    from modetable.errors import ModetableWarning
    from modetable.reports.finding import SEVERITIES

    run = AuditRun(
        policy,
        cluster,
        rejected,
        namespace=namespace,
        candidates=candidates,
        ignores=[Ignore(glob, BY_OPTION) for glob in ignore],
        baseline=baseline,
    )
    if run.note is not None:
        # stacklevel 3: the caller of audit_cluster.
        warnings.warn(run.note, ModetableWarning, stacklevel=3)
    items = tuple(run.item(audited) for audited in run.audited())
    for unused in run.unused_suppressions():
        warnings.warn(f"{unused}: suppresses no finding", ModetableWarning, stacklevel=3)
    failing = frozenset(s for s in SEVERITIES if run.summary.fails(s))
    return AuditResult(items=items, trailer=run.trailer(), failing=failing)


def namespace_note(cluster: Cluster, rejected: Sequence[Rejected], namespace: str) -> str | None:
    """What an audit of `namespace` says before it starts: a namespace no object
    of the manifests is in is refused (a misspelled `-n` would pass a CI gate
    forever, finding nothing); one with objects but no InferenceService is
    audited, with this warning (as kubectl says "No resources found")."""
    from modetable.audit.scope import namespaces_of
    from modetable.selection.outcome import did_you_mean

    present = namespaces_of(cluster, rejected)
    if namespace not in present:
        hint = did_you_mean(namespace, present)
        found = f" ({hint})" if hint else ""
        raise ModetableError(f"no object of namespace {namespace!r} among the manifests{found}")
    if any(m.namespace == namespace for m in cluster.isvcs):
        return None
    hint = did_you_mean(namespace, [m.namespace for m in cluster.isvcs if m.namespace])
    found = f" ({hint})" if hint else ""
    return f"no InferenceService of namespace {namespace!r} among the manifests{found}"
