"""The two tables OME's page shows come out of the rules cell for cell.

Cells are compared as Python-Markdown renders them (so `code`, links and
text must all agree), with link targets left aside: the rules point links at
OME's documentation sources, the page at its own site's relative paths.
"""

from __future__ import annotations

from conftest import ROOT
from docs_helpers import html_tables, table_after

from modetable.docs.tables import declaration_table, matching_table

DOCS_PAGE = ROOT / "docs" / "deployment-mode-matching.md"


def test_the_matching_table_is_the_pages(spec_page, v13):
    expected = html_tables(table_after(spec_page, "## The matching rule"))
    assert html_tables(matching_table(v13)) == expected
    assert expected[0][1] == ["None", "<code>MultiNode</code> (deprecated)", "Passes"]


def test_the_where_each_side_declares_a_mode_table_is_the_pages(spec_page, v13):
    expected = html_tables(table_after(spec_page, "## Where each side declares a mode"))
    assert html_tables(declaration_table(v13)) == expected
    assert len(expected[0]) == 8  # the header and seven rows


def test_the_project_page_holds_the_same_tables(spec_page):
    """What docs/ shows (kept current by `modetable docs --check`) is the page's too."""
    ours = DOCS_PAGE.read_text()
    for heading, ours_heading in (
        ("## The matching rule", "<!-- BEGIN modetable:matching-table -->"),
        ("## Where each side declares a mode", "<!-- BEGIN modetable:declaration-table -->"),
    ):
        assert html_tables(table_after(ours, ours_heading)) == html_tables(
            table_after(spec_page, heading)
        )


def test_links_keep_their_text_and_point_somewhere(v13):
    text = declaration_table(v13)
    assert (
        "[parent runtime](https://github.com/ome-projects/ome-docs/blob/main/src/lib/content/"
        "concepts/runtimes/runtime-inheritance.md#when-the-merged-spec-applies)"
    ) in text
