"""Places in a rules file as written: a path of keys and indexes, the position
of the node it leads to, and the path as an author reads it.

The loader (structural errors) and the validator (errors of meaning) both
report through here, so neither needs the other to say where a problem is.
"""

from __future__ import annotations

from typing import Any

from modetable.errors import Location
from modetable.parsing.yamlio import YamlList, YamlMap

__all__ = ["PathPart", "field_name", "locate"]

# One step into the YAML: a mapping's key or a list's index.
PathPart = str | int


def locate(document: Any, path: tuple[PathPart, ...], file: str, *, key: bool = False) -> Location:
    """The position of the node at `path`, or of its nearest existing ancestor."""
    node = document
    best = Location(file, 1, 1)
    for depth, part in enumerate(path):
        last = depth == len(path) - 1
        if isinstance(node, YamlMap):
            if part not in node:
                return node.where()
            best = node.key_where(part) if (last and key) else node.where(part)
            node = node[part]
        elif isinstance(node, YamlList) and isinstance(part, int) and 0 <= part < len(node):
            best = node.where(part)
            node = node[part]
        else:
            break
    return best


def field_name(path: tuple[PathPart, ...]) -> str:
    """`matching.rows[2].requested`: a path as the author finds it in the file."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "the file"
