"""`Cluster`: the objects decisions are made about, read from files or given
in memory, as the Python API gives them."""

from __future__ import annotations

import os
import sys
import threading
import warnings
import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import attrs

from modetable.api.arguments import flag, made_by, wrong_type
from modetable.api.arguments import path as path_argument
from modetable.api.rules import Policy, Rules, engine_policy, engine_ruleset, load_rules
from modetable.errors import ModetableError, ModetableWarning
from modetable.inputs import loading, manifests
from modetable.rules import policy as rules_policy
from modetable.rules.model import RuleFile
from modetable.settled import frozen

if TYPE_CHECKING:
    from modetable.selection import Evaluator

__all__ = ["Cluster", "engine_cluster", "kept_evaluator", "rejected_objects"]

_MAKERS = "Cluster.from_paths or Cluster.from_objects"

# The policies whose evaluators a Cluster keeps at once (the oldest let go).
_POLICIES_KEPT = 4


class _Kept:
    """What deciding about one Cluster keeps between calls: for each policy it
    was decided with (the last few), the fleet's evaluator, whose strategy
    (`selection.memo.Memoised`) keeps each step's result per what the step
    reads, the runtimes' views and the indexes, as one `audit_cluster()` keeps
    them for its InferenceServices. Its memo is filled as it is used, and
    not by two threads at once: one call at a time holds `lock` while it
    decides with it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._evaluators: dict[
            tuple[Any, ...], tuple[rules_policy.Policy, Evaluator, Evaluator]
        ] = {}

    def evaluator(
        self, policy: rules_policy.Policy, cluster: manifests.Cluster, candidates: bool
    ) -> Evaluator:
        """The evaluator for `policy` (held under `lock`), assessing every
        candidate or not: the two share one memo. One policy equal to another
        (the same rules, version and release) decides as it does."""
        # The rules by identity: comparing two rules files would cost more than
        # the decision it saves (the cluster was read with these rules).
        key = tuple(
            id(value) if field.name == "rules" else value
            for field in attrs.fields(type(policy))
            for value in (getattr(policy, field.name),)
        )
        found = self._evaluators.pop(key, None)
        if found is None or found[0].rules is not policy.rules:
            from modetable.selection import Evaluator, Memoised

            strategy = Memoised(policy, cluster)
            found = (
                policy,
                Evaluator(policy, cluster, strategy, candidates=False),
                Evaluator(policy, cluster, strategy, candidates=True),
            )
        self._evaluators[key] = found  # the most recently used last
        while len(self._evaluators) > _POLICIES_KEPT:
            del self._evaluators[next(iter(self._evaluators))]
        return found[2] if candidates else found[1]


@frozen(eq=False)
class Cluster:
    """InferenceServices, runtimes and models, read once and checked: every
    object's shape and every field the rules read, as the commands check them.

    Made by `Cluster.from_paths` or `Cluster.from_objects`. Its objects are
    immutable, and it is safe to share across threads; modetable keeps its own
    copy of every object. What `select` decides about them is kept as long as
    the Cluster lives, so that the next call need not decide it again
    (`kept_evaluator`).
    """

    _cluster: manifests.Cluster = attrs.field(
        alias="cluster", repr=False, validator=made_by(manifests.Cluster, _MAKERS)
    )
    # The rules file the objects were read and checked with.
    _rules: RuleFile = attrs.field(alias="rules", repr=False, validator=made_by(RuleFile, _MAKERS))
    _rules_file: str = attrs.field(alias="rules_file", repr=False, validator=made_by(str, _MAKERS))
    # Objects left out by a lenient read (the audit reports each).
    _rejected: tuple[manifests.Rejected, ...] = attrs.field(
        alias="rejected", repr=False, validator=made_by(tuple, _MAKERS)
    )
    warnings: tuple[str, ...] = attrs.field(default=(), validator=made_by(tuple, _MAKERS))
    """What reading gave as `ModetableWarning`s (an object defined twice)."""

    @classmethod
    def from_paths(
        cls,
        *paths: str | os.PathLike[str],
        rules: Rules | Policy | None = None,
        lenient: bool = False,
        live: Sequence[str | os.PathLike[str]] = (),
    ) -> Cluster:
        """The objects of YAML or JSON files and folders (read recursively; `-`
        reads standard input), with the command line's limits and errors: bad
        input is a `ModetableError` naming `FILE:LINE:COL`. `rules` is the
        rules file whose kinds are kept and whose fields are checked (default:
        `load_rules()`); decide with a policy of the same file. `lenient`
        leaves out an object that does not read, as `modetable audit` does,
        and the audit reports it. `live`: files, folders or `-` of objects as
        the cluster holds them (`--live`; `-` for one side only)."""
        given = [path_argument(f"paths[{index}]", path) for index, path in enumerate(paths)]
        if isinstance(live, str | os.PathLike):
            live = (live,)
        dumps = [path_argument(f"live[{index}]", path) for index, path in enumerate(live)]
        lenient = flag("lenient", lenient)
        policy = _checking_policy(rules)
        # `-`: the process's standard input, as bytes whatever sys.stdin is
        # (a notebook's text stream; None when the process has none).
        stdin = loading.stdin_bytes(sys.stdin) if "-" in given or "-" in dumps else None
        return _read(
            policy,
            lenient,
            lambda warn, rejected: loading.load_paths(
                policy, given, stdin, warn=warn, rejected=rejected, live=dumps
            ),
        )

    @classmethod
    def from_objects(
        cls,
        objects: Iterable[Any],
        *,
        rules: Rules | Policy | None = None,
        lenient: bool = False,
        live: Iterable[Any] | None = None,
    ) -> Cluster:
        """Objects already in memory: dicts as `json.load`, `yaml.safe_load_all`
        or the Kubernetes client's custom-objects API give them (a `List`'s
        items one by one; None, an empty YAML document, skipped). One dict
        alone (`json.load` of a `kubectl get -o json` dump) is one object. The same
        checks and limits as for files; an error names the object by kind,
        namespace and name, where it stood (`objects[3]`), and the field
        (`Location.field`). `rules` and `lenient` as for `from_paths`; `live`,
        objects as the cluster holds them, given the same way (`live[0]`)."""
        lenient = flag("lenient", lenient)
        policy = _checking_policy(rules)
        pairs = _given("objects", objects)
        live_pairs = None if live is None else _given("live", live)
        return _read(
            policy,
            lenient,
            lambda warn, rejected: loading.load_objects(
                policy, pairs, warn=warn, rejected=rejected, live=live_pairs
            ),
        )

    @property
    def isvcs(self) -> tuple[str, ...]:
        """Every InferenceService, `NAMESPACE/NAME`, in the order read."""
        return tuple(m.ref for m in self._cluster.isvcs)

    @property
    def runtimes(self) -> tuple[str, ...]:
        """Every runtime: `NAMESPACE/NAME`, or `NAME` for a cluster-scoped one."""
        return tuple(m.ref for m in self._cluster.runtimes)

    @property
    def models(self) -> tuple[str, ...]:
        """Every model: `NAMESPACE/NAME`, or `NAME` for a cluster-scoped one."""
        return tuple(m.ref for m in self._cluster.models)

    @property
    def skipped(self) -> int:
        """Objects of kinds the rules do not read, left out."""
        return self._cluster.skipped

    def __repr__(self) -> str:
        found = self._cluster
        return (
            f"<modetable.Cluster {len(found.isvcs)} InferenceServices, "
            f"{len(found.runtimes)} runtimes, {len(found.models)} models>"
        )


def _given(argument: str, objects: Any) -> Iterable[tuple[str, Any]]:
    """Each object given with where it stood (`objects[3]`)."""
    if isinstance(objects, Mapping):
        # Iterating a dict would give its keys: one object was meant.
        objects = (objects,)
    elif isinstance(objects, str | bytes | bytearray) or not isinstance(objects, Iterable):
        raise wrong_type(argument, "an iterable of objects (dicts)", objects)
    return ((f"{argument}[{index}]", obj) for index, obj in enumerate(objects))


def _checking_policy(rules: Rules | Policy | None) -> rules_policy.Policy:
    """A policy of the rules file to read with: the one given, else the file's
    default line. What the loader checks is the same in every version of one
    file but which runtimes the ServingRuntime webhook admits: the objects are
    taken as made under this version (docs/api.md)."""
    if isinstance(rules, Policy):
        return engine_policy(rules)
    if rules is None:
        rules = load_rules()
    if not isinstance(rules, Rules):
        raise wrong_type("rules", "a modetable.Rules or Policy", rules)
    ruleset = engine_ruleset(rules)
    return ruleset.at(ruleset.default_version)


def _read(policy: rules_policy.Policy, lenient: bool, load: Any) -> Cluster:
    said: list[str] = []
    rejected: list[manifests.Rejected] | None = [] if lenient else None
    found = load(said.append, rejected)
    # An object the API server refuses (OME's CRD schema) never exists.
    said += [
        policy.message(
            "schema_left_out",
            kind=r.manifest.kind,
            name=r.manifest.ref,
            at=r.manifest.location,
            message=r.server,
        )
        for r in found.refused
        if not lenient
    ]
    for text in said:
        # stacklevel 3: the caller of from_paths / from_objects.
        warnings.warn(text, ModetableWarning, stacklevel=3)
    return Cluster(
        cluster=found,
        rules=policy.rules,
        rules_file=policy.file,
        rejected=tuple(rejected or ()),
        warnings=tuple(said),
    )


def engine_cluster(cluster: Cluster, policy: rules_policy.Policy) -> manifests.Cluster:
    """The engine's cluster behind a public one, once it is known to be read
    with the rules `policy` is of (for the API's own modules)."""
    if not isinstance(cluster, Cluster):
        raise wrong_type(
            "cluster", "a modetable.Cluster (from Cluster.from_paths or from_objects)", cluster
        )
    if cluster._rules is not policy.rules and cluster._rules != policy.rules:
        raise ModetableError(
            f"the cluster was read with the rules of {cluster._rules_file}, not those of "
            f"{policy.file}: read it with rules=the policy"
        )
    return cluster._cluster


# Each Cluster's `_Kept`, as long as the Cluster lives (a Cluster compares by
# identity; what is kept holds the engine's cluster, never the public one).
# Kept beside the Cluster, not in it: the Cluster's fields are what it was
# made of, and a copy or a pickle of it starts with nothing kept.
_kept: weakref.WeakKeyDictionary[Cluster, _Kept] = weakref.WeakKeyDictionary()
_kept_lock = threading.Lock()


@contextmanager
def kept_evaluator(
    cluster: Cluster, policy: rules_policy.Policy, *, candidates: bool
) -> Iterator[Evaluator]:
    """The evaluator `cluster` keeps for `policy` (assessing every candidate, or
    only what the outcome needs; its memo shared by every call on the
    cluster), held by this thread alone until the block ends; `policy`
    already checked by `engine_cluster`."""
    with _kept_lock:
        kept = _kept.get(cluster)
        if kept is None:
            kept = _kept[cluster] = _Kept()
    with kept.lock:
        yield kept.evaluator(policy, cluster._cluster, candidates)


def rejected_objects(cluster: Cluster) -> Sequence[manifests.Rejected]:
    """The objects a lenient read left out."""
    return cluster._rejected
