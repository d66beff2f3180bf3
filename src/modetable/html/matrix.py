"""The matching table as a picture: requested mode by declared mode, in one version.

Each cell is decided by the matching rows themselves (`matching.decide`), so
the picture changes exactly when the rows do. A cell says its outcome in words
and the deciding row (its `words` in the rules, else its id), so it reads
without colour; colour only helps the eye. Two policies compared (`rules
diff -o html`) give the same matrix with the cells whose outcome changes marked.
"""

from __future__ import annotations

import re

import attrs

from modetable.engine.matching import decide
from modetable.errors import ModetableError
from modetable.html.markup import asset, element, text
from modetable.rules.policy import Policy
from modetable.rules.words import ConditionWord, MatchInput
from modetable.settled import frozen
from modetable.text.templates import fill

__all__ = [
    "Cell",
    "Matrix",
    "changed_cells",
    "diff_matrix_html",
    "matrix",
    "matrix_html",
    "matrix_style",
    "policies_by_version",
]

# The outcome key of a passing row (rules: matching.outcomes); any other rejects.
_PASS = "pass"
# How a cell looks, by its class: the docs page has no stylesheet of ours, so
# there the same colours go inline.
_COLOURS = {
    "pass": "background:#d8f3dc;color:#0b3d17",
    "reject": "background:#f9d6d5;color:#5c0a0a",
    "error": "background:#fff3bf;color:#3d3000",
}
_MARK = {"pass": "✓", "reject": "✗", "error": "!"}
# The docs theme's own table style puts a caption below and wraps row ids at
# their hyphens: inline, the caption goes on top and an id stays whole.
_CAPTION_STYLE = "caption-side:top;text-align:left;font-weight:bold"
_ID_STYLE = "white-space:nowrap"


def matrix_style() -> str:
    """The matrix's stylesheet, for a page of its own."""
    colours = [f"table.matrix td.{kind} {{ {style}; }}\n" for kind, style in _COLOURS.items()]
    return asset("matrix.css") + "".join(colours)


@frozen
class Cell:
    """One pair of inputs decided: the outcome's key and words and the row (its
    id, and its `words` in the rules when it has them), or the error when no
    single row decides (a gap or an overlap in the table)."""

    outcome: str | None
    words: str
    row: str | None
    row_words: str | None = None

    @property
    def kind(self) -> str:
        if self.outcome is None:
            return "error"
        return "pass" if self.outcome == _PASS else "reject"

    @property
    def key(self) -> tuple[str | None, str | None]:
        """What a change is: the outcome, or the error (a renamed row is no change)."""
        return (self.outcome, self.words if self.outcome is None else None)


@frozen
class Matrix:
    """One version's table over its modes: `cells[requested][declared]`, None
    standing for "no mode" (first in both directions)."""

    policy: Policy
    modes: tuple[str | None, ...]
    cells: dict[str | None, dict[str | None, Cell]]


def _cell(policy: Policy, requested: str | None, declared: str | None) -> Cell:
    # A value that is no mode in this version reaches the table as none.
    requested, declared = (v if v in policy.modes_in_force else None for v in (requested, declared))
    try:
        row = decide(policy, requested, declared)
    except ModetableError as exc:
        return Cell(outcome=None, words=exc.message, row=None)
    outcome = policy.rules.matching.outcomes[row.outcome]
    return Cell(outcome=row.outcome, words=outcome, row=row.id, row_words=row.words)


def matrix(policy: Policy, modes: tuple[str | None, ...] | None = None) -> Matrix:
    """Every pair of `modes` (default: none and the modes valid in the policy's version)."""
    if modes is None:
        modes = (None, *policy.modes_in_force)
    cells = {r: {d: _cell(policy, r, d) for d in modes} for r in modes}
    return Matrix(policy=policy, modes=modes, cells=cells)


def policies_by_version(policy: Policy) -> list[Policy]:
    """The same rules in each version they list, in the file's order."""
    return [attrs.evolve(policy, version=v, release=v, warning=None) for v in policy.rules.versions]


_CODE_SPAN = re.compile(r"`([^`]+)`")


def _inline(words: str) -> str:
    """Words from the rules, escaped, with their `code spans` as <code>."""
    return _CODE_SPAN.sub(lambda m: f"<code>{m.group(1)}</code>", text(words))


