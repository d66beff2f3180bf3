"""`select`, `effective`, `admit`, `match` and `audit_cluster`: the commands'
answers for Python callers, each the very result the command prints
(`modetable/api/results.py`).

A `Policy` and a `Cluster`'s objects are immutable, so any number of threads
may decide at once with the same ones. `select` keeps what it decides with the
`Cluster` (`cluster.kept_evaluator`: each selection step's result per what it
reads, as one `audit_cluster()` keeps them), and so do `effective` and
`admit`, which select too: selecting for each of a cluster's InferenceServices
in turn costs about what auditing them does, and the answers are those of
every step run. Threads deciding on one Cluster take turns at its memo.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from modetable.api import results
from modetable.api.arguments import flag, name, path, typed, wrong_type
from modetable.api.cluster import Cluster, engine_cluster, kept_evaluator, rejected_objects
from modetable.api.rules import Policy, engine_policy
from modetable.errors import Location, ModetableError
from modetable.inputs import loading, manifests
from modetable.rules import policy as rules_policy

if TYPE_CHECKING:
    from modetable.selection import Outcome

__all__ = ["IsvcRef", "admit", "audit_cluster", "effective", "match", "select"]

IsvcRef = str | Mapping[str, Any]
"""An InferenceService: `NAMESPACE/NAME` (or `NAME` when it is the only one of
that name) among the cluster's, or the object itself (a dict, as
`json.load` or the Kubernetes client gives it: one not in the cluster, such
as the object of an admission request)."""

# Where an InferenceService given as an object stood, in error messages.
_GIVEN = "the isvc argument"


def select(
    policy: Policy, cluster: Cluster, isvc: IsvcRef
) -> results.SelectResult | results.AdmitResult:
    """The runtime OME uses for `isvc` among the cluster's runtimes and models,
    or why none; what admission, events and conditions show; each component's
    running mode. `to_json()` is `modetable select -o json`. For an
    InferenceService the API server refuses by OME's CRD schema, the denial
    the command prints: an `AdmitResult` (as `admit` answers)."""
    found, objects, target = _inputs(policy, cluster, isvc)
    if isinstance(target, manifests.Refused):
        return results.refused_result(found, objects, target)
    later = results.Later(_with_candidates(cluster, found, objects, target))
    with kept_evaluator(cluster, found, candidates=False) as evaluator:
        return results.select_result(found, objects, target, evaluator, later)


def _with_candidates(
    cluster: Cluster,
    policy: rules_policy.Policy,
    objects: manifests.Cluster,
    isvc: manifests.Manifest,
) -> Callable[[], Outcome]:
    """`select`'s outcome with every candidate assessed, made when asked for,
    through what `cluster` keeps; once the Cluster is gone, with every step
    run (a result does not keep the Cluster alive)."""
    held = weakref.ref(cluster)

    def make() -> Outcome:
        from modetable.selection import select

        public = held()
        if public is None:
            return select(policy, objects, isvc)
        with kept_evaluator(public, policy, candidates=True) as evaluator:
            return select(policy, objects, isvc, evaluator)

    return make


def effective(
    policy: Policy, cluster: Cluster, isvc: IsvcRef, *, runtime: str | None = None
) -> results.EffectiveResult | results.AdmitResult:
    """Each component's running mode and the rule that set it, with the runtime
    `isvc` names, else `runtime` (as `--runtime NAME`), else the one OME would
    select. `to_json()` is `modetable effective -o json`. For an
    InferenceService the API server refuses by OME's CRD schema, the denial
    the command prints: an `AdmitResult` (as `admit` answers)."""
    found, objects, target = _inputs(policy, cluster, isvc)
    named = name("runtime", runtime)
    if isinstance(target, manifests.Refused):
        return results.refused_result(found, objects, target)
    with kept_evaluator(cluster, found, candidates=False) as evaluator:
        return results.effective_result(found, objects, target, named, evaluator)


def admit(policy: Policy, cluster: Cluster, isvc: IsvcRef) -> results.AdmitResult:
    """The admission verdict on `isvc`: every check modetable models, in OME's
    order (the verdict `select` shows; for one the API server refuses by OME's
    CRD schema, its denial and `schema_findings`). `to_json()` is `modetable
    admit -o json`."""
    found, objects, target = _inputs(policy, cluster, isvc)
    if isinstance(target, manifests.Refused):
        return results.refused_result(found, objects, target)
    with kept_evaluator(cluster, found, candidates=False) as evaluator:
        return results.admit_result(found, objects, target, evaluator)


def match(
    policy: Policy, cluster: Cluster, isvc: IsvcRef, *, runtime: str | None = None
) -> results.MatchResult | results.AdmitResult:
    """Every runtime of `isvc`'s namespace and of the cluster against it on the
    mode rule alone (only those named `runtime`, when given). `to_json()` is
    `modetable match -o json`. For an InferenceService the API server
    refuses by OME's CRD schema, the denial the command prints: an
    `AdmitResult` (as `admit` answers)."""
    found, objects, target = _inputs(policy, cluster, isvc)
    named = name("runtime", runtime)
    if isinstance(target, manifests.Refused):
        return results.refused_result(found, objects, target)
    return results.match_result(found, objects, target, named)


def audit_cluster(
    policy: Policy,
    cluster: Cluster,
    *,
    namespace: str | None = None,
    candidates: bool = False,
    ignore: Sequence[str] = (),
    baseline: str | os.PathLike[str] | None = None,
) -> results.AuditResult:
    """Every InferenceService of the cluster (only `namespace`'s, when given),
    sorted by namespace then name: its outcome, problems, deprecations and
    findings, with the summary. With `namespace`, the manifests' findings are
    those about its objects and the cluster-scoped objects its InferenceServices
    use (docs/commands.md); a namespace no object is in is a `ModetableError`,
    one with no InferenceService a `ModetableWarning`. `candidates` lists every
    candidate runtime in each item (slow on a large fleet). `ignore` suppresses
    the findings whose id matches one of its globs, `baseline` names a baseline
    file whose findings are known; an exception that suppresses nothing is a
    `ModetableWarning`. `to_json()` is `modetable audit -o json` (`-n
    NAMESPACE`, `--candidates`, `--ignore ID`, `--baseline FILE`)."""
    from modetable.inputs.baseline import read_baseline

    if isinstance(ignore, str | bytes) or not isinstance(ignore, Sequence):
        raise wrong_type("ignore", "a sequence of str (finding id globs)", ignore)
    globs = [typed(f"ignore[{i}]", each, str, "a str") for i, each in enumerate(ignore)]
    for i, glob in enumerate(globs):
        if not glob.strip():
            raise ModetableError(f"ignore[{i}] is empty")
    found = engine_policy(policy)
    objects = engine_cluster(cluster, found)
    return results.audit_result(
        found,
        objects,
        rejected_objects(cluster),
        namespace=name("namespace", namespace),
        candidates=flag("candidates", candidates),
        ignore=globs,
        baseline=read_baseline(path("baseline", baseline)) if baseline is not None else None,
    )


def _inputs(
    policy: Policy, cluster: Cluster, isvc: IsvcRef
) -> tuple[rules_policy.Policy, manifests.Cluster, manifests.Manifest | manifests.Refused]:
    found = engine_policy(policy)
    objects = engine_cluster(cluster, found)
    if isinstance(isvc, str):
        ref = name("isvc", isvc)
        return found, objects, objects.refused_isvc(ref) or objects.find_isvc(ref)
    if isinstance(isvc, Mapping):
        return found, objects, _given(found, isvc)
    raise wrong_type("isvc", "NAMESPACE/NAME or the object (a mapping)", isvc)


def _given(
    policy: rules_policy.Policy, isvc: Mapping[str, Any]
) -> manifests.Manifest | manifests.Refused:
    """An InferenceService given as an object, read and checked as the cluster's are."""
    single = loading.load_objects(policy, [(_GIVEN, isvc)])
    if len(single.isvcs) == 1 and not single.runtimes and not single.models:
        return single.isvcs[0]
    if len(single.refused) == 1 and single.refused[0].role == "isvc" and not single.read - 1:
        return single.refused[0]
    kind = policy.rules.manifests.inference_service
    given = isvc.get("kind")
    shown = (
        f"a {given}" if isinstance(given, str) and given else "no object of a kind modetable reads"
    )
    raise ModetableError(f"isvc must be an {kind}, got {shown}", Location(_GIVEN))
