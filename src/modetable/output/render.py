"""Output: tables for people, JSON and YAML for programs."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
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
    terminal escapes shown escaped."""
    from tabulate import tabulate

    text = tabulate(
        [["" if cell is None else escape(str(cell)) for cell in row] for row in rows],
        headers=list(headers) if headers_shown else (),
        tablefmt="plain",
        disable_numparse=True,
    )
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
