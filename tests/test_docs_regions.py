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
