"""An ome.io object checked as the Kubernetes API server checks a custom
resource on create, before any admission webhook sees it.

The server's steps, in its order (apiextensions-apiserver v0.35.0):
1. decoding: unknown fields are pruned (pruning/algorithm.go), metadata's
   against ObjectMeta (objectmeta/coerce.go); under kubectl's default field
   validation (Strict) any of them refuses the request with one `strict
   decoding error` (400), under Warn each is a warning and the field is dropped;
2. a null where the schema is not nullable is dropped (defaulting/prunenulls.go),
   and fields with a default are filled in;
3. validation: metadata (ValidateObjectMetaAccessor, NameIsDNSSubdomain), then
   the OpenAPI schema (kube-openapi's validator, errors mapped to field errors
   by validation.go), then x-kubernetes-list-type map keys (listtype/
   validation.go); all of them come back together as one 422 Invalid.

Where the server's order is Go's map order (the properties of an object), the
problems here follow the manifest's order. Not checked: CEL rules
(x-kubernetes-validations: none in v1.2.2's CRDs), metadata fields of the
wrong type, ownerReferences, finalizers and managedFields, and the
`x-kubernetes-embedded-resource` objects' own metadata.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from modetable.errors import Location
from modetable.inputs import api_texts as texts
from modetable.inputs.crd_schema import KindSchema
from modetable.parsing.yamlio import YamlList, YamlMap
from modetable.rules.words import SchemaError
from modetable.settled import frozen

__all__ = [
    "META_FIELDS",
    "OBJECT_META_FIELDS",
    "SchemaProblem",
    "check_object",
    "closest_fields",
    "kubectl_message",
    "server_message",
]

# A pattern compiled when first used, not when the module is imported (a cold
# start's cost: docs/performance.md).
_compiled = functools.cache(re.compile)


@frozen
class SchemaProblem:
    """One thing the API server refuses: its class, the field path as the
    server prints it, where the offending key or value is written, the server's
    text for it alone, and for an unknown field the schema's closest names."""

    error: SchemaError
    path: str
    location: Location
    text: str
    suggestions: tuple[str, ...] = ()

    @property
    def strict(self) -> bool:
        """Refused while decoding (400, or a warning under Warn), not validated."""
        return self.error == SchemaError.UNKNOWN_FIELD


# ObjectMeta's JSON fields (k8s.io/apimachinery pkg/apis/meta/v1 types.go).
OBJECT_META_FIELDS = frozenset(
    [
        "name",
        "generateName",
        "namespace",
        "selfLink",
        "uid",
        "resourceVersion",
        "generation",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "labels",
        "annotations",
        "ownerReferences",
        "finalizers",
        "managedFields",
    ]
)
# The root is an embedded resource: these are left to the type and metadata checks.
META_FIELDS = ("apiVersion", "kind", "metadata")


def check_object(
    schema: KindSchema, obj: Any, where: Location | None = None
) -> tuple[SchemaProblem, ...]:
    """Every problem the API server finds in `obj`, a manifest of `schema`'s
    kind: the unknown fields first (in the server's order), then what
    validation refuses. `where` stands for a place the manifest did not keep."""
    start = where or _place(obj, None, key=False, fallback=Location("<input>"))
    walk = _Walk(schema, start)
    if not isinstance(obj, dict):
        return ()
    walk.metadata_unknown(obj)
    walk.prune(obj, schema.root, "", root=True)
    walk.metadata(obj)
    walk.validate(obj, schema.root, "", start, root=True)
    walk.list_maps(obj, schema.root, "")
    unknown = sorted(walk.unknown, key=lambda p: p.path)
    return (*walk.meta_unknown, *unknown, *walk.meta_problems, *walk.problems, *walk.duplicates)


def server_message(schema: KindSchema, name: str, problems: tuple[SchemaProblem, ...]) -> str:
    """The API server's message for one request: the strict decoding error (400)
    when any field is unknown, else the Invalid status (422) with every error."""
    unknown = [p.text for p in problems if p.strict]
    if unknown:
        error = texts.STRICT_DECODING + ", ".join(unknown)
        return texts.CANNOT_HANDLE.format(
            kind=schema.kind, version=texts.go_quote(schema.version), error=error
        )
    return texts.INVALID_STATUS.format(
        kind=schema.kind,
        group=schema.group,
        name=texts.go_quote(name),
        errors=texts.aggregate([p.text for p in problems]),
    )


