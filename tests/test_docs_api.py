"""docs/api.md runs: its Python blocks, in order, in one namespace, from the
repository's root; a `text` block right after one is exactly what it prints."""

from __future__ import annotations

import contextlib
import io
import re

from conftest import ROOT

PAGE = ROOT / "docs" / "api.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)


def blocks() -> list[tuple[str, str | None]]:
    """(code, what it prints, or None) for each Python block of the page."""
    found = FENCE.findall(PAGE.read_text())
    pairs = []
    for index, (language, text) in enumerate(found):
        if language != "python":
            continue
        after = found[index + 1] if index + 1 < len(found) else ("", "")
        pairs.append((text, after[1] if after[0] == "text" else None))
    return pairs


def test_the_pages_examples_run_and_print_what_it_shows(monkeypatch):
    monkeypatch.chdir(ROOT)
    found = blocks()
    assert len(found) >= 7
    namespace: dict = {"__name__": "api_page"}
    for number, (code, shown) in enumerate(found, start=1):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"{PAGE.name} block {number}", "exec"), namespace)
        if shown is not None:
            assert out.getvalue() == shown, f"block {number}"


def test_the_page_shows_every_public_name():
    import modetable

    text = PAGE.read_text()
    for name in modetable.__all__:
        assert re.search(rf"\b{name}\b", text), name
