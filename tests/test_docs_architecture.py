"""docs/architecture.md has a row for every module under src/modetable, and
no row for a module that is gone."""

from __future__ import annotations

import re

from conftest import ROOT

PAGE = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "src" / "modetable"


def test_every_module_has_a_row_and_every_row_a_module():
    named = {
        name
        for line in PAGE.read_text().splitlines()
        if line.startswith("| `")
        for name in re.findall(r"`([^`]+)`", line.split(" | ")[0])
    }
    folders = {name for name in named if name.endswith("/")}  # a row for a whole folder
    modules = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if path.name not in ("__init__.py", "__main__.py")
    }
    covered = {m for m in modules if m in named or any(m.startswith(f) for f in folders)}
    assert sorted(modules - covered) == [], "add rows to docs/architecture.md"
    assert sorted(named - modules - folders) == [], "rows for modules that are gone"
    assert all((PACKAGE / folder).is_dir() for folder in folders)
