"""The meaning of a rules file checked, every problem at once, each at its place.

The walk follows the model's types over the YAML as written (not the
structured objects), so it runs even where structuring failed, and reports
with the positions the YAML nodes remember. What it checks comes from the
markers on the types (`rules/kinds.py`): names defined twice, references to
names that are not defined, message `params` against what the engine passes,
`{placeholders}` against what a template receives. By convention every
`since` and `until` names a listed version, and `since` comes before `until`.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from modetable.errors import ErrorCode, Location, ModetableError
from modetable.rules import positions
from modetable.rules.kinds import (
    Defines,
    Ref,
    Template,
    Templates,
    field_types,
    split_annotated,
    yaml_key,
)
from modetable.rules.model import RuleFile
from modetable.rules.model.admission import AdmissionRule
from modetable.rules.model.messages import Message
from modetable.rules.model.modes import Mode
from modetable.rules.model.runtimes import RuntimeCheck
from modetable.rules.model.selection import Effect, Selection, SelectionCheck
from modetable.rules.model.sources import Source
from modetable.rules.model.suppression import Suppression
from modetable.rules.positions import PathPart
from modetable.rules.words import (
    OUTCOMES_NOT_RESULTS,
    OUTCOMES_PENDING,
    OUTCOMES_WITH_A_RUNTIME,
    AdmissionCheck,
    EffectWhen,
    Emit,
    FindingGroup,
    SchemaError,
    SelectionStep,
    Status,
)
from modetable.settled import frozen
from modetable.text.shown import quote
from modetable.text.templates import placeholders
from modetable.versions import parse_version

__all__ = ["Definition", "Index", "Reference", "index", "validate"]

_VERSION_FIELDS = ("since", "until")
_VERSION_REF = typing.Annotated[str, Ref("version")]


# Where a name stands: the path of its node, and whether it is a mapping key.
# Positions are looked up only when reported, to keep loading fast.
@frozen
class Definition:
    kind: str
    name: str
    path: tuple[PathPart, ...]
    key: bool
    holder: Any  # what the name names, as written (a mapping), for `params`
    report_unused: bool


@frozen
class Reference:
    kind: str
    name: str
    path: tuple[PathPart, ...]
    key: bool
    ref: Ref
    holder: Any  # the mapping holding the reference, as written


@frozen(eq=False)
class Index:
    """Every name the file defines and every reference to one."""

    definitions: dict[str, dict[str, Definition]]
    references: tuple[Reference, ...]
    document: Any = attrs.field(repr=False)
    file: str
    # Everything gated by version: (path, since, until) as written.
    gated: tuple[tuple[tuple[PathPart, ...], str | None, str | None], ...] = ()

    def names(self, kind: str) -> dict[str, Definition]:
        return self.definitions.get(kind, {})

    def referred(self, kind: str) -> set[str]:
        return {r.name for r in self.references if r.kind == kind}

    def locate(self, item: Definition | Reference) -> Location:
        return positions.locate(self.document, item.path, self.file, key=item.key)


class _Walker:
    def __init__(self, document: Any, file: str) -> None:
        self.document = document
        self.file = file
        self.definitions: dict[str, dict[str, Definition]] = {}
        self.references: list[Reference] = []
        self.errors: list[ModetableError] = []
        self.gated: list[tuple[tuple[PathPart, ...], str | None, str | None]] = []

    def locate(self, path: tuple[PathPart, ...], *, key: bool = False) -> Location:
        return positions.locate(self.document, path, self.file, key=key)

    def error(
        self, code: ErrorCode, message: str, path: tuple[PathPart, ...], *, key: bool = False
    ) -> None:
        self.errors.append(ModetableError(message, self.locate(path, key=key), code=code))

    # The walk: follow the type; skip any value whose shape does not fit it
    # (structuring reports those). What to do for each type is its plan (`_plan`).
    def walk(
        self, value: Any, type_: Any, path: tuple[PathPart, ...], holder: Any, *, key: bool = False
    ) -> None:
        _plan(type_)(self, value, path, holder, key)

    def check_statuses(self, value: dict[str, Any], path: tuple[PathPart, ...]) -> None:
        """No two of a mode's `statuses` hold in one version."""
        changes = value.get("statuses")
        if not isinstance(changes, list):
            return
        ranges = []
        for index, change in enumerate(changes):
            if isinstance(change, dict):
                since, until = change.get("since"), change.get("until")
                try:
                    low = parse_version(since) if isinstance(since, str) else None
                    high = parse_version(until) if isinstance(until, str) else None
                except ValueError:
                    continue  # the version itself is reported
                for other, (other_low, other_high) in ranges:
                    starts = max((v for v in (low, other_low) if v is not None), default=None)
                    ends = min((v for v in (high, other_high) if v is not None), default=None)
                    if starts is None or ends is None or starts < ends:
                        self.error(
                            ErrorCode.BAD_RANGE,
                            f"statuses[{index}] holds in versions statuses[{other}] holds in "
                            "too (give them since/until ranges that do not meet)",
                            (*path, "statuses", index),
                        )
                        break
                ranges.append((index, (low, high)))

    def scalar(
        self,
        value: str,
        marks: tuple[Any, ...],
        path: tuple[PathPart, ...],
        holder: Any,
        *,
        key: bool,
    ) -> None:
        for mark in marks:
            if isinstance(mark, Defines):
                self.define(mark, value, path, holder, key=key)
            elif isinstance(mark, Ref):
                self.references.append(Reference(mark.kind, value, path, key, mark, holder))
            elif isinstance(mark, Template):
                allowed = mark.params
                if mark.params_field is not None and isinstance(holder, dict):
                    listed = holder.get(mark.params_field) or ()
                    if not isinstance(listed, list | tuple):
                        continue  # not a list: structuring reports it
                    allowed = tuple(p for p in listed if isinstance(p, str))
                self.check_template(value, allowed, path, mark.params_field)

    def define(
        self, mark: Defines, name: str, path: tuple[PathPart, ...], holder: Any, *, key: bool
    ) -> None:
        known = self.definitions.setdefault(mark.kind, {})
        if name in known:
            first = known[name]
            line = self.locate(first.path, key=first.key).line
            self.error(
                ErrorCode.DUPLICATE_NAME,
                f"{mark.kind} {quote(name)} is defined twice (first at line {line})",
                path,
                key=key,
            )
            return
        if mark.kind == "version":
            try:
                parse_version(name)
            except ValueError:
                self.error(
                    ErrorCode.BAD_VERSION,
                    f'{quote(name)} is not a version (write it like "v1.3")',
                    path,
                    key=key,
                )
        known[name] = Definition(mark.kind, name, path, key, holder, mark.report_unused)

    def check_template(
        self,
        template: str,
        allowed: tuple[str, ...],
        path: tuple[PathPart, ...],
        params_field: str | None,
    ) -> None:
        try:
            used = placeholders(template)
        except ValueError as exc:
            self.error(ErrorCode.BAD_TEMPLATE, str(exc), path)
            return
        unknown = [name for name in dict.fromkeys(used) if name not in allowed]
        if not unknown:
            return
        names = ", ".join(f"{{{name}}}" for name in unknown)
        what = f"placeholder {names} is" if len(unknown) == 1 else f"placeholders {names} are"
        if params_field is not None:
            listed = ", ".join(allowed) if allowed else "none"
            self.error(
                ErrorCode.UNKNOWN_PLACEHOLDER,
                f"{what} not among its {params_field} ({listed}); "
                f"list in `{params_field}` what modetable passes the message",
                path,
            )
        else:
            listed = ", ".join(f"{{{p}}}" for p in allowed) if allowed else "none"
            self.error(
                ErrorCode.UNKNOWN_PLACEHOLDER,
                f"{what} not one this template is given ({listed})",
                path,
            )

    def check_templates(
        self, value: dict[Any, Any], mark: Templates, path: tuple[PathPart, ...]
    ) -> None:
        for name, params in mark.params.items():
            if name not in value:
                self.error(ErrorCode.MISSING_KEY, f"missing key {name!r} (modetable uses it)", path)
            elif isinstance(value[name], str):
                self.check_template(value[name], params, (*path, name), None)
        for name in value:
            if name not in mark.params:
                known = ", ".join(mark.params)
                self.error(
                    ErrorCode.UNKNOWN_KEY,
                    f"unknown key {name!r} (modetable uses: {known})",
                    (*path, name),
                    key=True,
                )

    def check_range(self, value: dict[str, Any], path: tuple[PathPart, ...]) -> None:
        since, until = value.get("since"), value.get("until")
        if isinstance(since, str) or isinstance(until, str):
            self.gated.append(
                (
                    path,
                    since if isinstance(since, str) else None,
                    until if isinstance(until, str) else None,
                )
            )
        if not (isinstance(since, str) and isinstance(until, str)):
            return
        try:
            ordered = parse_version(since) < parse_version(until)
        except ValueError:
            return  # the version itself is reported
        if not ordered:
            self.error(
                ErrorCode.BAD_RANGE, f"since {since} is not before until {until}", (*path, "until")
            )

    def resolve(self) -> None:
        for reference in self.references:
            known = self.definitions.get(reference.kind, {})
            if reference.name in reference.ref.also:
                continue
            definition = known.get(reference.name)
            if definition is None:
                self.error(
                    ErrorCode.UNDEFINED_REF,
                    _unknown(reference, known),
                    reference.path,
                    key=reference.key,
                )
                continue
            if reference.ref.params is not None:
                self.check_params(reference, definition)

    def check_params(self, reference: Reference, definition: Definition) -> None:
        """A message's params must all be passed wherever it is used."""
        params = reference.ref.params
        passed = tuple(params(reference.holder) if callable(params) else params or ())
        holder = definition.holder if isinstance(definition.holder, dict) else {}
        listed = holder.get("params") or ()
        if not isinstance(listed, list | tuple):
            return  # not a list: structuring reports it
        declared = [p for p in listed if isinstance(p, str)]
        missing = [p for p in declared if p not in passed]
        if not missing:
            return
        names = ", ".join(missing)
        listed = ", ".join(passed) if passed else "nothing"
        self.error(
            ErrorCode.PARAMS_NOT_PASSED,
            f"{reference.kind} {reference.name!r} has params {names}, "
            f"but here it is passed {listed}",
            reference.path,
            key=reference.key,
        )


