"""Loading a rules file: YAML with positions → attrs classes, every error at once.

Structural errors come from cattrs (collected, not first-only) and are mapped
back to the line and column of the YAML node they concern.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import cattrs
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn, override

from modetable.errors import ErrorCode, ErrorList, Location, ModetableError
from modetable.parsing.yamlio import (
    collector_paused,
    decode,
    describe,
    duplicate_key_message,
    load_documents,
)
from modetable.rules.find import read_rules_bytes
from modetable.rules.kinds import resolved, yaml_key
from modetable.rules.model import RuleFile
from modetable.rules.model.admission import TestValue
from modetable.rules.model.matching import RowCondition
from modetable.rules.positions import PathPart, field_name, locate
from modetable.rules.validate import validate
from modetable.text.shown import quote

__all__ = ["converter", "parse_rules", "read_rules_text"]


class _StructureError(ValueError):
    """A value of the wrong type, with a message meant for a policy author."""


class _NotAllowed(_StructureError):
    """A value that is not one of a field's words."""


class _NotAString(_StructureError):
    def __init__(self, value: Any) -> None:
        super().__init__(f"expected a string, got {_describe(value)}")
        self.value = value


# Where a string is a version: YAML reads an unquoted 1.10 as the number 1.1.
_VERSION_KEYS = ("since", "until", "versions", "default_version")


def _describe(value: Any, *, string_wanted: bool = True) -> str:
    """A value as a rules error names it: as yamlio.describe does, but a string
    as written (`'OMENatve'`, beside the words it is not; shortened and
    escaped) and, where a string is wanted, a number with the hint a policy
    author needs (a version or a name must be quoted)."""
    if isinstance(value, str):
        return quote(value)
    shown = describe(value)
    if string_wanted and isinstance(value, int | float) and not isinstance(value, bool):
        return f"{shown} (quote it to make it a string)"
    return shown


def _described_plainly(value: Any) -> str:
    """A value where no string is wanted: without the hint to quote a number."""
    return _describe(value, string_wanted=False)


def _strict_str(value: Any, _type: Any) -> str:
    if not isinstance(value, str):
        raise _NotAString(value)
    return value


