"""Markdown that stays valid whatever a cell holds.

Tables come from tabulate's GitHub format. A cell may hold `|` or a newline:
outside code a `|` is escaped (`\\|`) and a newline becomes `<br>`; a code span
holding either becomes an HTML `<code>` element, because a backslash inside
backquotes is literal in some Markdown dialects and a separator in others.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from tabulate import tabulate

__all__ = ["bullets", "cell", "code", "table", "words"]

# A code span: a run of backquotes, the shortest text, the same run again.
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_NEWLINE = re.compile(r"\r\n|\r|\n")


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
