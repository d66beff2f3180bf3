"""The rules in force in one version, as plain data, and two of them compared.

`rules diff` tries every decision on every input, but an output can change
without any decision changing: a reworded message, checks in another order,
a docs sentence, a status. This compares the rules themselves, generically
over the model (`rules/model/`), so a section added to the model is
compared with no code here:

- an item gated by `since`/`until` is kept only in the versions it is in force
  in (a mode, its status in that version: `statuses` resolved);
- a list of items that define a name (`Defines`: modes, rows, checks, sources)
  is compared by name, its order included; another list item by item;
- a version a field refers to (`optional_since: "v1.3"`) reads whether it is
  in force;
- every other value is compared as it is.
"""

from __future__ import annotations

import difflib
import functools
import json
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from modetable.rules.kinds import Defines, Ref, field_types, split_annotated, yaml_key
from modetable.rules.model import RuleFile
from modetable.rules.model.modes import Mode
from modetable.rules.policy import Policy
from modetable.rules.words import Origin
from modetable.settled import frozen
from modetable.versions import describe_range, in_force

__all__ = ["ABSENT", "MESSAGE_ORIGINS", "Difference", "Keyed", "compare", "in_force_data"]

ABSENT = "absent"
# Whose words a message is (rules: messages[].origin), as the diff says it.
MESSAGE_ORIGINS = {
    Origin.OME: "OME",
    Origin.KUBERNETES: "Kubernetes",
    Origin.MODETABLE: "modetable",
}


class Keyed(dict):  # type: ignore[type-arg]
    """A list of items that define a name, by name, in the file's order."""


@frozen
class Difference:
    """One change between two sides' rules in force: where, what, and how."""

    where: str
    before: str
    after: str
    why: str


def in_force_data(policy: Policy) -> Any:
    """The rules in force in `policy`'s version, as plain data."""
    return _value(policy.rules, RuleFile, policy)


def compare(before: Policy, after: Policy) -> tuple[list[Difference], int]:
    """Every difference between the rules in force on each side, and how many
    values were compared."""
    counter = [0]
    was, now = in_force_data(before), in_force_data(after)
    found = [_said(d, was, now) for d in _compare(was, now, "", counter)]
    return found, counter[0]


def _said(difference: Difference, was: Any, now: Any) -> Difference:
    """A message's text that changes is a message reworded: whose, and its key."""
    parts = difference.where.split(".")
    if len(parts) == 3 and parts[0] == "messages" and parts[2] == "text":
        key = parts[1]
        message = now["messages"].get(key) or was["messages"].get(key) or {}
        whose = MESSAGE_ORIGINS.get(message.get("origin"), "a")
        return attrs.evolve(difference, why=f"{whose} message {key} reworded")
    return difference


# --- to plain data -----------------------------------------------------------


def _value(value: Any, type_: Any, policy: Policy) -> Any:
    base, marks = _split(type_)
    if value is None:
        return None
    if attrs.has(type(value)):
        return _object(value, policy)
    if isinstance(value, tuple) and typing.get_origin(base) is tuple:
        item_type = typing.get_args(base)[0]
        items = [(item, _value(item, item_type, policy)) for item in value if _holds(item, policy)]
        item_class = _split(item_type)[0]
        key = _key_field(item_class) if attrs.has(item_class) else None
        if key is not None:
            return Keyed((getattr(item, key), data) for item, data in items)
        return [data for _item, data in items]
    if isinstance(value, dict):
        value_type = typing.get_args(base)[1] if typing.get_origin(base) is dict else Any
        return {key: _value(item, value_type, policy) for key, item in value.items()}
    if isinstance(value, str) and any(isinstance(m, Ref) and m.kind == "version" for m in marks):
        held = "in force" if in_force(value, None, policy.version) else "not in force"
        return f"{value} ({held})"
    return value


def _object(value: Any, policy: Policy) -> dict[str, Any]:
    if isinstance(value, Mode):
        value = policy.all_modes[value.name]  # its status in this version
    hints = field_types(type(value))
    data: dict[str, Any] = {}
    for field in attrs.fields(type(value)):
        item = getattr(value, field.name)
        if isinstance(value, Mode) and field.name == "statuses":
            continue  # resolved into status and replacement
        if isinstance(value, RuleFile) and field.name == "versions":
            continue  # the lines themselves: `rules diff --against` says which differ
        if isinstance(value, RuleFile) and field.name == "default_version":
            data[yaml_key(field)] = item  # the file's setting, the same in every version
            continue
        data[yaml_key(field)] = _value(item, hints[field.name], policy)
    return data


def _holds(item: Any, policy: Policy) -> bool:
    """Whether an item of a list is in force (one without since/until always is)."""
    since, until = getattr(item, "since", None), getattr(item, "until", None)
    if not (isinstance(since, str | None) and isinstance(until, str | None)):
        return True
    return in_force(since, until, policy.version)


