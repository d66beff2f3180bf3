"""The Kubernetes API server's texts for what it refuses in a custom resource,
and Go's way of printing the values in them.

Every text is Kubernetes v1.35's, taken from its sources (the staging
repositories at their v0.35.0 tags):

- apimachinery 72d71eac (v0.35.0): pkg/util/validation/field/errors.go
  (Error.Error, ErrorBody, Required, Invalid, TypeInvalid, NotSupported,
  TooLong, TooMany, Duplicate), pkg/util/errors/errors.go (aggregate.Error),
  pkg/api/errors/errors.go (NewInvalid), pkg/runtime/error.go
  (strictDecodingError), pkg/util/validation/validation.go (IsDNS1123Label,
  IsDNS1123Subdomain, RegexError, MaxLenError), pkg/api/validate/content/kube.go
  (IsLabelKey, IsLabelValue), pkg/api/validation/generic.go (NameIsDNSSubdomain,
  maskTrailingDash), pkg/api/validation/objectmeta.go (ValidateObjectMetaAccessor).
- kube-openapi 589584f1 (the one apiextensions-apiserver v0.35.0 requires):
  pkg/validation/errors/schema.go (the `... in body ...` texts),
  pkg/validation/validate/schema_messages.go (`must validate at least one
  schema (anyOf)`).
- apiextensions-apiserver a8d2a03a (v0.35.0): pkg/apiserver/validation/
  validation.go (kubeOpenAPIResultToFieldErrors: which schema error becomes
  which field error), pkg/apiserver/customresource_handler.go
  (schemaCoercingDecoder: `unknown field "%s"`).
- apiserver v0.35.0: pkg/endpoints/handlers/rest.go (transformDecodeError:
  `%s in version %q cannot be handled as a %s: %v`).
- kubectl v0.35.0: pkg/cmd/util/helpers.go (checkErr, MultilineError,
  StandardErrorMessage, AddSourceToErr).
"""

from __future__ import annotations

import json
import math
import re

from modetable.text.templates import go_quoted_inner

__all__ = [
    "ANNOTATIONS_SIZE_LIMIT",
    "ANY_OF",
    "CANNOT_HANDLE",
    "DNS_LABEL_FORMAT",
    "DNS_LABEL_MESSAGE",
    "DNS_SUBDOMAIN_FORMAT",
    "DNS_SUBDOMAIN_MESSAGE",
    "DUPLICATE",
    "FORBIDDEN",
    "INVALID",
    "INVALID_STATUS",
    "KUBECTL_FROM_SERVER",
    "KUBECTL_INVALID",
    "KUBECTL_SOURCE",
    "KUBECTL_WARNING",
    "LABEL_KEY_FORMAT",
    "LABEL_KEY_MESSAGE",
    "LABEL_VALUE_FORMAT",
    "LABEL_VALUE_MESSAGE",
    "MAXIMUM",
    "MAXIMUM_EXCLUSIVE",
    "MAX_ITEMS",
    "MAX_PROPERTIES",
    "MINIMUM",
    "MINIMUM_EXCLUSIVE",
    "MIN_ITEMS",
    "MIN_PROPERTIES",
    "MULTIPLE_OF",
    "NAME_REQUIRED",
    "NO_PATH",
    "PATTERN",
    "REQUIRED",
    "STRICT_DECODING",
    "SUPPORTED_VALUES",
    "TOO_LONG",
    "TOO_LONG_DETAIL",
    "TOO_LONG_OPENAPI",
    "TOO_MANY",
    "TOO_MANY_DETAIL",
    "TOO_SHORT",
    "TYPE_PLAIN",
    "TYPE_WITH_DATA",
    "UNKNOWN_FIELD",
    "UNSUPPORTED",
    "aggregate",
    "field_error",
    "go_float",
    "go_json",
    "go_quote",
    "go_value",
    "label_key_messages",
    "label_value_messages",
    "name_messages",
    "namespace_messages",
]

# field.ErrorType.String() for the types a schema check gives.
REQUIRED = "Required value"
INVALID = "Invalid value"
UNSUPPORTED = "Unsupported value"
TOO_LONG = "Too long"
TOO_MANY = "Too many"
DUPLICATE = "Duplicate value"
FORBIDDEN = "Forbidden"

