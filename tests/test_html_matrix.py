"""The matching table as a matrix: every cell is the rows' own decision, named
by its row; `rules diff -o html` marks exactly the cells whose outcome changes."""

from __future__ import annotations

import re

import pytest
from conftest import run_cli, write
from docs_helpers import tables_of_html

from modetable.engine.matching import decide
from modetable.errors import ModetableError
from modetable.html.matrix import changed_cells, matrix_html, policies_by_version

_PASS = "pass"


def _expected_cell(policy, requested, declared) -> str:
    """What a cell must say, from `matching.decide` and the rules' outcome words."""
    known = [v if v in policy.modes_in_force else None for v in (requested, declared)]
    try:
        row = decide(policy, *known)
    except ModetableError as exc:
        return f"! {exc.message}"
    words = policy.rules.matching.outcomes[row.outcome]
    mark = "✓" if row.outcome == _PASS else "✗"
    # The row in the rules' words (each row has them), not its id.
    assert row.words
    return f"{mark} {words}<br>{row.words}"


def _name(mode) -> str:
    return "None" if mode is None else f"<code>{mode}</code>"


@pytest.mark.parametrize("version", ["v1.2.2", "v1.3"])
def test_each_cell_is_the_deciding_row_of_that_version(ruleset, version):
    policy = ruleset.at(version)
    [table] = tables_of_html(matrix_html(policy))
    modes = [None, *policy.modes_in_force]
    assert table[0][1:] == [_name(m) for m in modes]
    assert [row[0] for row in table[1:]] == [_name(m) for m in modes]
    for requested, row in zip(modes, table[1:], strict=True):
        assert row[1:] == [_expected_cell(policy, requested, d) for d in modes]


def test_the_matrix_reads_without_colour_and_names_the_version(v13):
    html = matrix_html(v13)
    assert html.startswith(
        '<table class="matrix"><caption>v1.3: InferenceService\'s engine mode (rows) by '
        "Runtime's <code>engineConfig</code> mode (columns)</caption>"
    )
    assert "style=" not in html  # colour comes from the page's stylesheet
    assert 'style="background:' in matrix_html(v13, inline_style=True)  # the docs page's own
    assert "\n\n" not in html  # one Markdown block


def test_a_version_per_matrix_in_the_file_order(v13):
    assert [p.version for p in policies_by_version(v13)] == ["v1.2.2", "v1.3"]


def _changed_by_decide(before, after):
    modes = [None, *dict.fromkeys([*before.all_modes, *after.all_modes])]
    found = []
    for requested in modes:
        for declared in modes:
            if (
                _expected_cell(before, requested, declared).split("<br>")[0]
                != _expected_cell(after, requested, declared).split("<br>")[0]
            ):
                found.append((requested, declared))
    return found


def test_changed_cells_are_those_whose_outcome_differs(ruleset):
    before, after = ruleset.at("v1.2.2"), ruleset.at("v1.3")
    assert changed_cells(before, after) == _changed_by_decide(before, after)
    assert len(changed_cells(before, after)) == 12  # OMENative and MultiNodeRayVLLM against 3
    assert changed_cells(after, after) == []


def _marked(page: str) -> list[tuple[str, str]]:
    """(row heading, column heading) of each cell marked changed in the page's matrix."""
    start = page.index('<table class="matrix">')
    table = page[start : page.index("</table>", start)]
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
    heads = re.findall(r'<th scope="col">(.*?)</th>', rows[0])[1:]
    marked = []
    for row in rows[1:]:
        name = re.search(r'<th scope="row">(.*?)</th>', row).group(1)
        for head, cell in zip(heads, re.findall(r"<td (.*?)</td>", row), strict=True):
            if 'class="' in cell and "changed" in cell.split(">")[0]:
                marked.append((name, head))
    return marked


def test_rules_diff_html_marks_the_changed_cells_and_lists_every_section(ruleset):
    run = run_cli("rules", "diff", "v1.2.2", "v1.3", "-o", "html")
    assert run.code == 1, run.err
    page = run.out
    before, after = ruleset.at("v1.2.2"), ruleset.at("v1.3")
    assert _marked(page) == [(_name(r), _name(d)) for r, d in _changed_by_decide(before, after)]
    data = run_cli("rules", "diff", "v1.2.2", "v1.3", "-o", "json").json()
    for section in data["sections"]:
        count = len(section["changes"])
        shown = f"{count} change{'' if count == 1 else 's'}" if count else "No change"
        assert f'<h3>{section["title"]}</h3><p class="muted">{shown}' in page
    assert page.startswith("<!DOCTYPE html>")
    # Loads nothing: no script, and no address in an attribute (the rules' own
    # texts, quoted in the rules-in-force section, may hold a link as text).
    assert "<script" not in page
    assert not re.search(r"""(src|href)=["']?https?:|url\(\s*["']?https?:""", page)


def test_rules_diff_html_against_a_file_with_a_changed_row(tmp_path, ruleset):
    from conftest import RULES

    text = RULES.read_text()
    # The other file lets a different mode pass: every such cell changes.
    other = text.replace(
        "      declared: different\n      outcome: reject\n",
        "      declared: different\n      outcome: pass\n",
    )
    assert other != text
    path = write(tmp_path, "rules/modes.yaml", other)
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "modes.schema.json").write_text(
        (RULES.parent.parent / "schema" / "modes.schema.json").read_text()
    )
    run = run_cli("rules", "diff", "v1.3", "--against", str(path), "-o", "html")
    assert run.code == 1, run.err
    policy = ruleset.at("v1.3")
    rejected = [
        (_name(r), _name(d))
        for r in [None, *policy.all_modes]
        for d in [None, *policy.all_modes]
        if _expected_cell(policy, r, d).startswith("✗")
    ]
    assert _marked(run.out) == rejected
    assert "changed: was Passes, the runtime declares a different mode" in run.out


def test_rules_without_a_docs_section_still_give_the_diff_page(tmp_path):
    from conftest import RULES

    text = RULES.read_text()
    path = write(tmp_path, "rules/modes.yaml", text[: text.index("\n# The words `modetable docs`")])
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "modes.schema.json").write_text(
        (RULES.parent.parent / "schema" / "modes.schema.json").read_text()
    )
    run = run_cli("rules", "diff", "v1.2.2", "v1.3", "--rules", str(path), "-o", "html")
    assert run.code == 1, run.err
    assert "<caption>Matching under v1.3, changes from v1.2.2 marked</caption>" in run.out
    assert '<th scope="row">none</th>' in run.out  # the rules' own word for no mode