def _labels(policy: Policy) -> tuple[str, str, str]:
    """The rows' heading, the columns' heading, and how no mode is written: the
    docs' words when the rules have them, for the docs' component (else the first)."""
    docs = policy.rules.docs
    named = docs.matching_table.component if docs is not None else None
    component = policy.components_by_name.get(named or "", policy.components[0])
    values = policy.placeholder_values(component)
    inputs = policy.rules.matching.inputs
    none = docs.none if docs is not None else ConditionWord.NONE
    return (
        fill(inputs[MatchInput.REQUESTED], values),
        fill(inputs[MatchInput.DECLARED], values),
        none,
    )


def _row_html(cell: Cell, id_style: str = "") -> str:
    """The row that decided: its words in the rules, else its id."""
    if cell.row_words:
        return text(cell.row_words)
    return f"row <code{id_style}>{text(cell.row)}</code>"


def _cell_html(cell: Cell, inline_style: bool, was: Cell | None = None) -> str:
    kind = cell.kind
    words = f"{_MARK[kind]} {text(cell.words)}"
    id_style = f' style="{_ID_STYLE}"' if inline_style else ""
    row = f"<br>{_row_html(cell, id_style)}" if cell.row else ""
    classes = kind
    note = ""
    if was is not None:
        classes += " changed"
        shown = f"{text(was.words)}" + (f", {_row_html(was)}" if was.row else "")
        note = f'<span class="was">changed: was {shown}</span>'
    style = _COLOURS[kind] if inline_style else None
    return element("td", words + row + note, class_=classes, style=style)


def _table(shown: Matrix, caption: str, inline_style: bool, before: Matrix | None = None) -> str:
    requested_label, declared_label, none = _labels(shown.policy)

    def name(mode: str | None) -> str:
        return text(none) if mode is None else f"<code>{text(mode)}</code>"

    corner = f"{_inline(requested_label)} ↓ / {_inline(declared_label)} →"
    head = element(
        "tr",
        [element("th", corner, scope="col")]
        + [element("th", name(d), scope="col") for d in shown.modes],
    )
    rows = []
    for requested in shown.modes:
        cells = [element("th", name(requested), scope="row")]
        for declared in shown.modes:
            cell = shown.cells[requested][declared]
            was = None
            if before is not None:
                earlier = before.cells[requested][declared]
                was = earlier if earlier.key != cell.key else None
            cells.append(_cell_html(cell, inline_style, was))
        rows.append(element("tr", cells))
    return (
        '<table class="matrix">'
        + element("caption", caption, style=_CAPTION_STYLE if inline_style else None)
        + element("thead", head)
        + element("tbody", "\n".join(rows))
        + "</table>\n"
    )


def matrix_html(policy: Policy, *, inline_style: bool = False) -> str:
    """The matrix of `policy`'s version as an HTML table (no blank line inside,
    so Markdown keeps it as one block); `inline_style` colours cells without a
    stylesheet."""
    requested, declared, _ = _labels(policy)
    caption = (
        f"{text(policy.version)}: {_inline(requested)} (rows) by {_inline(declared)} (columns)"
    )
    return _table(matrix(policy), caption, inline_style)


def _union(before: Policy, after: Policy) -> tuple[str | None, ...]:
    names = dict.fromkeys(m.name for m in before.rules.modes)
    names.update(dict.fromkeys(m.name for m in after.rules.modes))
    return (None, *names)


def changed_cells(before: Policy, after: Policy) -> list[tuple[str | None, str | None]]:
    """The (requested, declared) pairs whose outcome differs between the two policies,
    over none and every mode either file names (a value no mode on a side is none there)."""
    modes = _union(before, after)
    was, now = matrix(before, modes), matrix(after, modes)
    return [(r, d) for r in modes for d in modes if was.cells[r][d].key != now.cells[r][d].key]


def diff_matrix_html(before: Policy, after: Policy, caption: str) -> str:
    """The matrix under `after`, over every mode either side names, each cell
    whose outcome differs from `before` marked "changed" with what it was."""
    modes = _union(before, after)
    return _table(matrix(after, modes), caption, False, before=matrix(before, modes))
