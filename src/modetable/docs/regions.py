"""Generated regions of a Markdown page, and splicing new content into them.

A region is the lines between two visible markers, each alone on its line:

    <!-- BEGIN modetable:NAME [key=value ...] -->
    ...generated...
    <!-- END modetable:NAME -->

Everything outside the regions, the marker lines included, is kept byte for
byte. Only a marker CommonMark reads as HTML counts (markdown-it-py, with
CommonMark's rules, decides): in a code block, fenced or indented (in a list
item too), it is text, so a page can show one; in `code spans` too. A marker
that is part of a paragraph line (after other text, or after a character such
as U+2028 that CommonMark does not take for a line end) is an error, not a
region. Lines end where CommonMark ends them: at \n, \r\n or \r only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from modetable.errors import ErrorList, Location, ModetableError
from modetable.settled import frozen

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

__all__ = ["Region", "find_regions", "splice", "split_lines"]

_MARKER = re.compile(r"<!--\s*(BEGIN|END)\s+modetable:")
# A page may begin with a byte-order mark: it stays, and the marker still counts.
_BEGIN = re.compile(
    r"^\ufeff?[ \t]*<!--[ \t]*BEGIN[ \t]+modetable:(?P<name>[a-z0-9-]+)"
    r"(?P<args>(?:[ \t]+[a-z_]+=[^\s=]+)*)[ \t]*-->[ \t]*$"
)
_END = re.compile(
    r"^\ufeff?[ \t]*<!--[ \t]*END[ \t]+modetable:(?P<name>[a-z0-9-]+)[ \t]*-->[ \t]*$"
)
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)")


@frozen
class Region:
    """One generated region: its name, its options, and the lines it spans."""

    name: str
    args: dict[str, str]
    begin: int  # index of the BEGIN line
    end: int  # index of the END line
    location: Location
    newline: str


# CommonMark's line endings; not str.splitlines's (U+2028, NEL, FF, VT are text).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def split_lines(text: str) -> list[str]:
    """The lines of `text`, each with its own line ending (\\n, \\r\\n or \\r)."""
    return _LINE.findall(text)


def _line_ending(line: str) -> str:
    for ending in ("\r\n", "\n", "\r"):
        if line.endswith(ending):
            return ending
    return ""


# What CommonMark makes of each line, as far as markers go.
_CODE, _HTML, _TEXT = "code", "html", "text"
_KINDS = {"fence": _CODE, "code_block": _CODE, "html_block": _HTML}


@functools.cache
def _block_parser() -> MarkdownIt:
    """CommonMark's block structure alone: which lines are code or HTML is
    decided there; the inline rules (emphasis, links, code spans), most of a
    full parse's time, only fill in the blocks' content, which is not read."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").disable("inline")


def _line_kinds(text: str, count: int) -> list[str]:
    """For each of the `count` lines of `text`: code (in a code block, fenced or
    indented, at any depth of lists and quotes), html (in an HTML block: where a
    marker counts) or text (a paragraph, a heading, a blank line)."""
    kinds = [_TEXT] * count
    # A byte-order mark is no text to CommonMark; the lines stay where they are.
    for token in _block_parser().parse(text.removeprefix("\ufeff")):
        kind = _KINDS.get(token.type)
        if kind is not None and token.map is not None:
            start, end = token.map
            kinds[start : min(end, count)] = [kind] * (min(end, count) - start)
    return kinds


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def find_regions(text: str, file: str, known: Callable[[str], bool]) -> list[Region]:
    """Every region of a page, in order; every malformed marker is an error."""
    if "modetable:" not in text:
        return []  # no line can mention a marker (below)
    lines = split_lines(text)
    # The lines that mention a marker, wherever they stand: only these are
    # read, so a page without one (most) is not parsed as Markdown at all.
    mentions = []
    for index, raw in enumerate(lines):
        if "modetable:" not in raw:
            continue  # what _MARKER needs, which blanking code spans cannot add
        line = raw.rstrip("\r\n")
        # A marker written in `code` is prose about markers, not one.
        mention = _MARKER.search(_CODE_SPAN.sub(_blank, line))
        if mention is not None:
            mentions.append((index, line, mention))
    if not mentions:
        return []
    kinds = _line_kinds(text, len(lines))
    regions: list[Region] = []
    errors: list[ModetableError] = []
    current: tuple[str, dict[str, str], int, Location, str] | None = None
    for index, line, mention in mentions:
        if kinds[index] == _CODE:
            continue
        where = Location(file, index + 1, mention.start() + 1)
        counts = kinds[index] == _HTML
        begin = _BEGIN.match(line) if counts else None
        end = _END.match(line) if counts else None
        if begin:
            if current is not None:
                errors.append(
                    ModetableError(f"region {current[0]!r} is not closed before this one", where)
                )
            name = begin.group("name")
            args = dict(part.split("=", 1) for part in begin.group("args").split())
            if not known(name):
                errors.append(ModetableError(f"unknown generated region {name!r}", where))
            current = (name, args, index, where, _line_ending(lines[index]) or "\n")
        elif end:
            name = end.group("name")
            if current is None:
                errors.append(ModetableError(f"END of region {name!r} without a BEGIN", where))
            elif current[0] != name:
                errors.append(
                    ModetableError(f"END of region {name!r} closes region {current[0]!r}", where)
                )
                current = None
            else:
                regions.append(Region(name, current[1], current[2], index, current[3], current[4]))
                current = None
        else:
            errors.append(
                ModetableError(
                    "malformed marker: write <!-- BEGIN modetable:NAME --> or "
                    "<!-- END modetable:NAME --> alone on its line",
                    where,
                )
            )
    if current is not None:
        errors.append(ModetableError(f"region {current[0]!r} is never closed (no END)", current[3]))
    if errors:
        raise ErrorList(errors) if len(errors) > 1 else errors[0]
    return regions


def splice(text: str, regions: list[Region], contents: list[str]) -> str:
    """`text` with each region's lines replaced by its new content.

    The content is set off by a blank line on each side (so Markdown never reads
    it as part of the comment), in the line ending of the region's BEGIN line.
    """
    if not regions:
        return text  # its lines, joined again
    lines = split_lines(text)
    out: list[str] = []
    position = 0
    for region, content in zip(regions, contents, strict=True):
        out.extend(lines[position : region.begin + 1])
        if not lines[region.begin].endswith(("\n", "\r")):
            out.append(region.newline)
        body = content if content.endswith("\n") or not content else content + "\n"
        body = body.replace("\n", region.newline) if region.newline != "\n" else body
        out.append(region.newline + body + region.newline)
        position = region.end
    out.extend(lines[position:])
    return "".join(out)