def kubectl_message(
    schema: KindSchema,
    name: str,
    problems: tuple[SchemaProblem, ...],
    source: str,
    field_validation: str = "Strict",
) -> str:
    """What `kubectl apply -f SOURCE` prints when it creates the object: under
    Strict (kubectl's default) the 400 for unknown fields; else each unknown
    field a warning, then the 422 as kubectl lays out its causes."""
    if not problems:
        return ""
    unknown = [p for p in problems if p.strict]
    if unknown and field_validation == "Strict":
        message = texts.KUBECTL_SOURCE.format(
            verb="creating",
            source=texts.go_quote(source),
            message=server_message(schema, name, problems),
        )
        return texts.KUBECTL_FROM_SERVER.format(reason="BadRequest", message=message)
    lines = []
    if field_validation == "Warn":
        lines = [texts.KUBECTL_WARNING.format(message=p.text) for p in unknown]
    causes = list(dict.fromkeys(p.text for p in problems if not p.strict))
    if causes:
        head = texts.KUBECTL_INVALID.format(kind=schema.kind, name=texts.go_quote(name))
        if len(causes) == 1:
            lines.append(head + causes[0])
        else:
            lines.append(head)
            lines += [f"* {cause}" for cause in causes]
    return "\n".join(lines)


# Where a value is written: a Location, or (holder, index, key) made into one
# only when a problem is found there (most values have none).
_Place = Location | tuple[Any, Any, bool]


def _place(holder: Any, index: Any, *, key: bool, fallback: Location) -> Location:
    """Where `holder[index]` (its key with `key`), or `holder` itself, is written."""
    if isinstance(holder, YamlMap):
        if index is None:
            return Location(holder.file, holder.line, holder.col)
        return holder.key_where(index) if key else holder.where(index)
    if isinstance(holder, YamlList):
        return holder.where(index)
    return fallback


# What JSON decodes to, a bool before an int (a bool is an int in Python): the
# type kube-openapi names it by, and schemaInfoForType's format ("" for none).
_JSON_KINDS = (
    (bool, "boolean", ""),
    (int, "integer", "int64"),
    (float, "number", "float64"),
    (str, "string", ""),
    (list, "array", ""),
)


def _json_kind(value: Any) -> tuple[str, str]:
    """The JSON type of a decoded value and its Go format (`_JSON_KINDS`)."""
    for python_type, schema_type, go_format in _JSON_KINDS:
        if isinstance(value, python_type):
            return schema_type, go_format
    return "object", ""


# field.TooLong and field.TooMany: the error's kind, its detail, and the
# detail's unit for a limit of one and for more.
_TOO_LONG = (texts.TOO_LONG, texts.TOO_LONG_DETAIL, "byte", "bytes")
_TOO_MANY = (texts.TOO_MANY, texts.TOO_MANY_DETAIL, "item", "items")


def _child(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _types(node: dict[str, Any]) -> list[str]:
    if node.get("x-kubernetes-int-or-string"):
        return ["integer", "string"]
    return [node["type"]] if "type" in node else []


_RFC3339 = r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})"


def _valid_format(name: str, value: str) -> bool | None:
    """Whether `value` is of the format (strfmt's default registry), or None
    for a format not modelled here (then not checked)."""
    try:
        if name in ("date-time", "datetime"):
            import datetime  # here, as every module a format alone needs

            if not _compiled(_RFC3339).fullmatch(value):
                return False
            datetime.datetime.fromisoformat(value.replace("z", "Z").replace("t", "T"))
            return True
        if name == "date":
            import datetime

            datetime.date.fromisoformat(value)
            return len(value) == 10
        if name == "byte":
            import base64

            base64.b64decode(value, validate=True)
            return True
        if name == "ipv4":
            import ipaddress

            ipaddress.IPv4Address(value)
            return True
        if name == "ipv6":
            import ipaddress

            ipaddress.IPv6Address(value)
            return True
        if name == "cidr":
            import ipaddress

            ipaddress.ip_network(value, strict=False)
            return "/" in value
        if name in ("uuid", "uuid3", "uuid4", "uuid5"):
            import uuid  # here: its import (platform's) is a cold start's cost

            parsed = uuid.UUID(value)
            return name == "uuid" or parsed.version == int(name[-1])
        if name == "password":
            return True
    except ValueError:
        return False
    return None