# A plan per type: what the walk does with a value of that type, called as
# plan(walker, value, path, holder, key). The markers, a union's branches and
# a class's fields are worked out once per type, not again at each of the
# thousands of nodes a file has (the walk was a third of loading a file).
# Each plan does what the walk by the type did, step for step, so the
# definitions, references and errors come in the same order.
_Plan = Callable[[_Walker, Any, tuple[PathPart, ...], Any, bool], None]
_plans: dict[Any, _Plan] = {}


def _plan(type_: Any) -> _Plan:
    plan = _plans.get(type_)
    if plan is None:
        plan = _plans[type_] = _make_plan(type_)
    return plan


def _nothing(
    walker: _Walker, value: Any, path: tuple[PathPart, ...], holder: Any, key: bool
) -> None:
    """A value with nothing to check (a number, a word, an unmarked string)."""


def _make_plan(type_: Any) -> _Plan:
    base, marks = split_annotated(type_)
    origin = typing.get_origin(base)
    if origin is typing.Union or origin is types.UnionType:
        return _union_plan(typing.get_args(base), marks)
    if attrs.has(base):
        return _class_plan(base)
    if origin is tuple:
        return _tuple_plan(base)
    if origin is dict:
        return _mapping_plan(base, marks)
    scalar_marks = tuple(m for m in marks if isinstance(m, Defines | Ref | Template))
    if not scalar_marks:
        return _nothing

    def scalar(
        walker: _Walker, value: Any, path: tuple[PathPart, ...], holder: Any, key: bool
    ) -> None:
        if isinstance(value, str):
            walker.scalar(value, scalar_marks, path, holder, key=key)

    return scalar


