"""The generated regions by name, each rendered from the rules in force in one version.

Every renderer takes a `Policy` and returns Markdown. What they say comes from
the rules (modes, sources, the matching table, selection, messages); how it
reads comes from the rules' `docs` section. A region's text changes when, and
only when, the data behind it changes.
"""

from __future__ import annotations

from collections.abc import Callable

from modetable.docs.admission_tables import admission_checks
from modetable.docs.edge_tables import sharp_edges
from modetable.docs.finding_tables import finding_ids
from modetable.docs.matching_tables import (
    compared_components,
    matching_matrix,
    matching_rows,
    matching_table,
    mismatch_message,
)
from modetable.docs.selection_tables import rejection_table, selection_checks, selection_outcomes
from modetable.docs.source_tables import declaration_table, running_order, valid_modes
from modetable.output.markdown import bullets, code
from modetable.rules.policy import Policy

Renderer = Callable[[Policy], str]

__all__ = [
    "REGIONS",
    "Renderer",
    "admission_checks",
    "compared_components",
    "declaration_table",
    "finding_ids",
    "matching_matrix",
    "matching_rows",
    "matching_table",
    "mismatch_message",
    "rejection_table",
    "running_order",
    "selection_checks",
    "selection_outcomes",
    "sharp_edges",
    "valid_modes",
]


def _region_list(policy: Policy) -> str:
    """The regions a page can hold, each with what it renders."""
    items = []
    for name, renderer in REGIONS.items():
        summary = (renderer.__doc__ or "").strip().splitlines()[0]
        items.append(f"{code(name)}: {summary}")
    return bullets(items)


REGIONS: dict[str, Renderer] = {
    "compared-components": compared_components,
    "matching-table": matching_table,
    "matching-rows": matching_rows,
    "matching-matrix": matching_matrix,
    "mismatch-message": mismatch_message,
    "declaration-table": declaration_table,
    "valid-modes": valid_modes,
    "running-order": running_order,
    "rejection-table": rejection_table,
    "selection-checks": selection_checks,
    "selection-outcomes": selection_outcomes,
    "admission-checks": admission_checks,
    "finding-ids": finding_ids,
    "sharp-edges": sharp_edges,
    "regions": _region_list,
}