# The words of a field's name: camelCase humps, runs of capitals (`apiURL`),
# digits; `_`, `-` and `.` only part them.
_WORDS = r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+"
# At most this many names suggested; difflib's cutoff for a misspelling.
_SUGGESTED = 3
_SPELLING = 0.6


def closest_fields(key: str, names: list[str]) -> tuple[str, ...]:
    """The fields of `names` (a schema's siblings) a user who wrote `key`
    most likely meant, closest first; none when no name is close. In turn:
    the name in another case (`Name`: `name`); the names whose words begin
    or end `key`'s, or that `key`'s words begin or end (`modelName`: `name`,
    `modelRef`: `model`, `deployment`: `deploymentMode`); else the names
    difflib finds spelled alike (`polcy`: `policy`, `volumeMount`:
    `volumeMounts`)."""
    return _closest(key, tuple(sorted(set(names))))


# A fleet misspells the same field under the same parent again and again: each
# (key, siblings) is weighed once (bounded, for input that misspells without end).
@functools.lru_cache(maxsize=4096)
def _closest(key: str, unique: tuple[str, ...]) -> tuple[str, ...]:
    folded = [name for name in unique if name.casefold() == key.casefold()]
    if folded:
        return tuple(folded[:_SUGGESTED])
    import difflib  # here: only a misspelt field asks for it

    words = _words_of(key)
    contained = [name for name in unique if _contains(words, _words_of(name))]
    if contained:
        ratio = difflib.SequenceMatcher(None, b=key.casefold())

        def closeness(name: str) -> tuple[float, str]:
            ratio.set_seq1(name.casefold())
            return (-ratio.ratio(), name)

        return tuple(sorted(contained, key=closeness)[:_SUGGESTED])
    return tuple(difflib.get_close_matches(key, unique, n=_SUGGESTED, cutoff=_SPELLING))


def _words_of(name: str) -> tuple[str, ...]:
    return tuple(word.casefold() for word in _compiled(_WORDS).findall(name))


def _contains(one: tuple[str, ...], other: tuple[str, ...]) -> bool:
    """Whether the shorter of two names' words begin or end the longer (two
    names of one word each are never contained: that is a misspelling's case)."""
    short, long = sorted((one, other), key=len)
    if not short or len(short) == len(long):
        return False
    return long[: len(short)] == short or long[-len(short) :] == short


