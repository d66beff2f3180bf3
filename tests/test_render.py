"""`render.table`: tabulate's `plain` text, made without importing tabulate."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from modetable.output.render import table
from modetable.text.shown import escape


def tabulated(headers: list[str], rows: list[list[str | None]], headers_shown: bool) -> str:
    """What `table` printed when it called tabulate (before issue 27)."""
    text = tabulate(
        [["" if cell is None else escape(str(cell)) for cell in row] for row in rows],
        headers=list(headers) if headers_shown else (),
        tablefmt="plain",
        disable_numparse=True,
    )
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def test_columns_are_as_wide_as_their_header_and_two_spaces_or_their_widest_cell():
    rows = [["team-a/llama", "vllm", None], ["b", " x ", "a\nb"]]
    # Widths 12 (the widest name), 9 (RUNTIME and two), 5 (WHY and two).
    assert table(["NAME", "RUNTIME", "WHY"], rows) == (
        "NAME" + " " * 10 + "RUNTIME" + " " * 4 + "WHY\n"
        "team-a/llama  vllm\n"
        "b" + " " * 13 + "x" + " " * 10 + "a\\nb\n"
    )
    # Without headers: widths 12, 4 and 4, the widest cells.
    assert table(["NAME", "RUNTIME", "WHY"], rows, headers_shown=False) == (
        "team-a/llama  vllm\nb" + " " * 13 + "x" + " " * 5 + "a\\nb\n"
    )
    assert table(["NAME", "MODE"], []) == "NAME    MODE\n"
    assert table(["NAME"], [], headers_shown=False) == "\n"
    # A last row with nothing in it is no line (as it was with tabulate).
    assert table(["NAME", "MODE"], [["", ""], [None, " "]]) == "NAME    MODE\n\n"


# Cells as the commands' are and worse: empty, spaced, numbers, wide and
# combining characters, controls (shown escaped).
_CELL = st.one_of(
    st.none(),
    st.sampled_from(["", " ", "12", "1.5", "-", "模型", "e\u0301", "\t", "\x1b[31m", "a  b"]),
    st.text(max_size=12),
)


@settings(max_examples=300, deadline=None)
@given(
    columns=st.integers(min_value=1, max_value=4),
    data=st.data(),
    headers_shown=st.booleans(),
)
def test_the_table_is_tabulates_plain_format(columns, data, headers_shown):
    headers = data.draw(
        st.lists(
            st.sampled_from(["NAME", "MODE", "RUNTIME", "A", "WHY NOT"]),
            min_size=columns,
            max_size=columns,
        )
    )
    rows = data.draw(st.lists(st.lists(_CELL, min_size=columns, max_size=columns), max_size=5))
    assert table(headers, rows, headers_shown=headers_shown) == tabulated(
        headers, rows, headers_shown
    )
