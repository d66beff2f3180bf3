"""A JSON Schema (draft-07) for the rules file, generated from the attrs classes.

Draft-07 is the dialect YAML language servers support: with the schema line
at the top of rules/modes.yaml, an editor completes keys and flags a wrong
type (an unquoted `since: 1.10`) as it is typed. Names are checked against
each other only by `modetable rules check`; a schema cannot say that a mode a
row names is one the file defines.
"""

from __future__ import annotations

import inspect
import json
import types
import typing
from enum import StrEnum
from typing import Any

import attrs

from modetable.rules.kinds import Defines, Ref, Template, Templates, field_types, split_annotated
from modetable.rules.model import RuleFile

__all__ = ["SCHEMA_ID", "VERSION_FIELDS", "rules_schema", "rules_schema_text"]

_DIALECT = "http://json-schema.org/draft-07/schema#"
# The schema's identity, by the format of the file it describes (`format: 1`):
# an editor or a validator caches and refers to it by this, wherever it is read
# from (the checkout's schema/, or the installed copy beside the bundled rules).
SCHEMA_ID = "urn:modetable:rules-schema:format-1"
VERSION_FIELDS = {
    "since": "the first version this applies in: one listed under `versions`",
    "until": "the first version this no longer applies in: one listed under `versions`",
}


def rules_schema() -> dict[str, Any]:
    """The schema of a rules file."""
    definitions: dict[str, Any] = {}
    root = _class_schema(RuleFile, definitions)
    return {
        "$schema": _DIALECT,
        "$id": SCHEMA_ID,
        "title": "modetable rules file",
        **root,
        "definitions": dict(sorted(definitions.items())),
    }


def rules_schema_text() -> str:
    """The schema as the repository keeps it (schema/modes.schema.json)."""
    return json.dumps(rules_schema(), indent=2, ensure_ascii=False) + "\n"


def _class_schema(cls: type, definitions: dict[str, Any]) -> dict[str, Any]:
    hints = field_types(cls)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for field in attrs.fields(cls):
        name = field.metadata.get("yaml_key", field.name)
        schema = _schema(hints[field.name], definitions)
        if field.name in VERSION_FIELDS:
            schema = {**schema, "description": VERSION_FIELDS[field.name]}
        if field.default is attrs.NOTHING:
            required.append(name)
        else:
            default = _json_default(field.default)
            if default is not _NO_DEFAULT:
                schema = {**schema, "default": default}
        properties[name] = schema
    result: dict[str, Any] = {"type": "object"}
    doc = inspect.getdoc(cls)
    if doc and cls.__doc__:  # the class's own docstring, not attrs' generated one
        result["description"] = doc
    result["properties"] = properties
    if required:
        result["required"] = required
    result["additionalProperties"] = False
    return result


_NO_DEFAULT = object()


def _json_default(default: Any) -> Any:
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        default = default.factory()
    if default is None or isinstance(default, str | int | bool):
        return default
    if isinstance(default, tuple | list | dict) and not default:
        return [] if not isinstance(default, dict) else {}
    return _NO_DEFAULT


def _schema(type_: Any, definitions: dict[str, Any]) -> dict[str, Any]:
    base, marks = split_annotated(type_)
    schema = _base_schema(base, definitions)
    notes = [note for note in (_describe(mark) for mark in marks) if note]
    if notes:
        schema = {**schema, "description": "; ".join(notes)}
    for mark in marks:
        if isinstance(mark, Templates):
            schema = {
                **schema,
                "properties": {
                    name: {"type": "string", "description": _placeholders(params)}
                    for name, params in mark.params.items()
                },
                "required": list(mark.params),
                "additionalProperties": False,
            }
    return schema


def _base_schema(base: Any, definitions: dict[str, Any]) -> dict[str, Any]:
    origin = typing.get_origin(base)
    if origin is typing.Union or origin is types.UnionType:
        branches = [b for b in typing.get_args(base) if b is not type(None)]
        options = [_schema(b, definitions) for b in branches]
        if len(branches) < len(typing.get_args(base)):
            options.append({"type": "null"})
        return options[0] if len(options) == 1 else {"anyOf": options}
    if attrs.has(base):
        name = base.__name__
        if name not in definitions:
            definitions[name] = {}  # reserved first: a class may refer to itself
            definitions[name] = _class_schema(base, definitions)
        return {"$ref": f"#/definitions/{name}"}
    if origin is tuple:
        return {"type": "array", "items": _schema(typing.get_args(base)[0], definitions)}
    if origin is dict:
        key_type, value_type = typing.get_args(base)
        schema: dict[str, Any] = {
            "type": "object",
            "additionalProperties": _schema(value_type, definitions),
        }
        key_base = split_annotated(key_type)[0]
        if typing.get_origin(key_base) is typing.Literal:
            schema["propertyNames"] = {"enum": list(typing.get_args(key_base))}
        elif _is_words(key_base):
            schema["propertyNames"] = {"enum": [word.value for word in key_base]}
        return schema
    if origin is typing.Literal:
        return {"enum": list(typing.get_args(base))}
    if _is_words(base):
        return {"enum": [word.value for word in base]}
    if base is str:
        return {"type": "string"}
    if base is bool:
        return {"type": "boolean"}
    if base is int:
        return {"type": "integer"}
    raise TypeError(f"no JSON Schema for {base!r}")  # a model type this module must learn


def _is_words(type_: Any) -> bool:
    """A closed set of words (rules/words.py): the schema lists its values."""
    return isinstance(type_, type) and issubclass(type_, StrEnum)


def _describe(mark: Any) -> str | None:
    if isinstance(mark, Ref):
        also = f" (or {', '.join(repr(w) for w in mark.also)})" if mark.also else ""
        return f"the name of {_a(mark.kind)} this file defines{also}"
    if isinstance(mark, Defines):
        return f"the name of {_a(mark.kind)}, unique in the file"
    if isinstance(mark, Template):
        if mark.params_field:
            return f"a template: each {{placeholder}} is one of `{mark.params_field}`"
        return _placeholders(mark.params)
    return None


def _placeholders(params: tuple[str, ...]) -> str:
    if not params:
        return "a text with no placeholders"
    return "a template; placeholders: " + ", ".join(f"{{{p}}}" for p in params)


def _a(noun: str) -> str:
    return f"an {noun}" if noun[:1] in "aeiou" else f"a {noun}"
