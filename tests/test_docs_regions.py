"""Finding generated regions and splicing content into them, byte for byte."""

from __future__ import annotations

import pytest

from modetable.docs.regions import find_regions, splice
from modetable.errors import ErrorList, ModetableError


def known(name: str) -> bool:
    return name in {"one", "two"}


def render(text: str, **contents: str) -> str:
    regions = find_regions(text, "page.md", known)
    return splice(text, regions, [contents[r.name] for r in regions])


def test_only_the_lines_between_the_markers_change():
    page = (
        "# Title  \n"
        "intro with trailing spaces   \n"
        "<!-- BEGIN modetable:one -->\n"
        "stale\n"
        "<!-- END modetable:one -->\n"
        "middle\t\n"
        "  <!-- BEGIN modetable:two version=v1.2.2 -->  \n"
        "<!-- END modetable:two -->\n"
        "no newline at the end"
    )
    assert render(page, one="| a |\n", two="text") == (
        "# Title  \n"
        "intro with trailing spaces   \n"
        "<!-- BEGIN modetable:one -->\n"
        "\n| a |\n\n"
        "<!-- END modetable:one -->\n"
        "middle\t\n"
        "  <!-- BEGIN modetable:two version=v1.2.2 -->  \n"
        "\ntext\n\n"
        "<!-- END modetable:two -->\n"
        "no newline at the end"
    )


def test_rendering_twice_changes_nothing_more():
    page = "a\n<!-- BEGIN modetable:one -->\nold\n<!-- END modetable:one -->\nb\n"
    once = render(page, one="new\n")
    assert render(once, one="new\n") == once


def test_a_crlf_page_gets_crlf_content():
    page = "a\r\n<!-- BEGIN modetable:one -->\r\n<!-- END modetable:one -->\r\nb\r\n"
    assert render(page, one="x\ny\n") == (
        "a\r\n<!-- BEGIN modetable:one -->\r\n\r\nx\r\ny\r\n\r\n<!-- END modetable:one -->\r\nb\r\n"
    )


def test_markers_inside_fenced_code_are_text():
    page = (
        "```markdown\n"
        "<!-- BEGIN modetable:unknown -->\n"
        "<!-- END modetable:unknown -->\n"
        "```\n"
        "~~~~\n"
        "<!-- END modetable:one -->\n"
        "```\n"
        "~~~~\n"
        "<!-- BEGIN modetable:one -->\n"
        "<!-- END modetable:one -->\n"
    )
    (region,) = find_regions(page, "page.md", known)
    assert (region.name, region.begin, region.end) == ("one", 8, 9)


def test_the_region_options_are_read():
    (region,) = find_regions(
        "<!-- BEGIN modetable:one version=v1.2.2 -->\n<!-- END modetable:one -->\n", "p.md", known
    )
    assert region.args == {"version": "v1.2.2"}


@pytest.mark.parametrize(
    ("page", "message"),
    [
        (
            "x\n<!-- BEGIN modetable:nope -->\n<!-- END modetable:nope -->\n",
            "page.md:2:1: unknown generated region 'nope'",
        ),
        (
            "x\n\n  <!-- BEGIN modetable:one -->\n",
            "page.md:3:3: region 'one' is never closed (no END)",
        ),
        (
            "<!-- END modetable:one -->\n",
            "page.md:1:1: END of region 'one' without a BEGIN",
        ),
        (
            "<!-- BEGIN modetable:one -->\n<!-- END modetable:two -->\n",
            "page.md:2:1: END of region 'two' closes region 'one'",
        ),
        (
            "text <!-- BEGIN modetable:one -->\n",
            "page.md:1:6: malformed marker: write <!-- BEGIN modetable:NAME --> or "
            "<!-- END modetable:NAME --> alone on its line",
        ),
    ],
)
def test_a_malformed_page_is_one_error_with_its_place(page, message):
    with pytest.raises(ModetableError) as raised:
        find_regions(page, "page.md", known)
    assert str(raised.value) == message


def test_every_problem_of_a_page_is_reported_at_once():
    page = (
        "<!-- BEGIN modetable:one -->\n"
        "<!-- BEGIN modetable:two -->\n"
        "<!-- END modetable:two -->\n"
        "<!-- END modetable:one -->\n"
    )
    with pytest.raises(ErrorList) as raised:
        find_regions(page, "page.md", known)
    assert raised.value.lines() == [
        "page.md:2:1: region 'one' is not closed before this one",
        "page.md:4:1: END of region 'one' without a BEGIN",
    ]


def test_markers_inside_code_spans_are_prose():
    page = (
        "Write `<!-- BEGIN modetable:NAME -->` and ``<!-- END modetable:NAME -->``.\n"
        "<!-- BEGIN modetable:one -->\n<!-- END modetable:one -->\n"
    )
    (region,) = find_regions(page, "page.md", known)
    assert (region.name, region.begin) == ("one", 1)


