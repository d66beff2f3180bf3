"""The baseline file (`audit --write-baseline`) and its entries as the audit's
JSON lists the fixed ones: one shape for both, so a fixed entry reads as the
line it was in the file."""

from __future__ import annotations

import json
from collections.abc import Iterable

from modetable.inputs.baseline import BASELINE_FORMAT, FORMAT_KEY, BaselineEntry
from modetable.settled import frozen
from modetable.views.common import same_named

__all__ = ["BaselineEntryView", "baseline_document"]


@frozen
class BaselineEntryView:
    """An entry as the baseline file writes it (inputs/baseline.py's
    `ENTRY_KEYS`, in that order: tests/test_audit_baseline.py holds them equal)."""

    fingerprint: str
    id: str
    severity: str
    subject: str
    object: str
    message: str

    @classmethod
    def of(cls, entry: BaselineEntry) -> BaselineEntryView:
        return same_named(cls, entry)


def baseline_document(entries: Iterable[BaselineEntry]) -> str:
    """The baseline file: its entries sorted (by InferenceService, id, object,
    message), one a line, so that a review's diff shows what came and went."""
    from modetable.views.converter import unstructure

    ordered = sorted(entries, key=lambda e: (e.subject, e.id, e.object, e.message, e.fingerprint))
    lines = [json.dumps(unstructure(BaselineEntryView.of(e)), ensure_ascii=False) for e in ordered]
    body = ",\n    ".join(lines)
    listed = f"[\n    {body}\n  ]" if lines else "[]"
    return f'{{\n  "{FORMAT_KEY}": {BASELINE_FORMAT},\n  "findings": {listed}\n}}\n'
