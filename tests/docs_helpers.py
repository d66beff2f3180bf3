"""Reading Markdown tables back as Python-Markdown (mkdocs) renders them."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import markdown


class _Cells(HTMLParser):
    """The rows of every table in an HTML fragment, each cell as its inner HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.tables: list[list[list[str]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []
        elif self.cell is not None:
            shown = "".join(f' {k}="{v}"' for k, v in attrs if k != "href")
            self.cell.append(f"<{tag}{shown}>")

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.tables[-1][-1].append("".join(self.cell or []).strip())
            self.cell = None
        elif self.cell is not None and tag not in ("br",):
            self.cell.append(f"</{tag}>")

    def handle_startendtag(self, tag, attrs):
        if self.cell is not None:
            self.cell.append(f"<{tag}>")

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)

    def handle_entityref(self, name):
        if self.cell is not None:
            self.cell.append(f"&{name};")

    def handle_charref(self, name):
        if self.cell is not None:
            self.cell.append(f"&#{name};")


def html_tables(text: str) -> list[list[list[str]]]:
    """Every table of a Markdown text: rows of cells (inner HTML, link targets dropped)."""
    return tables_of_html(markdown.markdown(text, extensions=["tables"]))


def tables_of_html(html: str) -> list[list[list[str]]]:
    parser = _Cells()
    parser.feed(html)
    return parser.tables


def table_after(page: str, heading: str) -> str:
    """The first pipe table after `heading` in a Markdown page, as Markdown."""
    start = page.index(heading)
    lines = page[start:].splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("|"))
    block = []
    for line in lines[first:]:
        if not line.startswith("|"):
            break
        block.append(line)
    return "\n".join(block) + "\n"


def outside_regions(page: str) -> str:
    """A page with the content of its generated regions cut out (markers kept)."""
    return re.sub(
        r"(<!-- BEGIN modetable:[^\n]*-->\n).*?(<!-- END modetable:)",
        r"\1\2",
        page,
        flags=re.DOTALL,
    )