# kube-openapi pkg/validation/errors/schema.go, with `in` = "body".
TYPE_WITH_DATA = "{path} in body must be of type {type}: {data}"
TYPE_PLAIN = "{path} in body must be of type {type}"
TOO_LONG_OPENAPI = "{path} in body should be at most {max} chars long"
TOO_SHORT = "{path} in body should be at least {min} chars long"
PATTERN = "{path} in body should match '{pattern}'"
MAXIMUM = "{path} in body should be less than or equal to {max}"
MAXIMUM_EXCLUSIVE = "{path} in body should be less than {max}"
MINIMUM = "{path} in body should be greater than or equal to {min}"
MINIMUM_EXCLUSIVE = "{path} in body should be greater than {min}"
MULTIPLE_OF = "{path} in body should be a multiple of {factor}"
MAX_ITEMS = "{path} in body should have at most {max} items"
MIN_ITEMS = "{path} in body should have at least {min} items"
MAX_PROPERTIES = "{path} in body should have at most {max} properties"
MIN_PROPERTIES = "{path} in body should have at least {min} properties"
# schema_messages.go MustValidateAtLeastOneSchemaError ("%q must ...").
ANY_OF = "{path} must validate at least one schema (anyOf)"
# A schema error that is not a *Validation (anyOf) becomes field.Invalid(nil,
# "", err): a field.Path that is nil prints as "<nil>".
NO_PATH = "<nil>"

# field.NotSupported's detail, before the quoted values.
SUPPORTED_VALUES = "supported values: "
# field.TooLong, field.TooMany details.
TOO_LONG_DETAIL = "may not be more than {max} {unit}"
TOO_MANY_DETAIL = "must have at most {max} {unit}"

# customresource_handler.go and runtime/error.go.
UNKNOWN_FIELD = 'unknown field "{path}"'
STRICT_DECODING = "strict decoding error: "
# rest.go transformDecodeError.
CANNOT_HANDLE = "{kind} in version {version} cannot be handled as a {kind}: {error}"
# errors.go NewInvalid (the Status message) and kubectl's rendering of it.
INVALID_STATUS = "{kind}.{group} {name} is invalid: {errors}"
KUBECTL_INVALID = "The {kind} {name} is invalid: "
KUBECTL_FROM_SERVER = "Error from server ({reason}): {message}"
KUBECTL_SOURCE = "error when {verb} {source}: {message}"
KUBECTL_WARNING = "Warning: {message}"

# Names (objectmeta.go, generic.go, validation.go, content/kube.go).
NAME_REQUIRED = "name or generateName is required"
DNS_LABEL_FORMAT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS_SUBDOMAIN_FORMAT = DNS_LABEL_FORMAT + "(\\." + DNS_LABEL_FORMAT + ")*"
DNS_LABEL_MESSAGE = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
    "and must start and end with an alphanumeric character"
)
DNS_SUBDOMAIN_MESSAGE = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
    "'-' or '.', and must start and end with an alphanumeric character"
)
LABEL_KEY_FORMAT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
LABEL_KEY_MESSAGE = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
    "an alphanumeric character"
)
LABEL_VALUE_FORMAT = "(" + LABEL_KEY_FORMAT + ")?"
LABEL_VALUE_MESSAGE = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' "
    "or '.', and must start and end with an alphanumeric character"
)
ANNOTATIONS_SIZE_LIMIT = 256 * (1 << 10)

_DNS_LABEL = re.compile(DNS_LABEL_FORMAT)
_DNS_SUBDOMAIN = re.compile(DNS_SUBDOMAIN_FORMAT)
_LABEL_KEY = re.compile(LABEL_KEY_FORMAT)
_LABEL_VALUE = re.compile(LABEL_VALUE_FORMAT)


def _max_len(length: int) -> str:
    return f"must be no more than {length} characters"


def _regex_error(message: str, fmt: str, *examples: str) -> str:
    if not examples:
        return f"{message} (regex used for validation is '{fmt}')"
    shown = " or ".join(f"'{example}', " for example in examples)
    return f"{message} (e.g. {shown}regex used for validation is '{fmt}')"


def _too_long(value: str, length: int) -> list[str]:
    """The length error of a value longer than `length` bytes, or none."""
    return [_max_len(length)] if len(value.encode("utf-8")) > length else []


def _dns_subdomain(value: str) -> list[str]:
    errors = _too_long(value, 253)
    if not _DNS_SUBDOMAIN.fullmatch(value):
        errors.append(_regex_error(DNS_SUBDOMAIN_MESSAGE, DNS_SUBDOMAIN_FORMAT, "example.com"))
    return errors


