"""Text from inputs as modetable prints it: every character a terminal would act
on, or that would break a line, written as an escape.

A manifest value or a file name can hold terminal escapes (`\\x1b[2J`), NUL,
newlines, carriage returns, bidirectional overrides or bytes that are not
UTF-8 (a file name, kept by Python as lone surrogates). Printed raw they could
forge a table row, a warning line, or rewrite the screen; written out as JSON
they would not encode. `escape` turns each into visible text, and leaves
everything else, non-ASCII letters included, as it is.
"""

from __future__ import annotations

__all__ = ["escape", "quote", "shorten"]

# The escapes people know; any other character that is not printable is shown
# by its code (`\x1b`, `\u2028`), and a byte that was not UTF-8 by its value.
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0"}
_SURROGATES = range(0xDC80, 0xDD00)  # bytes 0x80-0xff kept by surrogateescape


def _escaped(char: str) -> str:
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if code in _SURROGATES:
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escape(text: str) -> str:
    """`text` with every character that is not printable (a space is) escaped."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escaped(c) for c in text)


def shorten(text: str, limit: int = 40) -> str:
    """At most `limit` characters: a long value is cut, with `...`."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quote(text: str, limit: int = 40) -> str:
    """`text` in single quotes, shortened and escaped, as messages quote a value."""
    return "'" + escape(shorten(text, limit)) + "'"
