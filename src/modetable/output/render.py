"""Output: tables for people, JSON and YAML for programs."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any, TextIO

from modetable.text.shown import escape

__all__ = ["FORMATS", "counted", "dump", "line", "table", "yaml_dumper"]

FORMATS = ("table", "json", "yaml")


def dump(data: Any, fmt: str, out: TextIO) -> None:
    """`data` (plain dicts, lists and scalars) as JSON or YAML."""
    if fmt == "json":
        out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    else:
        import yaml

        text = yaml.dump(
            data, Dumper=yaml_dumper(), sort_keys=False, allow_unicode=True, width=1_000_000
        )
        out.write(text)


@functools.cache
def yaml_dumper() -> type:
    """libyaml's emitter when present (the same text, ten times faster: a fleet's
    audit), writing a word of a StrEnum (a verdict, a state) as its text."""
    import yaml

    class Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
        pass

    Dumper.add_multi_representer(StrEnum, lambda dumper, word: dumper.represent_str(str(word)))
    return Dumper


def counted(number: int, noun: str) -> str:
    """`1 InferenceService`, `4 InferenceServices`: a count for people, the noun
    (one whose plural takes an s) singular for one."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def line(text: str) -> str:
    """One line of text output: whatever it holds from the inputs (a newline, a
    terminal escape) shown escaped, so it stays one line and prints as text."""
    return escape(text) + "\n"


def table(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], *, headers_shown: bool = True
) -> str:
    """Columns aligned as kubectl prints them: upper-case headers, three spaces
    apart (`headers_shown=False`: kubectl's --no-headers); a cell's newlines and
    terminal escapes shown escaped.

    The text is tabulate's `plain` format with numbers left as text (cells
    stripped, each column as wide as its widest cell and at least its header
    and two spaces, two spaces between columns, each line's end stripped),
    made here because importing
    tabulate costs a cold `select`, `match` or `effective` a sixth of its time
    (it reads its version with `importlib.metadata`); `tests/test_render.py`
    holds the two to the same text."""
    cells = [["" if cell is None else escape(str(cell)).strip() for cell in row] for row in rows]
    shown = list(headers) if headers_shown else []
    width = _width_function([*shown, *(cell for row in cells for cell in row)])
    widths = [width(header) + 2 for header in shown] or [0] * len(headers)
    for row in cells:
        widths = [max(most, width(cell)) for most, cell in zip(widths, row, strict=True)]
    text = "\n".join(
        "  ".join(
            cell + " " * (most - width(cell)) for cell, most in zip(row, widths, strict=True)
        ).rstrip()
        for row in ([shown] if shown else []) + cells
    )
    # Line by line, as the text always was: a last row with nothing in it is no line.
    return "\n".join(text.splitlines()) + "\n"


def _width_function(texts: list[str]) -> Callable[[str], int]:
    """How many columns a text takes on a terminal: its length, unless a text
    is not ASCII and wcwidth is installed (then wide characters take two
    columns and combining ones none, as tabulate counts them with it)."""
    if all(text.isascii() for text in texts):
        return len
    try:
        from wcwidth import wcswidth
    except ImportError:
        return len
    return wcswidth