def _dns_label(value: str) -> list[str]:
    errors = _too_long(value, 63)
    if not _DNS_LABEL.fullmatch(value):
        if _DNS_SUBDOMAIN.fullmatch(value):
            errors.append("must not contain dots")
        else:
            errors.append(_regex_error(DNS_LABEL_MESSAGE, DNS_LABEL_FORMAT, "my-name", "123-abc"))
    return errors


def _mask_trailing_dash(name: str) -> str:
    """generic.go maskTrailingDash: a generateName may end in a dash."""
    if len(name) > 1 and name.endswith("-"):
        return name[:-2] + "a"
    return name


def name_messages(name: str, prefix: bool = False) -> list[str]:
    """NameIsDNSSubdomain: what is wrong with a custom resource's name."""
    return _dns_subdomain(_mask_trailing_dash(name) if prefix else name)


def namespace_messages(namespace: str) -> list[str]:
    """ValidateNamespaceName (NameIsDNSLabel)."""
    return _dns_label(namespace)


def label_key_messages(key: str) -> list[str]:
    """content.IsLabelKey (IsQualifiedName)."""
    errors: list[str] = []
    parts = key.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errors.append("prefix part must be non-empty")
        else:
            errors += ["prefix part " + m for m in _dns_subdomain(prefix)]
    else:
        example = _regex_error(LABEL_KEY_MESSAGE, LABEL_KEY_FORMAT, "MyName", "my.name", "123-abc")
        return [
            f"a valid label key {example} with an optional DNS subdomain prefix and '/' "
            "(e.g. 'example.com/MyName')"
        ]
    if not name:
        errors.append("name part must be non-empty")
    elif len(name.encode("utf-8")) > 63:
        errors.append("name part " + _max_len(63))
    if not _LABEL_KEY.fullmatch(name):
        errors.append(
            "name part "
            + _regex_error(LABEL_KEY_MESSAGE, LABEL_KEY_FORMAT, "MyName", "my.name", "123-abc")
        )
    return errors


def label_value_messages(value: str) -> list[str]:
    """content.IsLabelValue."""
    errors = _too_long(value, 63)
    if not _LABEL_VALUE.fullmatch(value):
        errors.append(
            _regex_error(LABEL_VALUE_MESSAGE, LABEL_VALUE_FORMAT, "MyValue", "my_value", "12345")
        )
    return errors


def go_quote(text: str) -> str:
    """`text` as Go's %q writes it (strconv.Quote)."""
    return '"' + go_quoted_inner(text) + '"'


def go_float(value: float) -> str:
    """A float64 as Go's %v writes it: strconv's 'g' with the shortest digits
    that read back, an exponent below 1e-4 and from 1e6 on (`1e+06`)."""
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if math.isnan(value):
        return "NaN"
    if value == 0:
        return "-0" if math.copysign(1, value) < 0 else "0"
    from decimal import Decimal  # here: only a float written asks for it

    # repr gives the shortest round-trip digits, as Go's shortest formatting does.
    _, digit_tuple, exp = Decimal(repr(abs(value))).normalize().as_tuple()
    digits = "".join(map(str, digit_tuple))
    exponent = len(digits) + int(exp) - 1
    sign = "-" if value < 0 else ""
    if exponent < -4 or exponent >= 6:
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{mantissa}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"
    point = exponent + 1
    if point <= 0:
        text = "0." + "0" * -point + digits
    elif point >= len(digits):
        text = digits + "0" * (point - len(digits))
    else:
        text = digits[:point] + "." + digits[point:]
    return sign + text


def go_value(value: object) -> str:
    """A bad value as field.ErrorBody prints it: %v for numbers and booleans,
    %q for strings, JSON for the rest."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_float(value)
    if isinstance(value, str):
        return go_quote(value)
    return go_json(value)


def go_json(value: object) -> str:
    """json.Marshal: keys sorted, no spaces, <, > and & escaped."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def field_error(path: str, kind: str, value: object = None, detail: str = "") -> str:
    """field.Error.Error(): `path: Kind[: value][: detail]`. `value` None for
    the types printed without one (Required, Forbidden, Too long)."""
    body = kind if value is None else f"{kind}: {go_value(value)}"
    return f"{path}: {body}: {detail}" if detail else f"{path}: {body}"


def aggregate(messages: list[str]) -> str:
    """utilerrors aggregate.Error(): one message as it is, several in brackets,
    each once."""
    unique = list(dict.fromkeys(messages))
    if len(unique) == 1:
        return unique[0]
    return "[" + ", ".join(unique) + "]"
