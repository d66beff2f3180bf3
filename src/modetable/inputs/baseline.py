"""The baseline file `audit --write-baseline` writes and `--baseline` reads:
the findings of a run, each with the fingerprint that finds it again in a
later run (audit/triage.py), as JSON a person can review in a diff:

    {"modetable_baseline": 1,
     "findings": [{"fingerprint": "...", "id": "outcome/none", "severity": "error",
                   "subject": "NAMESPACE/NAME", "object": "KIND NAMESPACE/NAME",
                   "message": "..."}]}

Read strictly: anything else is one `FILE:LINE:COL` error."""

from __future__ import annotations

from typing import Any

import attrs

from modetable.errors import Location, ModetableError
from modetable.parsing.yamlio import decode, describe, load_documents, read_file, where
from modetable.settled import frozen

__all__ = [
    "BASELINE_FORMAT",
    "ENTRY_KEYS",
    "FORMAT_KEY",
    "Baseline",
    "BaselineEntry",
    "read_baseline",
]

# The key naming the format, and the format's number (a later one is refused).
FORMAT_KEY = "modetable_baseline"
BASELINE_FORMAT = 1
# An entry's keys, in the order the file writes them.
ENTRY_KEYS = ("fingerprint", "id", "severity", "subject", "object", "message")


@frozen
class BaselineEntry:
    """A finding as the baseline keeps it: what identifies it across runs
    (`fingerprint`) and what a person reads in a review."""

    fingerprint: str
    id: str
    severity: str
    subject: str  # the InferenceService (`NAMESPACE/NAME`), or "" for the manifests
    object: str  # `KIND NAMESPACE/NAME`, or "" when its kind is not known
    message: str
    at: Location | None = attrs.field(default=None, eq=False)  # where it is in the file


@frozen
class Baseline:
    file: str
    entries: tuple[BaselineEntry, ...]


def read_baseline(path: str) -> Baseline:
    """The baseline file at `path`, checked whole."""
    documents = load_documents(decode(read_file(path, path), path), path)
    if len(documents) != 1 or not isinstance(documents[0][0], dict):
        at = documents[1][1] if len(documents) > 1 else Location(path, 1, 1)
        raise ModetableError(_SHAPE, at)
    root = documents[0][0]
    extra = [key for key in root if key not in (FORMAT_KEY, "findings")]
    if extra:
        raise ModetableError(f"unknown key {extra[0]!r}: {_SHAPE}", root.key_where(extra[0]))
    if type(root.get(FORMAT_KEY)) is not int or root[FORMAT_KEY] != BASELINE_FORMAT:
        raise ModetableError(
            f"{FORMAT_KEY} must be {BASELINE_FORMAT}, not {describe(root.get(FORMAT_KEY))} "
            "(a baseline another modetable wrote: write it again with --write-baseline)",
            where(root, FORMAT_KEY if FORMAT_KEY in root else None),
        )
    listed = root.get("findings")
    if not isinstance(listed, list):
        raise ModetableError(
            f"findings must be a list, not {describe(listed)}",
            where(root, "findings" if "findings" in root else None),
        )
    return Baseline(path, tuple(_entry(listed, index) for index in range(len(listed))))


_SHAPE = f'a baseline is one JSON object: {{"{FORMAT_KEY}": {BASELINE_FORMAT}, "findings": [...]}}'


def _entry(listed: Any, index: int) -> BaselineEntry:
    item = listed[index]
    at = where(listed, index)
    if not isinstance(item, dict):
        raise ModetableError(f"a baseline entry is an object, not {describe(item)}", at)
    for key in item:
        if key not in ENTRY_KEYS:
            raise ModetableError(
                f"unknown key {key!r} in a baseline entry (its keys: {', '.join(ENTRY_KEYS)})",
                item.key_where(key),
            )
    for key in ENTRY_KEYS:
        if not isinstance(item.get(key), str):
            found = "missing" if key not in item else describe(item[key])
            raise ModetableError(
                f"a baseline entry's {key} is a string, not {found}",
                where(item, key if key in item else None),
            )
    return BaselineEntry(**{key: item[key] for key in ENTRY_KEYS}, at=at)
