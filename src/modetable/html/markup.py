"""HTML built by plain functions: every value escaped, a page that stands alone.

Manifest values are hostile input: a name may hold `<script>`, quotes or a
terminal escape. `text` escapes the markup characters and shows every
character that is not printable (controls, bidirectional overrides) as its
escape sequence, so nothing a manifest holds can become markup or move text.
The page's Content-Security-Policy allows its own script and style alone (by
hash) and no request at all: even a value that slipped through could neither
run nor fetch.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["asset", "attrs_text", "element", "json_island", "page", "text", "visible"]

# Kept as they are: a line break and a tab are layout, not content to hide.
_LAYOUT = "\n\t"
# `'` needs no escape: attributes are always written in double quotes.
_MARKUP = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}
_ESCAPED_AFTER_AMPERSAND = tuple(c for c in _MARKUP if c != "&")


def _shown(char: str) -> str:
    if char.isprintable() or char in _LAYOUT:
        return char
    return char.encode("unicode_escape").decode("ascii")


def visible(value: str) -> str:
    """`value` with every character that is not printable (a control, a
    bidirectional override) written as its escape (`\\x1b`, `\\u202e`): what
    the page's script draws as text, so nothing can hide or move text."""
    if value.isprintable():
        return value  # the common case, without a pass per character
    return "".join(_shown(c) for c in value)


def text(value: Any) -> str:
    """`value` as HTML text or an attribute value: shown as `visible` does, and
    the markup characters escaped."""
    string = visible("" if value is None else str(value))
    # str's own search and replace, not a pass per character: `&` first, so
    # the entities written after it are not escaped again.
    if "&" in string:
        string = string.replace("&", _MARKUP["&"])
    for char in _ESCAPED_AFTER_AMPERSAND:
        if char in string:
            string = string.replace(char, _MARKUP[char])
    return string


def attrs_text(attributes: dict[str, Any]) -> str:
    """` name="value"` for each attribute; True gives the bare name, None and False none."""
    parts = []
    for name, value in attributes.items():
        if value is None or value is False:
            continue
        parts.append(f" {name}" if value is True else f' {name}="{text(value)}"')
    return "".join(parts)


def element(tag: str, content: str | Iterable[str] = "", **attributes: Any) -> str:
    """`<tag ...>content</tag>`; `content` is HTML already (escape text with `text`).
    An attribute's name is the keyword with `_` as `-` (`class_` for `class`)."""
    body = content if isinstance(content, str) else "".join(content)
    named = {_attribute_name(name): value for name, value in attributes.items()}
    return f"<{tag}{attrs_text(named)}>{body}</{tag}>"


@cache  # a page names a few attributes, tens of thousands of times
def _attribute_name(keyword: str) -> str:
    return keyword.rstrip("_").replace("_", "-")


def json_island(element_id: str, data: Any) -> str:
    """Data for the page's script as a JSON `<script type="application/json">`:
    never run, and `<` written as `\\u003c`, so no value can close the element."""
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="{text(element_id)}">{payload}</script>'


@cache
def asset(name: str) -> str:
    """A file of `assets/` (the page's style and script), as package data."""
    return resources.files("modetable.html").joinpath("assets").joinpath(name).read_text("utf-8")


def _digest(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def page(title: str, body: str, *, style: str, script: str | None = None) -> str:
    """A whole page that needs nothing else: its style and script inline, and a
    policy that lets the browser load nothing else (no request leaves the page)."""
    scripts = _digest(script) if script is not None else "'none'"
    policy = (
        f"default-src 'none'; style-src {_digest(style)}; script-src {scripts}; "
        "img-src 'none'; base-uri 'none'; form-action 'none'"
    )
    tail = f"<script>{script}</script>\n" if script is not None else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{text(policy)}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{text(title)}</title>\n<style>{style}</style>\n</head>\n"
        f"<body>\n{body}\n{tail}</body>\n</html>\n"
    )