def _strict_int(value: Any, _type: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _StructureError(f"expected a whole number, got {_described_plainly(value)}")
    return value


def _strict_bool(value: Any, _type: Any) -> bool:
    if not isinstance(value, bool):
        raise _StructureError(f"expected true or false, got {_described_plainly(value)}")
    return value


def _word(value: Any, type_: Any) -> StrEnum:
    if not isinstance(value, str) or value not in type_._value2member_map_:
        allowed = ", ".join(word.value for word in type_)
        raise _NotAllowed(f"{_describe(value)} is not one of: {allowed}")
    return type_(value)


def _condition(value: Any, _type: Any) -> RowCondition:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(value)
    raise _StructureError(
        f"expected a condition (a string or a list of modes), got {_describe(value)}"
    )


def _test_value(value: Any, _type: Any) -> TestValue:
    if isinstance(value, bool | int | str):
        return value
    raise _StructureError(f"expected a string, a number or true/false, got {_describe(value)}")


def _make_converter() -> cattrs.Converter:
    converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    converter.register_structure_hook(str, _strict_str)
    converter.register_structure_hook(int, _strict_int)
    converter.register_structure_hook(bool, _strict_bool)
    converter.register_structure_hook(RowCondition, _condition)
    converter.register_structure_hook(TestValue, _test_value)
    converter.register_structure_hook(TestValue | None, _test_value)

    def is_homogeneous_tuple(type_: Any) -> bool:
        args = typing.get_args(type_)
        return typing.get_origin(type_) is tuple and len(args) == 2 and args[1] is Ellipsis

    def tuple_hook_factory(type_: Any) -> Any:
        item_type = typing.get_args(type_)[0]
        item_hook = _Hook(converter, item_type)

        def hook(value: Any, _t: Any) -> Any:
            # A list only: cattrs would turn a string into a tuple of characters.
            if not isinstance(value, list):
                raise _StructureError(f"expected a list, got {_described_plainly(value)}")
            errors = []
            items = []
            structure = item_hook()
            for index, item in enumerate(value):
                try:
                    items.append(structure(item, item_type))
                except Exception as exc:  # collected, like cattrs does
                    exc.__notes__ = [
                        *getattr(exc, "__notes__", []),
                        IterableValidationNote(f"@ index {index}", index, item_type),
                    ]
                    errors.append(exc)
            if errors:
                raise IterableValidationError("While structuring a list", errors, type_)
            return tuple(items)

        return hook

    def mapping_hook_factory(type_: Any) -> Any:
        key_type, value_type = typing.get_args(type_)
        key_hook, value_hook = _Hook(converter, key_type), _Hook(converter, value_type)

        def hook(value: Any, _t: Any) -> Any:
            if not isinstance(value, dict):
                raise _StructureError(f"expected a mapping, got {_described_plainly(value)}")
            errors = []
            result = {}
            structure_key, structure_value = key_hook(), value_hook()
            for key, item in value.items():
                try:
                    result[structure_key(key, key_type)] = structure_value(item, value_type)
                except Exception as exc:
                    exc.__notes__ = [*getattr(exc, "__notes__", []), _KeyNote(key)]
                    errors.append(exc)
            if errors:
                raise IterableValidationError("While structuring a mapping", errors, type_)
            return result

        return hook

    def is_dict(type_: Any) -> bool:
        return typing.get_origin(type_) is dict

    converter.register_structure_hook_factory(is_homogeneous_tuple, tuple_hook_factory)
    converter.register_structure_hook_factory(is_dict, mapping_hook_factory)

    def is_optional(type_: Any) -> bool:
        origin = typing.get_origin(type_)
        args = typing.get_args(type_)
        return (
            (origin is typing.Union or origin is types.UnionType)
            and len(args) == 2
            and type(None) in args
        )

    def optional_hook_factory(type_: Any) -> Any:
        # cattrs' own hook for `X | None` looks X's hook up again for every value.
        first, second = typing.get_args(type_)
        other = first if second is type(None) else second
        other_hook = _Hook(converter, other)

        def hook(value: Any, _t: Any) -> Any:
            if value is None:
                return None
            return other_hook()(value, other)

        return hook

    converter.register_structure_hook_factory(is_optional, optional_hook_factory)

    def is_literal(type_: Any) -> bool:
        return typing.get_origin(type_) is typing.Literal

    def literal_hook_factory(type_: Any) -> Any:
        choices = typing.get_args(type_)
        words = all(isinstance(choice, str) for choice in choices)

        def hook(value: Any, _t: Any) -> Any:
            # A word is a string; a number (the file's format) is that number, not
            # True (== 1) nor 1.0.
            if not any(type(value) is type(c) and value == c for c in choices) and not (
                words and isinstance(value, str) and value in choices
            ):
                allowed = ", ".join(map(str, choices))
                shown = _describe(value) if words else describe(value)
                raise _NotAllowed(f"{shown} is not one of: {allowed}")
            return value

        return hook

    converter.register_structure_hook_factory(is_literal, literal_hook_factory)

    # A word of rules/words.py, read as its member and refused as a Literal's word
    # is (registered for StrEnum, so it comes before str's hook for its subclasses).
    converter.register_structure_hook(StrEnum, _word)

    def attrs_factory(type_: Any) -> Any:
        overrides = {
            field.name: override(rename=yaml_key(field))
            for field in attrs.fields(type_)
            if yaml_key(field) != field.name
        }
        inner = make_dict_structure_fn(type_, converter, **overrides)

        def hook(value: Any, _t: Any) -> Any:
            if not isinstance(value, dict):
                raise _StructureError(f"expected a mapping, got {_described_plainly(value)}")
            return inner(value, type_)

        return hook

    converter.register_structure_hook_factory(attrs.has, attrs_factory)
    return converter


class _Hook:
    """The converter's hook for a type, looked up when first needed and kept:
    `converter.structure(value, type_)` looks it up for every value (hashing
    the annotated type each time), the lists' items and the mappings' entries
    alike. Not looked up when the hook that holds it is made, so a class
    that holds itself, however deep, is no loop."""

    __slots__ = ("_converter", "_hook", "_type")

    def __init__(self, converter: cattrs.Converter, type_: Any) -> None:
        self._converter, self._type = converter, type_
        self._hook: Any = None

    def __call__(self) -> Any:
        if self._hook is None:
            self._hook = self._converter.get_structure_hook(self._type)
        return self._hook


class _KeyNote(str):
    def __new__(cls, key: Any) -> _KeyNote:
        note = super().__new__(cls, f"@ key {key!r}")
        note.key = key  # type: ignore[attr-defined]
        return note


@cache
def converter() -> cattrs.Converter:
    return _make_converter()


def _note_part(note: Any) -> PathPart | None:
    if isinstance(note, AttributeValidationNote):
        return note.name
    if isinstance(note, IterableValidationNote):
        return note.index
    if isinstance(note, _KeyNote):
        return note.key
    return None


def _leaf_errors(
    exc: BaseException, path: tuple[PathPart, ...]
) -> Iterator[tuple[tuple[PathPart, ...], BaseException]]:
    """Each underlying error of a cattrs error tree, with its path in the data."""
    parts = [p for p in (_note_part(n) for n in getattr(exc, "__notes__", [])) if p is not None]
    here = path + tuple(parts[-1:]) if parts else path
    if isinstance(exc, ClassValidationError | IterableValidationError):
        for sub in exc.exceptions:
            yield from _leaf_errors(sub, here)
    else:
        yield here, exc


def _message(exc: BaseException, path: tuple[PathPart, ...]) -> tuple[ErrorCode, str]:
    """The code and message of one structural error at `path`."""
    name = field_name(path)
    if isinstance(exc, ForbiddenExtraKeysError):
        extra = ", ".join(sorted(map(str, exc.extra_fields)))
        return ErrorCode.UNKNOWN_KEY, f"unknown key {extra!r} in {name}"
    if isinstance(exc, KeyError):
        return ErrorCode.MISSING_KEY, f"missing required key {name}"
    if isinstance(exc, _NotAString) and isinstance(exc.value, int | float):
        field = next((p for p in reversed(path) if isinstance(p, str)), None)
        if field in _VERSION_KEYS and not isinstance(exc.value, bool):
            return ErrorCode.UNQUOTED_VERSION, (
                f'{name}: a version is a quoted string ("v1.3"); unquoted, '
                f"YAML reads this one as the number {exc.value}"
            )
    if isinstance(exc, _NotAllowed):
        return ErrorCode.NOT_ALLOWED, f"{name}: {exc}"
    return ErrorCode.WRONG_TYPE, f"{name}: {exc}"


def _structure_errors(document: Any, file: str, exc: BaseException) -> list[ModetableError]:
    """cattrs' error tree as positioned, one-line errors, in file order."""
    errors = []
    for path, leaf in _leaf_errors(exc, ()):
        if isinstance(leaf, ForbiddenExtraKeysError):
            for extra in sorted(map(str, leaf.extra_fields)):
                errors.append(
                    ModetableError(
                        f"unknown key {extra!r}" + (f" in {field_name(path)}" if path else ""),
                        locate(document, (*path, extra), file, key=True),
                        code=ErrorCode.UNKNOWN_KEY,
                    )
                )
            continue
        code, message = _message(leaf, path)
        errors.append(ModetableError(message, locate(document, path, file), code=code))
    errors.sort(key=lambda e: (e.location.line or 0, e.location.col or 0) if e.location else (0, 0))
    return errors


def parse_rules(text: str, file: str) -> tuple[RuleFile, Any]:
    """The rule file in `text`, and the YAML tree it came from (for positions)."""
    # The rules' tens of thousands of objects made the collector walk all the
    # process held again and again: a fifth of a parse in the tests' workers.
    with collector_paused():
        return _parse_rules(text, file)


def _parse_rules(text: str, file: str) -> tuple[RuleFile, Any]:
    try:
        documents = load_documents(text, file)
    except ModetableError:
        # The loader stops at the first duplicate key: name every one at once.
        duplicates = _duplicate_keys(text, file)
        if len(duplicates) > 1:
            raise ErrorList(duplicates) from None
        raise
    if len(documents) != 1:
        raise ModetableError(
            f"a rules file holds exactly one YAML document, found {len(documents)}",
            Location(file),
            code=ErrorCode.BAD_DOCUMENT,
        )
    document, start = documents[0]
    if not isinstance(document, dict):
        raise ModetableError("a rules file is a mapping", start, code=ErrorCode.BAD_DOCUMENT)
    errors: list[ModetableError] = []
    try:
        rules = converter().structure(document, resolved(RuleFile))
    except (ClassValidationError, IterableValidationError, _StructureError) as exc:
        errors = _structure_errors(document, file, exc)
    except (ValueError, TypeError, KeyError) as exc:
        errors = _structure_errors(document, file, exc)
    # The meaning is checked even when the shape is not, so one run reports all.
    errors.extend(validate(document, file))
    if errors:
        raise ErrorList(_in_file_order(errors))
    return rules, document


def _in_file_order(errors: list[ModetableError]) -> list[ModetableError]:
    def position(error: ModetableError) -> tuple[int, int]:
        where = error.location
        return (where.line or 0, where.col or 0) if where else (0, 0)

    unique = {str(e): e for e in errors}
    return sorted(unique.values(), key=position)


def _duplicate_keys(text: str, file: str) -> list[ModetableError]:
    """Every key given twice in one mapping of `text` (none when it is not YAML)."""
    import yaml

    loader_class = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        nodes = list(yaml.compose_all(text, Loader=loader_class))
    except yaml.YAMLError:
        return []
    scalars = loader_class("")
    found: list[ModetableError] = []
    pending: list[yaml.Node] = [n for n in nodes if n is not None]
    seen_nodes: set[int] = set()
    while pending:
        node = pending.pop()
        if id(node) in seen_nodes:
            continue  # an alias: the same node again
        seen_nodes.add(id(node))
        if isinstance(node, yaml.MappingNode):
            first: dict[Any, int] = {}
            for key_node, value_node in node.value:
                pending.append(value_node)
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
                    continue
                try:
                    key = (
                        scalars.construct_scalar(key_node)
                        if key_node.tag.endswith(":str")
                        else (scalars.construct_object(key_node))
                    )
                    hash(key)  # `!!map x: 1` makes an empty dict, which is no key
                except (ValueError, TypeError, KeyError, yaml.YAMLError):
                    continue  # a tag that does not fit: the loader's own error says so
                line = key_node.start_mark.line + 1
                if key in first:
                    found.append(
                        ModetableError(
                            duplicate_key_message(key_node, first[key]),
                            Location(file, line, key_node.start_mark.column + 1),
                            code=ErrorCode.DUPLICATE_KEY,
                        )
                    )
                else:
                    first[key] = line
        elif isinstance(node, yaml.SequenceNode):
            pending.extend(node.value)
    return _in_file_order(found)


def read_rules_text(path: Path) -> str:
    return decode(read_rules_bytes(path), str(path))
