"""Tables rendered with tabulate stay valid Markdown whatever a cell holds."""

from __future__ import annotations

from docs_helpers import html_tables
from hypothesis import given, settings
from hypothesis import strategies as st

from modetable.output.markdown import cell, code, table, words


def test_a_pipe_and_a_newline_in_cells_keep_the_table_whole():
    text = table(
        ["Left | right", "Plain"],
        [
            ["a | b", "line one\nline two"],
            ["`x | y`", "`kept`"],
            ["`two\nlines`", "trailing |"],
        ],
    )
    assert html_tables(text) == [
        [
            ["Left | right", "Plain"],
            ["a | b", "line one<br>line two"],
            ["<code>x &#124; y</code>", "<code>kept</code>"],
            ["<code>two<br>lines</code>", "trailing |"],
        ]
    ]


def test_the_table_is_tabulates_github_format():
    assert table(["A", "B"], [["x", "`y`"]]) == "| A   | B   |\n|-----|-----|\n| x   | `y` |\n"


def test_cell_escapes_only_what_would_break_the_row():
    assert cell("a | b") == "a \\| b"
    assert cell("one\r\ntwo\nthree") == "one<br>two<br>three"
    assert cell("`no pipe` and `a|b`") == "`no pipe` and <code>a&#124;b</code>"
    assert cell("`<tag> | x`") == "<code>&lt;tag&gt; &#124; x</code>"
    assert cell("plain") == "plain"


def test_code_and_words():
    assert code("spec.a") == "`spec.a`"
    assert code("has ` tick") == "``has ` tick``"
    assert code("`edge") == "`` `edge ``"
    assert words(["a"], "or") == "a"
    assert words(["a", "b"], "or") == "a or b"
    assert words(["a", "b", "c"], "and") == "a, b, and c"


cells = st.text(alphabet="ab |`\n\\-", min_size=0, max_size=12)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(cells, min_size=3, max_size=3), min_size=1, max_size=4))
def test_any_cells_give_one_row_per_row_and_one_cell_per_column(rows):
    (parsed,) = html_tables(table(["One", "Two", "Three"], rows))
    assert len(parsed) == len(rows) + 1
    assert all(len(row) == 3 for row in parsed)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.text(alphabet="ab |\n", min_size=1, max_size=12), min_size=2, max_size=2))
def test_cells_without_code_read_back_as_written(row):
    (parsed,) = html_tables(table(["One", "Two"], [row]))
    # Markdown trims a cell's edges; a newline is a <br>, a pipe a pipe.
    assert parsed[1] == [value.replace("\n", "<br>").strip() for value in row]
