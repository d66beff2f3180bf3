"""Message templates from the rules: `{name}` placeholders, nothing evaluated."""

from __future__ import annotations

import string
from collections.abc import Mapping
from functools import lru_cache

__all__ = ["fill", "go_quoted_inner", "placeholders"]

_FORMATTER = string.Formatter()


@lru_cache(maxsize=1024)
def placeholders(template: str) -> tuple[str, ...]:
    """The placeholder names in `template`; raises ValueError for anything but plain names."""
    names = []
    for _literal, field, spec, conversion in _FORMATTER.parse(template):
        if field is None:
            continue
        if not field.isidentifier() or spec or conversion:
            raise ValueError(f"placeholder {{{field}}} is not a plain name")
        names.append(field)
    return tuple(names)


def fill(template: str, values: Mapping[str, object]) -> str:
    """`template` with each `{name}` replaced by `values[name]`.

    Every template the rules hold is checked at load to have plain names only
    (`placeholders`: no attribute, index, format spec or conversion), so
    str.format_map reads it as nothing but names, in C: a fleet's audit fills
    hundreds of thousands of them."""
    return template.format_map(values)


_GO_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
    '"': '\\"',
}


def go_quoted_inner(value: object) -> str:
    """`value` as Go's %q prints a string, without the surrounding quotes:
    `"` and `\\` escaped, \\a \\b \\f \\n \\r \\t \\v as such, other characters
    Go does not print (control characters, spaces other than " ", unassigned
    code points) as \\xNN, \\uNNNN or \\UNNNNNNNN; printable ones as they are.
    Python's isprintable and Go's unicode.IsPrint agree: letters, marks,
    numbers, punctuation, symbols and the ASCII space."""
    out = []
    for char in str(value):
        escaped = _GO_ESCAPES.get(char)
        if escaped is not None:
            out.append(escaped)
        elif char.isprintable():
            out.append(char)
        else:
            code = ord(char)
            if code < 0x20 or code == 0x7F:
                out.append(f"\\x{code:02x}")
            elif code < 0x10000:
                out.append(f"\\u{code:04x}")
            else:
                out.append(f"\\U{code:08x}")
    return "".join(out)
