"""The docs build as a site: `mkdocs build --strict`, every page in the nav."""

from __future__ import annotations

import subprocess
import sys

import pytest
import yaml
from conftest import ROOT
from docs_helpers import html_tables, tables_of_html

pytest.importorskip("mkdocs", reason="mkdocs comes with the test extras")


def nav_pages(nav) -> list[str]:
    pages = []
    for entry in nav:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        pages.extend(nav_pages(value) if isinstance(value, list) else [value])
    return pages


@pytest.fixture(scope="module")
def matching_page(tmp_path_factory) -> str:
    """The site built once (`mkdocs build --strict`), its matching-rule page."""
    site = tmp_path_factory.mktemp("site")
    build = subprocess.run(
        [
            *(sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"),
            *("--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(site)),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    return (site / "deployment-mode-matching" / "index.html").read_text()


def test_mkdocs_build_strict_passes(matching_page):
    html = matching_page
    # The generated tables reach the site as tables, not as text inside a comment.
    page = (ROOT / "docs" / "deployment-mode-matching.md").read_text()
    # The page's own content: after the theme's navigation, before its keyboard-help modal.
    content = html[html.index('role="main"') : html.index('id="mkdocs_keyboard_modal"')]
    assert tables_of_html(content) == html_tables(page)
    assert len(html_tables(page)) == 12


def test_the_site_shows_the_matching_matrix_of_each_version(matching_page, ruleset):
    """The matrix region reaches the built site as one table per version, each
    cell the rows' own decision (tests/test_html_matrix.py checks the cells)."""
    from modetable.html.matrix import matrix_html

    html = matching_page
    for version in ruleset.versions:
        expected = matrix_html(ruleset.at(version), inline_style=True).strip()
        assert expected in html, version


def test_every_page_is_in_the_nav_and_every_nav_entry_is_a_page():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    listed = nav_pages(config["nav"])
    pages = sorted(p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md"))
    missing = sorted(set(pages) - set(listed))
    assert missing == [], f"add these pages to nav in mkdocs.yml: {missing}"
    assert sorted(listed) == pages