def _union_plan(branches: tuple[Any, ...], marks: tuple[Any, ...]) -> _Plan:
    """A value is walked as the first branch its shape is structured as (a
    string as `str`, a list as a tuple, a mapping as a class or a dict), with
    the union's markers; as none when no branch takes its shape."""
    chosen: dict[type, _Plan] = {}
    for branch in branches:
        base = split_annotated(branch)[0]
        origin = typing.get_origin(base)
        if base is str:
            shape: type = str
        elif origin is tuple:
            shape = list
        elif attrs.has(base) or origin is dict:
            shape = dict
        else:
            continue
        if shape not in chosen:
            chosen[shape] = _plan(typing.Annotated[branch, *marks] if marks else branch)
    as_str, as_list, as_dict = chosen.get(str), chosen.get(list), chosen.get(dict)

    def union(
        walker: _Walker, value: Any, path: tuple[PathPart, ...], holder: Any, key: bool
    ) -> None:
        if isinstance(value, str):
            plan = as_str
        elif isinstance(value, list):
            plan = as_list
        elif isinstance(value, dict):
            plan = as_dict
        else:
            return
        if plan is not None:
            plan(walker, value, path, holder, False)

    return union


def _class_plan(cls: type) -> _Plan:
    # The fields' plans are made when the first mapping of the class is walked,
    # as its types were resolved then (a section's classes resolved only when
    # the file has the section).
    fields: tuple[tuple[str, _Plan], ...] | None = None
    check: Callable[[Mapping[str, Any]], list[tuple[str, str | None]]] | None = None

    def walk_class(
        walker: _Walker, value: Any, path: tuple[PathPart, ...], holder: Any, key: bool
    ) -> None:
        nonlocal fields, check
        if not isinstance(value, dict):
            return
        if fields is None:
            fields = _class_fields(cls)
            check = _CLASS_CHECKS.get(cls)
        for name, plan in fields:
            if name in value:
                plan(walker, value[name], (*path, name), value, False)
        walker.check_range(value, path)
        if check is not None:
            for message, at in check(value):
                walker.error(
                    ErrorCode.INCOMPLETE_RULE, message, (*path, at) if at else path, key=bool(at)
                )
        if cls is Mode:
            walker.check_statuses(value, path)

    return walk_class


