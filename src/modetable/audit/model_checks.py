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

__all__ = ["MemoComparisons", "model_key"]


def _frozen(value: Any) -> Hashable:
    """A hashable stand-in for a pipeline mapping (rare, small)."""
    return None if value is None else json.dumps(value, sort_keys=True, default=str)


def _entry_key(entry: Entry) -> Hashable:
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
        self._differences: dict[tuple[Hashable, Hashable], tuple[str, ...]] = {}
        self._sides: dict[tuple[Hashable, ...], bool] = {}
        self._labels: dict[Hashable, str] = {}
        # Model facts are kept alive by the fleet, so their ids are stable.
        self._model_keys: dict[int, tuple[ModelFacts, Hashable]] = {}

    def _model_key(self, model: ModelFacts) -> Hashable:
        found = self._model_keys.get(id(model))
        if found is None or found[0] is not model:
            found = self._model_keys[id(model)] = (model, model_key(model))
        return found[1]

    def differences(self, entry: Entry, model: ModelFacts) -> tuple[str, ...]:
        pair = (_entry_key(entry), self._model_key(model))
        found = self._differences.get(pair)
        if found is None:
            found = self._differences[pair] = super().differences(entry, model)
        return found

    def sides_match(self, entry: Entry, model: ModelFacts) -> bool:
        key = (entry.format, entry.framework, model.format, model.framework)
        found = self._sides.get(key)
        if found is None:
            found = self._sides[key] = super().sides_match(entry, model)
        return found

    def label(self, model: ModelFacts) -> str:
        key = self._model_key(model)
        found = self._labels.get(key)
        if found is None:
            found = self._labels[key] = super().label(model)
        return found