def _pattern(pattern: str) -> re.Pattern[str]:
    """A Go (RE2) pattern for Python's re: `$` matches only at the very end."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.compile(pattern)


class _Walk:
    """The problems of one object, gathered in the server's steps."""

    def __init__(self, schema: KindSchema, start: Location) -> None:
        self.schema = schema
        self._nodes = schema.nodes
        self.start = start
        self.meta_unknown: list[SchemaProblem] = []
        self.unknown: list[SchemaProblem] = []
        self.meta_problems: list[SchemaProblem] = []
        self.problems: list[SchemaProblem] = []
        self.duplicates: list[SchemaProblem] = []

    def node(self, index: int | None) -> dict[str, Any] | None:
        return None if index is None else self._nodes[index]

    def _unknown(self, holder: Any, key: str, path: str, names: list[str]) -> SchemaProblem:
        close = closest_fields(key, names)
        return SchemaProblem(
            error=SchemaError.UNKNOWN_FIELD,
            path=path,
            location=_place(holder, key, key=True, fallback=self.start),
            text=texts.UNKNOWN_FIELD.format(path=path),
            suggestions=close,
        )

    # 1. Decoding: unknown fields.

    def metadata_unknown(self, obj: dict[str, Any]) -> None:
        metadata = obj.get("metadata")
        if not isinstance(metadata, dict):
            return
        for key in sorted(k for k in metadata if k not in OBJECT_META_FIELDS):
            path = f"metadata.{key}"
            self.meta_unknown.append(self._unknown(metadata, key, path, sorted(OBJECT_META_FIELDS)))

    def prune(self, value: Any, index: int | None, path: str, root: bool = False) -> None:
        """pruning/algorithm.go prune: every field the schema does not know."""
        node = self.node(index)
        if node is not None and node.get("x-kubernetes-preserve-unknown-fields"):
            self._skip_prune(value, node, path)
            return
        if isinstance(value, dict):
            embedded = root or (node is not None and node.get("x-kubernetes-embedded-resource"))
            properties = node.get("properties", {}) if node else {}
            extra = node.get("additionalProperties") if node else None
            for key, child in value.items():
                if not isinstance(key, str):
                    continue
                if embedded and key in META_FIELDS:
                    continue
                child_path = _child(path, key)
                if key in properties:
                    self.prune(child, properties[key], child_path)
                elif isinstance(extra, int) and not isinstance(extra, bool):
                    self.prune(child, extra, child_path)
                elif extra is True:
                    self.prune(child, None, child_path)
                else:
                    self.unknown.append(self._unknown(value, key, child_path, list(properties)))
        elif isinstance(value, list):
            items = node.get("items") if node else None
            for position, child in enumerate(value):
                self.prune(child, items, f"{path}[{position}]")

    def _skip_prune(self, value: Any, node: dict[str, Any], path: str) -> None:
        if isinstance(value, dict):
            properties = node.get("properties", {})
            extra = node.get("additionalProperties")
            for key, child in value.items():
                if node.get("x-kubernetes-embedded-resource") and key in META_FIELDS:
                    continue
                if key in properties:
                    self.prune(child, properties[key], _child(path, key))
                elif isinstance(extra, int) and not isinstance(extra, bool):
                    self.prune(child, extra, _child(path, key))
        elif isinstance(value, list) and node.get("items") is not None:
            items = self.node(node["items"])
            for position, child in enumerate(value):
                if items is not None and items.get("x-kubernetes-preserve-unknown-fields"):
                    self._skip_prune(child, items, f"{path}[{position}]")
                else:
                    self._skip_prune(child, items or {}, f"{path}[{position}]")

    # 3a. Metadata.

    def metadata(self, obj: dict[str, Any]) -> None:
        metadata = obj.get("metadata")
        if not isinstance(metadata, dict):
            return
        problems = self.meta_problems

        def problem(
            error: str, field: str, where: tuple[Any, Any, bool], kind: str, value: Any, detail: str
        ) -> None:
            """A problem of `metadata.FIELD`, at `where` (holder, index, whether at its key)."""
            path = f"metadata.{field}"
            holder, index, at_key = where
            problems.append(
                SchemaProblem(
                    error=error,
                    path=path,
                    location=_place(holder, index, key=at_key, fallback=self.start),
                    text=texts.field_error(path, kind, value, detail),
                )
            )

        def invalid(field: str, value: Any, message: str, holder: Any, key: Any) -> None:
            problem(SchemaError.NAME, field, (holder, key, False), texts.INVALID, value, message)

        name = metadata.get("name")
        generate = metadata.get("generateName")
        if isinstance(generate, str) and generate:
            for message in texts.name_messages(generate, prefix=True):
                invalid("generateName", generate, message, metadata, "generateName")
        if not (isinstance(name, str) and name):
            if not (isinstance(generate, str) and generate):
                where = (obj, "metadata", True)
                problem(
                    SchemaError.REQUIRED, "name", where, texts.REQUIRED, None, texts.NAME_REQUIRED
                )
        else:
            for message in texts.name_messages(name):
                invalid("name", name, message, metadata, "name")
        namespace = metadata.get("namespace")
        if self.schema.namespaced and isinstance(namespace, str) and namespace:
            for message in texts.namespace_messages(namespace):
                invalid("namespace", namespace, message, metadata, "namespace")
        labels = metadata.get("labels")
        if isinstance(labels, dict):
            for key in sorted(k for k in labels if isinstance(k, str)):
                for message in texts.label_key_messages(key):
                    invalid("labels", key, message, labels, key)
                value = labels[key]
                if isinstance(value, str):
                    for message in texts.label_value_messages(value):
                        invalid("labels", value, message, labels, key)
        annotations = metadata.get("annotations")
        if isinstance(annotations, dict):
            keys = sorted(k for k in annotations if isinstance(k, str))
            for key in keys:
                for message in texts.label_key_messages(key.lower()):
                    invalid("annotations", key, message, annotations, key)
            size = sum(
                len(k.encode()) + len(v.encode())
                for k, v in annotations.items()
                if isinstance(k, str) and isinstance(v, str)
            )
            if size > texts.ANNOTATIONS_SIZE_LIMIT:
                detail = texts.TOO_LONG_DETAIL.format(
                    max=texts.ANNOTATIONS_SIZE_LIMIT, unit="bytes"
                )
                where = (metadata, "annotations", False)
                problem(SchemaError.MAX_LENGTH, "annotations", where, texts.TOO_LONG, None, detail)

    # 3b. The OpenAPI schema (kube-openapi's SchemaValidator).

    def _add(self, error: str, path: str, where: _Place, text: str) -> None:
        if not isinstance(where, Location):
            holder, index, key = where
            where = _place(holder, index, key=key, fallback=self.start)
        self.problems.append(SchemaProblem(error=error, path=path, location=where, text=text))

    def _invalid(self, error: str, path: str, where: _Place, value: Any, message: str) -> None:
        self._add(error, path, where, texts.field_error(path, texts.INVALID, value, message))

    def _over(
        self,
        error: str,
        path: str,
        where: _Place,
        value: Any,
        limit: int,
        over: tuple[str, str, str, str],
    ) -> None:
        """field.TooLong or field.TooMany (`over`: `_TOO_LONG`, `_TOO_MANY`): more than `limit`."""
        kind, detail, one, more = over
        said = detail.format(max=limit, unit=one if limit == 1 else more)
        self._add(error, path, where, texts.field_error(path, kind, value, said))

    def _type_error(
        self, path: str, where: _Place, expected: str, data: str, error: str = SchemaError.TYPE
    ) -> None:
        """InvalidType with a string value, mapped to field.TypeInvalid."""
        message = texts.TYPE_WITH_DATA.format(path=path, type=expected, data=texts.go_quote(data))
        self._invalid(error, path, where, data, message)

    def validate(
        self,
        value: Any,
        index: int | None,
        path: str,
        where: _Place,
        root: bool = False,
        key_where: _Place | None = None,
    ) -> bool:
        """Validate `value` (as pruned) against the node; whether it passed.
        `where` is the value's place, `key_where` its key's (a missing required
        field is shown at the key of the mapping that lacks it)."""
        node = self.node(index)
        if node is None:
            return True
        before = len(self.problems)
        types = _types(node)
        if value is None:
            if types and not node.get("nullable"):
                self._type_error(path, where, ",".join(types), "null")
            if "enum" in node:
                self._enum(value, node, path, where)
            return len(self.problems) == before
        self._type(value, node, types, path, where)
        if "anyOf" in node:
            self._any_of(value, node, path, where)
        if isinstance(value, str):
            self._string(value, node, path, where)
            self._format(value, node, path, where)
        if isinstance(value, int | float) and not isinstance(value, bool):
            self._number(value, node, path, where)
        if isinstance(value, list):
            self._items(value, node, path)
        if "enum" in node:
            self._enum(value, node, path, where)
        if isinstance(value, dict):
            self._object(value, node, path, where, root, key_where or where)
        return len(self.problems) == before

    def _type(self, value: Any, node: dict, types: list[str], path: str, where: _Place) -> None:
        """validate/type.go typeValidator.Validate."""
        fmt = node.get("format", "")
        if not types and not fmt:
            return
        data, go_format = _json_kind(value)
        float_int = data == "number" and float(value).is_integer() and "integer" in types
        int_float = data == "integer" and "number" in types
        if (
            not isinstance(value, str | list)
            and fmt
            and not (data in types or go_format == fmt or float_int or int_float)
        ):
            self._type_error(path, where, fmt, go_format)
            return
        numeric = "number" in types or "integer" in types
        if not numeric and fmt and isinstance(value, str | list):
            return
        if types and not (data in types or float_int or int_float):
            self._type_error(path, where, ",".join(types), data)

    def _any_of(self, value: Any, node: dict, path: str, where: _Place) -> None:
        """schema_props.go: the first branch that passes, else `must validate at
        least one schema (anyOf)` and the first failing branch's errors."""
        failures: list[SchemaProblem] | None = None
        for branch in node["anyOf"]:
            saved = self.problems
            self.problems = []
            passed = self.validate(value, branch, path, where)
            found, self.problems = self.problems, saved
            if passed:
                return
            if failures is None:
                failures = found
        message = texts.ANY_OF.format(path=texts.go_quote(path))
        self._add(
            SchemaError.ANY_OF,
            path,
            where,
            texts.field_error(texts.NO_PATH, texts.INVALID, "", message),
        )
        self.problems += failures or []

    def _string(self, value: str, node: dict, path: str, where: _Place) -> None:
        """validator.go stringValidator: the first of maxLength, minLength, pattern."""
        if "maxLength" in node and len(value) > node["maxLength"]:
            self._over(SchemaError.MAX_LENGTH, path, where, None, node["maxLength"], _TOO_LONG)
            return
        if "minLength" in node and len(value) < node["minLength"]:
            message = texts.TOO_SHORT.format(path=path, min=node["minLength"])
            self._invalid(SchemaError.MIN_LENGTH, path, where, value, message)
            return
        pattern = node.get("pattern")
        if pattern is not None and not _pattern(pattern).search(value):
            message = texts.PATTERN.format(path=path, pattern=pattern)
            self._invalid(SchemaError.PATTERN, path, where, value, message)

    def _format(self, value: str, node: dict, path: str, where: _Place) -> None:
        fmt = node.get("format")
        if fmt and _valid_format(fmt, value) is False:
            self._type_error(path, where, fmt, value, SchemaError.FORMAT)

    def _number(self, value: float, node: dict, path: str, where: _Place) -> None:
        """validator.go numberValidator: multipleOf, then minimum, then maximum."""
        whole = isinstance(value, int)

        def bound(limit: float) -> str:
            return str(int(limit)) if whole else texts.go_float(float(limit))

        factor = node.get("multipleOf")
        if factor and (value / factor) != int(value / factor):
            message = texts.MULTIPLE_OF.format(path=path, factor=bound(factor))
            self._invalid(SchemaError.MULTIPLE_OF, path, where, value, message)
        if "minimum" in node:
            low, exclusive = node["minimum"], node.get("exclusiveMinimum", False)
            limit = int(low) if whole else low
            if value < limit or (exclusive and value == limit):
                template = texts.MINIMUM_EXCLUSIVE if exclusive else texts.MINIMUM
                message = template.format(path=path, min=bound(low))
                self._invalid(SchemaError.MINIMUM, path, where, value, message)
        if "maximum" in node:
            high, exclusive = node["maximum"], node.get("exclusiveMaximum", False)
            limit = int(high) if whole else high
            if value > limit or (exclusive and value == limit):
                template = texts.MAXIMUM_EXCLUSIVE if exclusive else texts.MAXIMUM
                message = template.format(path=path, max=bound(high))
                self._invalid(SchemaError.MAXIMUM, path, where, value, message)

    def _items(self, value: list, node: dict, path: str) -> None:
        """slice_validator.go: each item, then minItems, then maxItems."""
        items = node.get("items")
        if items is not None:
            for position, item in enumerate(value):
                self.validate(item, items, f"{path}[{position}]", (value, position, False))
        where: _Place = (value, None, False)
        if "minItems" in node and len(value) < node["minItems"]:
            message = texts.MIN_ITEMS.format(path=path, min=node["minItems"])
            self._invalid(SchemaError.MIN_ITEMS, path, where, len(value), message)
        if "maxItems" in node and len(value) > node["maxItems"]:
            self._over(SchemaError.MAX_ITEMS, path, where, len(value), node["maxItems"], _TOO_MANY)

    def _enum(self, value: Any, node: dict, path: str, where: _Place) -> None:
        """A value outside the enum: field.NotSupported with the allowed values."""
        allowed = node["enum"]
        if any(_same(value, choice) for choice in allowed):
            return
        shown = [c if isinstance(c, str) else texts.go_json(c) for c in allowed]
        detail = texts.SUPPORTED_VALUES + ", ".join(texts.go_quote(s) for s in shown)
        text = texts.field_error(path, texts.UNSUPPORTED, value, detail)
        self._add(SchemaError.ENUM, path, where, text)

    def _object(
        self, value: dict, node: dict, path: str, where: _Place, root: bool, key_where: _Place
    ) -> None:
        """object_validator.go: properties, then required."""
        count = len(value)
        if "minProperties" in node and count < node["minProperties"]:
            message = texts.MIN_PROPERTIES.format(path=path, min=node["minProperties"])
            self._invalid(SchemaError.MIN_PROPERTIES, path, where, count, message)
        if "maxProperties" in node and count > node["maxProperties"]:
            limit = node["maxProperties"]
            detail = texts.TOO_MANY_DETAIL.format(max=limit, unit="item" if limit == 1 else "items")
            self._add(
                SchemaError.MAX_PROPERTIES,
                path,
                where,
                texts.field_error(path, texts.TOO_MANY, count, detail),
            )
        properties = node.get("properties", {})
        extra = node.get("additionalProperties")
        present = set()
        for key, child in value.items():
            if not isinstance(key, str) or (root and key in ("metadata",)):
                continue
            known = properties.get(key)
            target = known
            if target is None and isinstance(extra, int) and not isinstance(extra, bool):
                target = extra
            if known is None and target is None:
                continue  # pruned
            child_node = self.node(target)
            if child is None and not child_node.get("nullable"):
                continue  # dropped as a null the schema does not allow (prunenulls.go)
            present.add(key)
            self.validate(
                child,
                target,
                _child(path, key),
                (value, key, False),
                key_where=(value, key, True),
            )
        for required in node.get("required", ()):
            if required in present:
                continue
            default = self.node(properties.get(required)) if required in properties else None
            if default is not None and "default" in default:
                continue  # the server fills it in before validating
            self._add(
                SchemaError.REQUIRED,
                _child(path, required),
                key_where,
                texts.field_error(_child(path, required), texts.REQUIRED),
            )

    # 3c. x-kubernetes-list-type: map (listtype/validation.go).

    def list_maps(self, value: Any, index: int | None, path: str) -> None:
        node = self.node(index)
        if node is None:
            return
        if isinstance(value, dict):
            properties = node.get("properties", {})
            extra = node.get("additionalProperties")
            for key, child in value.items():
                if key in properties:
                    self.list_maps(child, properties[key], _child(path, key))
                elif isinstance(extra, int) and not isinstance(extra, bool):
                    self.list_maps(child, extra, f"{path}[{key}]")
        elif isinstance(value, list):
            if node.get("x-kubernetes-list-type") == "map":
                self._list_map(value, node, path)
            if node.get("items") is not None:
                for position, item in enumerate(value):
                    self.list_maps(item, node["items"], f"{path}[{position}]")

    def _list_map(self, value: list, node: dict, path: str) -> None:
        keys = node.get("x-kubernetes-list-map-keys", [])
        seen: dict[str, int] = {}
        for position, item in enumerate(value):
            if not isinstance(item, dict):
                continue
            key = {k: item[k] for k in keys if k in item}
            shown: Any = key
            if len(keys) == 1:
                shown = key if key else {}
            marker = texts.go_json(key)
            seen[marker] = seen.get(marker, 0) + 1
            if seen[marker] == 2:
                item_path = f"{path}[{position}]"
                self.duplicates.append(
                    SchemaProblem(
                        error=SchemaError.DUPLICATE,
                        path=item_path,
                        location=_place(value, position, key=False, fallback=self.start),
                        text=texts.field_error(item_path, texts.DUPLICATE, shown),
                    )
                )


def _same(value: Any, choice: Any) -> bool:
    """reflect.DeepEqual after conversion, as basicCommonValidator compares."""
    if isinstance(value, bool) or isinstance(choice, bool):
        return type(value) is type(choice) and value == choice
    if isinstance(value, int | float) and isinstance(choice, int | float):
        return value == choice
    return type(value) is type(choice) and value == choice