def _class_fields(cls: type) -> tuple[tuple[str, _Plan], ...]:
    """Each field's key in the file and its plan; a `since` or `until` with no
    reference marker of its own names a listed version."""
    hints = field_types(cls)
    fields = []
    for field in attrs.fields(cls):
        field_type = hints[field.name]
        if field.name in _VERSION_FIELDS and not any(
            isinstance(m, Ref) for m in split_annotated(field_type)[1]
        ):
            field_type = _VERSION_REF
        fields.append((yaml_key(field), _plan(field_type)))
    return tuple(fields)


def _tuple_plan(type_: Any) -> _Plan:
    item = _plan(typing.get_args(type_)[0])

    def walk_tuple(
        walker: _Walker, value: Any, path: tuple[PathPart, ...], holder: Any, key: bool
    ) -> None:
        if isinstance(value, list):
            for index, element in enumerate(value):
                item(walker, element, (*path, index), holder, False)

    return walk_tuple


def _mapping_plan(type_: Any, marks: tuple[Any, ...]) -> _Plan:
    key_type, value_type = typing.get_args(type_)
    key_plan, value_plan = _plan(key_type), _plan(value_type)
    templates = tuple(m for m in marks if isinstance(m, Templates))

    def walk_mapping(
        walker: _Walker, value: Any, path: tuple[PathPart, ...], holder: Any, key: bool
    ) -> None:
        if not isinstance(value, dict):
            return
        for name, item in value.items():
            at = (*path, name)
            key_plan(walker, name, at, item, True)
            value_plan(walker, item, at, value, False)
        for mark in templates:
            walker.check_templates(value, mark, path)

    return walk_mapping


