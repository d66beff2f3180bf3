"""Entries compared with models for a fleet: `selection.compare.Comparisons`,
each distinct (entry, model) pair of values compared once.

A thousand runtimes copy a few hundred distinct entries, and a fleet's models
repeat a few dozen distinct formats, so `differences` and `sides_match` (which
parse versions on every call) run once per pair of values here. The checks
themselves are `selection.checks`' own; tests/test_audit_fast.py holds the
fleet's results to `selection.select`.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any

from modetable.selection import Comparisons, Entry, ModelFacts

__all__ = ["MemoComparisons", "entry_key", "model_key"]


def _frozen(value: Any) -> Hashable:
    """A hashable stand-in for a pipeline mapping (rare, small)."""
    return None if value is None else json.dumps(value, sort_keys=True, default=str)


def entry_key(entry: Entry) -> Hashable:
    """What `differences` reads of an entry (not its index)."""
    return (
        entry.format,
        entry.framework,
        entry.architecture,
        entry.quantization,
        _frozen(entry.pipeline),
    )


def model_key(model: ModelFacts) -> Hashable:
    """What `differences` reads of a model (not its size)."""
    return (
        model.format,
        model.framework,
        model.architecture,
        model.quantization,
        _frozen(model.pipeline),
    )


class MemoComparisons(Comparisons):
    """Comparisons kept per pair of values, for the whole fleet."""

    def __init__(self, policy: Any) -> None:
        super().__init__(policy)
        self._differences: dict[tuple[int, int], tuple[str, ...]] = {}
        self._sides: dict[tuple[int, int], bool] = {}
        self._texts: dict[tuple[int, int], tuple[bool, str, str]] = {}
        self._labels: dict[int, str] = {}
        # Each distinct value compared gets a small int, so a memo lookup hashes
        # two ints instead of the values again. Entries and model facts are kept
        # alive by the fleet, so their ids are stable (and checked).
        self._ids: dict[Hashable, int] = {}
        self._entries: dict[int, tuple[Entry, int, int]] = {}
        self._models: dict[int, tuple[ModelFacts, int, int]] = {}

    def _id(self, value: Hashable) -> int:
        return self._ids.setdefault(value, len(self._ids))

    def _entry_ids(self, entry: Entry) -> tuple[Entry, int, int]:
        """(entry, what `differences` reads of it, what `sides_match` reads), interned."""
        found = self._entries.get(id(entry))
        if found is None or found[0] is not entry:
            found = self._entries[id(entry)] = (
                entry,
                self._id(("entry", entry_key(entry))),
                self._id(("sides", entry.format, entry.framework)),
            )
        return found

    def entry_id(self, entry: Entry) -> int:
        """What `differences` reads of `entry`, interned."""
        return self._entry_ids(entry)[1]

    def _model_ids(self, model: ModelFacts) -> tuple[ModelFacts, int, int]:
        found = self._models.get(id(model))
        if found is None or found[0] is not model:
            found = self._models[id(model)] = (
                model,
                self._id(("model", model_key(model))),
                self._id(("sides", model.format, model.framework)),
            )
        return found

    def differences(self, entry: Entry, model: ModelFacts) -> tuple[str, ...]:
        pair = (self._entry_ids(entry)[1], self._model_ids(model)[1])
        found = self._differences.get(pair)
        if found is None:
            found = self._differences[pair] = super().differences(entry, model)
        return found

    def entry_texts(self, entry: Entry, model: ModelFacts) -> tuple[bool, str, str]:
        pair = (self._entry_ids(entry)[1], self._model_ids(model)[1])
        found = self._texts.get(pair)
        if found is None:
            found = self._texts[pair] = super().entry_texts(entry, model)
        return found

    def sides_match(self, entry: Entry, model: ModelFacts) -> bool:
        key = (self._entry_ids(entry)[2], self._model_ids(model)[2])
        found = self._sides.get(key)
        if found is None:
            found = self._sides[key] = super().sides_match(entry, model)
        return found

    def label(self, model: ModelFacts) -> str:
        key = self._model_ids(model)[1]
        found = self._labels.get(key)
        if found is None:
            found = self._labels[key] = super().label(model)
        return found