def test_a_page_beginning_with_a_byte_order_mark_keeps_it():
    page = "\ufeff<!-- BEGIN modetable:one -->\nstale\n<!-- END modetable:one -->\ntail\n"
    assert render(page, one="fresh\n") == (
        "\ufeff<!-- BEGIN modetable:one -->\n\nfresh\n\n<!-- END modetable:one -->\ntail\n"
    )


# A marker counts only where CommonMark reads it as HTML; in code it is text.
CODE_EXAMPLES = {
    "an indented code block": (
        "Write a region like this:\n\n"
        "    <!-- BEGIN modetable:one -->\n    example\n    <!-- END modetable:one -->\n"
    ),
    "a tab-indented code block": (
        "Example:\n\n\t<!-- BEGIN modetable:one -->\n\t<!-- END modetable:one -->\n"
    ),
    "a fence indented in a list item": (
        "- a step:\n\n  ```markdown\n  <!-- BEGIN modetable:one -->\n"
        "  <!-- END modetable:one -->\n  ```\n"
    ),
    "an indented code block in a list item": (
        "1. a step:\n\n       <!-- BEGIN modetable:one -->\n       <!-- END modetable:one -->\n"
    ),
    "a fence in a block quote": (
        "> ~~~\n> <!-- BEGIN modetable:one -->\n> <!-- END modetable:one -->\n> ~~~\n"
    ),
    "a fence never closed": "```\n<!-- BEGIN modetable:one -->\n",
}


@pytest.mark.parametrize("page", CODE_EXAMPLES.values(), ids=CODE_EXAMPLES.keys())
def test_markers_in_code_blocks_are_text_and_stay_as_they_are(page):
    assert find_regions(page, "page.md", known) == []
    assert render(page) == page


def test_a_real_region_after_an_indented_example_is_the_only_one():
    page = (
        "Example:\n\n    <!-- BEGIN modetable:one -->\n    <!-- END modetable:one -->\n\n"
        "<!-- BEGIN modetable:one -->\nstale\n<!-- END modetable:one -->\n"
    )
    assert render(page, one="fresh\n") == (
        "Example:\n\n    <!-- BEGIN modetable:one -->\n    <!-- END modetable:one -->\n\n"
        "<!-- BEGIN modetable:one -->\n\nfresh\n\n<!-- END modetable:one -->\n"
    )


def test_a_marker_right_after_a_paragraph_line_counts():
    """An HTML comment may interrupt a paragraph: CommonMark reads it as HTML."""
    page = "text\n<!-- BEGIN modetable:one -->\n<!-- END modetable:one -->\n"
    (region,) = find_regions(page, "page.md", known)
    assert (region.begin, region.end) == (1, 2)


def test_a_marker_in_a_list_item_counts():
    page = "- item\n\n  <!-- BEGIN modetable:one -->\n  <!-- END modetable:one -->\n"
    (region,) = find_regions(page, "page.md", known)
    assert (region.begin, region.end) == (2, 3)


MALFORMED = (
    "malformed marker: write <!-- BEGIN modetable:NAME --> or "
    "<!-- END modetable:NAME --> alone on its line"
)


@pytest.mark.parametrize(
    "separator",
    ["\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\x1c"],
    ids=["U+2028", "U+2029", "NEL", "FF", "VT", "FS"],
)
def test_a_marker_after_a_character_python_ends_lines_at_is_not_alone(separator):
    """str.splitlines ends a line at these; CommonMark does not, so the marker is
    part of a paragraph line: an error, never a region."""
    page = (
        f"text{separator}<!-- BEGIN modetable:one -->\nmore{separator}<!-- END modetable:one -->\n"
    )
    with pytest.raises(ErrorList) as raised:
        find_regions(page, "page.md", known)
    assert raised.value.lines() == [f"page.md:1:6: {MALFORMED}", f"page.md:2:6: {MALFORMED}"]


def test_a_marker_indented_into_a_paragraph_is_part_of_it():
    """Four spaces after a paragraph line continue the paragraph (no code block)."""
    page = "text\n    <!-- BEGIN modetable:one -->\n"
    with pytest.raises(ModetableError) as raised:
        find_regions(page, "page.md", known)
    assert str(raised.value) == f"page.md:2:5: {MALFORMED}"


def test_lines_end_only_where_commonmark_ends_them():
    from modetable.docs.regions import split_lines

    text = "a\u2028b\x0cc\r\nd\re\nf\x85g"
    assert split_lines(text) == ["a\u2028b\x0cc\r\n", "d\r", "e\n", "f\x85g"]
    assert "".join(split_lines(text)) == text


def test_the_markers_that_count_are_the_html_comments_of_a_commonmark_rendering():
    """Read back through a CommonMark renderer (markdown-it-py, its HTML), each
    page's counted markers are exactly the comments it passes through as HTML."""
    from markdown_it import MarkdownIt

    real = "a\n<!-- BEGIN modetable:one -->\n<!-- END modetable:one -->\n"
    for page in [*CODE_EXAMPLES.values(), real]:
        html = MarkdownIt("commonmark").render(page)
        rendered = html.count("<!-- BEGIN modetable:one -->")
        assert len(find_regions(page, "page.md", known)) == rendered, page
