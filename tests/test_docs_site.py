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


def test_mkdocs_build_strict_passes(tmp_path):
    build = subprocess.run(
        [
            *(sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"),
            *("--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    html = (tmp_path / "site" / "deployment-mode-matching" / "index.html").read_text()
    # The generated tables reach the site as tables, not as text inside a comment.
    page = (ROOT / "docs" / "deployment-mode-matching.md").read_text()
    # The page's own content: after the theme's navigation, before its keyboard-help modal.
    content = html[html.index('role="main"') : html.index('id="mkdocs_keyboard_modal"')]
    assert tables_of_html(content) == html_tables(page)
    assert len(html_tables(page)) == 10


def test_every_page_is_in_the_nav_and_every_nav_entry_is_a_page():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    listed = nav_pages(config["nav"])
    pages = sorted(p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md"))
    missing = sorted(set(pages) - set(listed))
    assert missing == [], f"add these pages to nav in mkdocs.yml: {missing}"
    assert sorted(listed) == pages
