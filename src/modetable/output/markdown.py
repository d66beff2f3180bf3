"""Markdown that stays valid whatever a cell holds.

Tables come from tabulate's GitHub format. A cell may hold `|` or a newline:
outside code a `|` is escaped (`\\|`) and a newline becomes `<br>`; a code span
holding either becomes an HTML `<code>` element, because a backslash inside
backquotes is literal in some Markdown dialects and a separator in others.

Text from input (a name, an annotation, a file name, a message that quotes
them) is never markup: `inert` writes it so that GitHub-flavoured Markdown
shows it as written, with no HTML, link, image, mention or code of its own.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from tabulate import tabulate

from modetable.text.shown import escape

__all__ = ["bullets", "cell", "code", "inert", "table", "words"]

# A code span: a run of backquotes, the shortest text, the same run again.
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_NEWLINE = re.compile(r"\r\n|\r|\n")

# What `inert` writes for each character that can begin markup in GitHub's
# Markdown. Backslash escapes where every dialect has them (mkdocs' too),
# entities elsewhere. `@` and `#` get a word joiner (U+2060, invisible): GitHub
# finds `@user`, `@org/team` and `#123` in the rendered text, where an entity
# or an escape is already decoded, and the joiner also breaks an email address
# (`a@b.co`), which GitHub would make a link.
_JOINER = "&#8288;"
_INERT = {
    "\\": "\\\\",
    "`": "&#96;",
    "*": "\\*",
    "_": "\\_",
    "[": "\\[",
    "]": "\\]",
    "~": "&#126;",
    "$": "&#36;",
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    "@": "@" + _JOINER,
    "#": "#" + _JOINER,
    # An autolink: `https://`, `ftp://`, `//host` (`scheme://` needs the two
    # slashes together) and `www.` (GitHub links either without `<>`).
    "//": "/&#47;",
}
# A backslash escapes only ASCII punctuation (or, last on a line, breaks it):
# one before a letter, as in `\\x1b`, is shown as it is.
_MARKUP = re.compile(r"//|\\(?=[!-/:-@\[-`{-~]|\Z)|[`*_\[\]~$&<>@#]|(?<=www)\.", re.IGNORECASE)
# What would begin a block where the text begins a line: a list item (`-`,
# `+`, `1.`, `1)`) or a setext underline (`=`).
_BLOCK_START = re.compile(r"[-+=]|[0-9]{1,9}[.)]")


def cell(text: str) -> str:
    """`text` as one table cell: no raw `|` or newline left to break the row."""
    parts = []
    position = 0
    for span in _CODE_SPAN.finditer(text):
        parts.append(_plain(text[position : span.start()]))
        parts.append(_code(span.group(0), span.group(2)))
        position = span.end()
    parts.append(_plain(text[position:]))
    return "".join(parts).strip()


def _plain(text: str) -> str:
    return _NEWLINE.sub("<br>", text.replace("|", "\\|"))


def _code(whole: str, content: str) -> str:
    if "|" not in content and not _NEWLINE.search(content):
        return whole
    # CommonMark strips one space on each side of a code span's content.
    if len(content) > 2 and content.startswith(" ") and content.endswith(" "):
        content = content[1:-1]
    escaped = html.escape(content, quote=False).replace("|", "&#124;")
    return "<code>" + _NEWLINE.sub("<br>", escaped) + "</code>"


def inert(text: str) -> str:
    """`text` from input as Markdown that shows it as written (every character
    that is not printable escaped, as `shown.escape` prints it) and is nothing
    but text: no HTML, entity, link, image, autolink, mention, issue
    reference, code span, emphasis or heading. It holds no line break; in a
    table cell, `cell` escapes its `|`."""
    shown = _MARKUP.sub(lambda found: _INERT.get(found.group(0), "&#46;"), escape(text))
    start = _BLOCK_START.match(shown)
    if start is None:
        return shown
    marker = start.end() - 1
    return f"{shown[:marker]}&#{ord(shown[marker])};{shown[marker + 1 :]}"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub-style pipe table, every cell made safe; ends with a newline."""
    text = tabulate(
        [[cell(value) for value in row] for row in rows],
        headers=[cell(header) for header in headers],
        tablefmt="github",
        disable_numparse=True,
    )
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def code(text: str) -> str:
    """`text` as a code span, with a fence longer than any backquote run inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def words(items: Sequence[str], conjunction: str) -> str:
    """`a`, `a or b`, `a, b, or c`: a list as an English phrase."""
    items = list(items)
    if len(items) <= 2:
        return f" {conjunction} ".join(items)
    return ", ".join(items[:-1]) + f", {conjunction} " + items[-1]


def bullets(items: Sequence[str]) -> str:
    return "".join(f"- {_NEWLINE.sub(' ', item)}\n" for item in items)