# Kept per type, as is the key field per class: `rules diff` asks for each of
# the thousands of values it writes out.
@functools.cache
def _split(type_: Any) -> tuple[Any, tuple[Any, ...]]:
    """The type and its markers, through `X | None`."""
    base, marks = split_annotated(type_)
    origin = typing.get_origin(base)
    if origin is typing.Union or origin is types.UnionType:
        args = [a for a in typing.get_args(base) if a is not type(None)]
        if len(args) == 1:
            inner, more = split_annotated(args[0])
            return inner, (*marks, *more)
    return base, marks


@functools.cache
def _key_field(cls: type) -> str | None:
    """The field of `cls` that defines its name, if one does."""
    hints = field_types(cls)
    for field in attrs.fields(cls):
        if any(isinstance(m, Defines) for m in _split(hints[field.name])[1]):
            return field.name
    return None


# --- compared ----------------------------------------------------------------


def _compare(before: Any, after: Any, where: str, counter: list[int]) -> Iterator[Difference]:
    if isinstance(before, Keyed) and isinstance(after, Keyed):
        yield from _keyed(before, after, where, counter)
    elif isinstance(before, dict) and isinstance(after, dict):
        yield from _by_key(before, after, lambda key: _join(where, key), counter)
    elif isinstance(before, list) and isinstance(after, list):
        yield from _items(before, after, where, counter)
    else:
        counter[0] += 1
        if before != after:
            yield Difference(where, _show(before), _show(after), _why_changed(where))


def _by_key(
    before: Any, after: Any, place_of: Callable[[Any], str], counter: list[int]
) -> Iterator[Difference]:
    """Two mappings key by key (`before`'s keys, then those only `after` has),
    each at its place (`place_of`): added, removed, or its values compared."""
    for key in dict.fromkeys([*before, *after]):
        place = place_of(key)
        if key not in before:
            counter[0] += 1
            yield _added(place, after[key])
        elif key not in after:
            counter[0] += 1
            yield _removed(place, before[key])
        else:
            yield from _compare(before[key], after[key], place, counter)


def _keyed(before: Keyed, after: Keyed, where: str, counter: list[int]) -> Iterator[Difference]:
    yield from _by_key(before, after, lambda name: f"{where}[{name}]", counter)
    kept_before = [n for n in before if n in after]
    kept_after = [n for n in after if n in before]
    counter[0] += 1
    if kept_before != kept_after:
        yield Difference(where, ", ".join(kept_before), ", ".join(kept_after), "order changed")


def _items(before: list, after: list, where: str, counter: list[int]) -> Iterator[Difference]:
    """Items without a name: the same items kept, the others paired in place
    where they can be (items in force in other versions are other items), else
    added or removed."""
    texts_before = [_canonical(item) for item in before]
    texts_after = [_canonical(item) for item in after]
    matcher = difflib.SequenceMatcher(a=texts_before, b=texts_after, autojunk=False)
    for tag, low, high, other_low, other_high in matcher.get_opcodes():
        if tag == "equal":
            counter[0] += high - low
            continue
        pairs = 0
        if tag == "replace":
            while pairs < min(high - low, other_high - other_low) and _gate(
                before[low + pairs]
            ) == _gate(after[other_low + pairs]):
                pairs += 1
        for offset in range(pairs):
            yield from _compare(
                before[low + offset],
                after[other_low + offset],
                f"{where}[{other_low + offset}]",
                counter,
            )
        for index in range(low + pairs, high):
            counter[0] += 1
            yield _removed(f"{where}[{index}]", before[index])
        for index in range(other_low + pairs, other_high):
            counter[0] += 1
            yield _added(f"{where}[{index}]", after[index])


def _gate(value: Any) -> tuple[Any, Any]:
    if isinstance(value, dict):
        return value.get("since"), value.get("until")
    return None, None


def _join(where: str, key: Any) -> str:
    key = str(key)
    if key.isidentifier():
        return f"{where}.{key}" if where else key
    return f"{where}[{key}]"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _show(value: Any) -> str:
    """A value as a table cell: text as it is, anything else as compact JSON."""
    if value is None:
        return "none"
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        shown = {k: v for k, v in value.items() if v not in (None, (), [], {}, "")}
        return json.dumps(shown, ensure_ascii=False, default=str)
    return json.dumps(value, ensure_ascii=False, default=str)


def _range(value: Any) -> str:
    if isinstance(value, dict) and (value.get("since") or value.get("until")):
        return f" ({describe_range(value.get('since'), value.get('until'))})"
    return ""


def _added(where: str, value: Any) -> Difference:
    return Difference(where, ABSENT, _show(value), f"added{_range(value)}")


def _removed(where: str, value: Any) -> Difference:
    return Difference(where, _show(value), ABSENT, f"removed{_range(value)}")


def _why_changed(where: str) -> str:
    """`status changed`: the field that changed."""
    return f"{where.split('.')[-1].split('[')[0]} changed"