def _unknown(reference: Reference, known: Mapping[str, Definition]) -> str:
    kind, name = reference.kind, reference.name
    import difflib  # only when something is misspelled

    choices = [*known, *reference.ref.also]
    close = difflib.get_close_matches(name, choices, n=1)
    if close:
        return f"unknown {kind} {name!r} (did you mean {close[0]!r}?)"
    listed = ", ".join(choices) if choices else f"none: define a {kind} first"
    return f"unknown {kind} {name!r} (known: {listed})"


def _source_checks(value: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """A source reads a `path`, checks `present` paths, or gives a constant."""
    problems: list[tuple[str, str | None]] = []
    if value.get("path") is not None and value.get("present"):
        problems.append(("a source has a path or present paths, not both", "present"))
    reads = value.get("path") is not None or bool(value.get("present"))
    if reads and value.get("object") is None:
        problems.append(("a source that reads a path names the object it reads", None))
    if not reads and value.get("gives") is None:
        problems.append(("a source with no path and no present paths gives a constant mode", None))
    return problems


def _admission_checks(value: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """What each kind of admission check needs (admission/kinds.py): the
    source of an allowed_values check, the modes' sources of agree_when_any,
    the cases of a fields check (or what leaves it undecided), the kinds a
    model_exists check looks up, the outcomes of a selection check; a message
    where the kind gives one. A per-component path needs `each`."""
    check = value.get("check")
    problems: list[tuple[str, str | None]] = []
    if check == AdmissionCheck.ALLOWED_VALUES and value.get("source") is None:
        problems.append(("an allowed_values check names the source whose value it checks", None))
    needs = {
        AdmissionCheck.ALLOWED_VALUES: ("message",),
        AdmissionCheck.AGREE_WHEN_ANY: ("components", "message"),
        AdmissionCheck.MODEL_EXISTS: ("lookup", "message"),
        AdmissionCheck.SELECTION: ("outcomes",),
        AdmissionCheck.CANARY: ("rollout", "canary", "values"),
        AdmissionCheck.COORDINATION: ("rollout", "coordination", "values"),
        AdmissionCheck.ROLLING_UPDATE_BUDGETS: ("rollout", "budgets"),
        AdmissionCheck.RATIO_TOLERANCE: ("rollout", "bounds", "message"),
        AdmissionCheck.ZERO_BUDGET: ("rollout", "message"),
        AdmissionCheck.SOAK: ("rollout", "soak"),
        AdmissionCheck.ROLLOUT_ORDERING: ("rollout", "ordering"),
    }
    for field in needs.get(check, ()) if isinstance(check, str) else ():
        if not value.get(field):
            article = "an" if str(check)[:1] in "aeiou" else "a"
            problems.append((f"{article} {check} check names its {field}", None))
    if check == AdmissionCheck.FIELDS and not value.get("cases") and not value.get("undecided"):
        problems.append(("a fields check has cases (or says when it is undecided)", None))
    if check == AdmissionCheck.FIELDS and not value.get("each") and _names_a_component(value):
        problems.append(("a path with a component's {placeholder} needs `each`", None))
    return problems


_COMPONENT_PLACEHOLDERS = ("{component}", "{isvc_field}", "{runtime_field}")


def _names_a_component(node: Any) -> bool:
    """Whether a path or value of the check has a component's placeholder."""
    if isinstance(node, str):
        return any(p in node for p in _COMPONENT_PLACEHOLDERS)
    if isinstance(node, dict):
        return any(_names_a_component(v) for k, v in node.items() if k not in ("message", "id"))
    if isinstance(node, list):
        return any(_names_a_component(v) for v in node)
    return False


# The one selection step whose reason is not its own message (the matching
# row's message says why a mode is rejected).
_STEP_WITHOUT_MESSAGE = SelectionStep.DEPLOYMENT_MODE


def _selection_check_checks(value: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """A selection check gives its own message when it fails."""
    step = value.get("check")
    if isinstance(step, str) and step != _STEP_WITHOUT_MESSAGE and value.get("message") is None:
        return [(f"a {step} check names the message its failure gives", None)]
    return []


# Mode statuses that ask for a move or a look: a component running in such a
# mode is a finding (`findings.mode`).
_STATUSES_FOUND = (Status.DEPRECATED, Status.LEGACY)


def _items(value: Any, key: str) -> list[Mapping[str, Any]]:
    found = value.get(key) if isinstance(value, Mapping) else None
    return [item for item in found if isinstance(item, Mapping)] if isinstance(found, list) else []


def _finding_sources(value: Mapping[str, Any]) -> dict[str, list[str]]:
    """Group of `findings` → the names in the file that each need an entry there."""
    selection = value.get("selection") if isinstance(value.get("selection"), Mapping) else {}
    outcomes = selection.get("outcomes") if isinstance(selection.get("outcomes"), Mapping) else {}
    names = {
        # A check of kind selection shows selection's outcome (`outcome` group).
        FindingGroup.ADMISSION: [
            i.get("id")
            for i in _items(value, "admission")
            if i.get("check") not in (AdmissionCheck.SELECTION, AdmissionCheck.CRD_SCHEMA)
        ],
        # A crd_schema check finds each kind of problem the API server refuses.
        FindingGroup.SCHEMA: [
            str(word)
            for word in SchemaError
            if any(i.get("check") == AdmissionCheck.CRD_SCHEMA for i in _items(value, "admission"))
        ],
        # A check that can be left undecided says so in the audit too.
        FindingGroup.NOT_CHECKED: [
            i.get("id") for i in _items(value, "admission") if "undecided" in i
        ],
        FindingGroup.OUTCOME: [
            o
            for o in outcomes
            if o not in (*OUTCOMES_WITH_A_RUNTIME, *OUTCOMES_NOT_RESULTS, *OUTCOMES_PENDING)
        ],
        FindingGroup.CHECK: [
            c.get("id") for c in _items(selection, "checks") if not c.get("auto_only")
        ],
        FindingGroup.RUN_FAILURE: [i.get("id") for i in _items(value, "run_failures")],
        FindingGroup.COMPONENT: [i.get("name") for i in _items(value, "components")],
        FindingGroup.MODE_MOVE: [i.get("id") for i in _items(value, "mode_moves")],
        # What waits for OME's model agent: one finding, by the rule's id.
        FindingGroup.PENDING: [
            agent.get("id")
            for agent in [selection.get("model_agent")]
            if isinstance(agent, Mapping)
        ],
        FindingGroup.MODE: [
            i.get("name") for i in _items(value, "modes") if i.get("status") in _STATUSES_FOUND
        ],
    }
    return {group: [n for n in found if isinstance(n, str)] for group, found in names.items()}


_OPTIONAL_GROUPS = (FindingGroup.NOT_CHECKED, FindingGroup.SCHEMA)


def _findings_checks(value: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """Every rule that can find something about an InferenceService has its
    severity and description in `findings` (an audit never meets an unknown id)."""
    findings = value.get("findings")
    if not isinstance(findings, Mapping):
        return []
    problems: list[tuple[str, str | None]] = []
    for group, names in _finding_sources(value).items():
        # The groups a file may leave out hold nothing then.
        listed = findings.get(group, {} if group in _OPTIONAL_GROUPS else None)
        if not isinstance(listed, Mapping):
            continue  # structuring reports a missing or misshapen group
        missing = [n for n in names if n not in listed]
        if missing:
            problems.append((f"findings.{group} has no entry for {', '.join(missing)}", "findings"))
    return problems


def _message_checks(value: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """A message quotes only params it is passed."""
    params, quoted = value.get("params") or (), value.get("quoted") or ()
    if not isinstance(params, list | tuple) or not isinstance(quoted, list | tuple):
        return []  # not lists: structuring reports it
    stray = [q for q in quoted if q not in params]
    if stray:
        return [(f"quoted names {', '.join(map(str, stray))}, which are not params", "quoted")]
    return []


def _effect_checks(value: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """`recorded` reads whether the effect's own condition is recorded: only
    a condition has one."""
    when = value.get("when")
    if (
        isinstance(when, list)
        and EffectWhen.RECORDED in when
        and value.get("emit") != Emit.CONDITION
    ):
        return [(f"`when: [{EffectWhen.RECORDED}]` holds only on a condition effect", "when")]
    return []


def _outcome_message_checks(value: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """An outcome's `emit: message` replaces selection's message only where the
    controller resolves nothing (the outcomes that are no result); elsewhere
    selection's own message stands and it would say nothing."""
    outcomes = value.get("outcomes")
    if not isinstance(outcomes, Mapping):
        return []
    said = [
        name
        for name, effects in outcomes.items()
        if name not in OUTCOMES_NOT_RESULTS
        and isinstance(effects, list)
        and any(isinstance(e, Mapping) and e.get("emit") == "message" for e in effects)
    ]
    if said:
        return [
            (
                f"emit: message is read only in {', '.join(OUTCOMES_NOT_RESULTS)}; "
                f"outcomes {', '.join(map(str, said))} would show nothing of it",
                "outcomes",
            )
        ]
    return []


def _runtime_check_checks(value: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """What each kind of runtime webhook check needs (inputs/runtime_admission.py)."""
    needs = {"profile_disabled": ("field", "value"), "priorities_agree": ("entry_name",)}
    check = value.get("check")
    return [
        (f"a {check} check names its {field}", None)
        for field in needs.get(check, ())
        if isinstance(check, str)
        if value.get(field) is None
    ]


def _suppression_checks(value: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """The annotation's value splits into ids and a reason only with two
    separators, each a character or more, and different."""
    ids, reason = value.get("ids_separator"), value.get("reason_separator")
    if not isinstance(ids, str) or not isinstance(reason, str):
        return []  # structuring reports it
    if not ids or not reason:
        key = "ids_separator" if not ids else "reason_separator"
        return [("a separator of the annotation's value is one character or more", key)]
    if ids == reason:
        return [("the annotation's two separators differ", "reason_separator")]
    return []


_CLASS_CHECKS = {
    Source: _source_checks,
    AdmissionRule: _admission_checks,
    Message: _message_checks,
    SelectionCheck: _selection_check_checks,
    Effect: _effect_checks,
    Selection: _outcome_message_checks,
    RuntimeCheck: _runtime_check_checks,
    RuleFile: _findings_checks,
    Suppression: _suppression_checks,
}


def index(document: Any, file: str) -> tuple[Index, list[ModetableError]]:
    """The names `document` defines and refers to, and every problem with them."""
    walker = _Walker(document, file)
    walker.walk(document, RuleFile, (), None)
    walker.resolve()
    found = Index(
        definitions=walker.definitions,
        references=tuple(walker.references),
        document=document,
        file=file,
        gated=tuple(walker.gated),
    )
    return found, walker.errors


def validate(document: Any, file: str) -> list[ModetableError]:
    """Every problem with the meaning of `document` (a rules file as written)."""
    return index(document, file)[1]
