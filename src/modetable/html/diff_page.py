"""`rules diff -o html`: the matching matrix with its changed cells marked, then
every section's changes as `rules diff -o json` gives them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from modetable.html.markup import asset, element, page, text

if TYPE_CHECKING:
    from modetable.views.rules import RulesDiffView, SectionView

__all__ = ["diff_page"]


def _section(section: SectionView) -> str:
    changes = section.changes
    title = element("h3", text(section.title))
    count = f"{len(changes)} change{'' if len(changes) == 1 else 's'}"
    tried = f"{section.combinations} combinations tried"
    if not changes:
        return title + element("p", f"No change ({tried}).", class_="muted")
    headers = [*section.inputs, "before", "after", "why"]
    head = element("tr", [element("th", text(h), scope="col") for h in headers])
    rows = [
        element(
            "tr",
            [element("td", text(change.inputs[name])) for name in section.inputs]
            + [element("td", text(value)) for value in (change.before, change.after, change.why)],
        )
        for change in changes
    ]
    return (
        title
        + element("p", f"{count} ({tried}).", class_="muted")
        + element("table", element("thead", head) + element("tbody", rows), class_="plain")
    )


def diff_page(diff: RulesDiffView, matrix: str, *, style: str) -> str:
    """The page for `diff` (what `rules diff -o json` prints, as its view) and
    `matrix`, the matching matrix's HTML; `style` is the matrix's stylesheet."""
    before, after = diff.before, diff.after
    changed = sum(bool(s.changes) for s in diff.sections)
    body = [
        element("h1", f"What changes from {text(before)} to {text(after)}"),
        element(
            "p",
            f"{changed} of {len(diff.sections)} decisions change. Every input "
            "combination of every decision is tried under both sides; a value that is "
            "no mode in a version reaches the matching table as none.",
            class_="meta",
        ),
        element("h2", "The matching table"),
        element(
            "p",
            "Each cell is the outcome under the second side and the row that decides it; "
            "a cell marked <strong>changed</strong> says what it was under the first.",
        ),
        matrix,
        element("h2", "Every decision"),
        *(_section(s) for s in diff.sections),
    ]
    title = f"modetable rules diff: {before} to {after}"
    return page(title, "\n".join(body), style=asset("page.css") + style)
