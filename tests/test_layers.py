"""The packages stand in layers, as docs/architecture.md draws them: a module
imports only from its own layer and those beneath it. Every import counts, as
in tests/test_import_circles.py (inside functions and under TYPE_CHECKING too).
The page's table is the one statement of the layers (this test reads it), and
the page names each import allowed to run against them, with why (at most 2).
"""

from __future__ import annotations

import re

from conftest import ROOT
from package_source import PACKAGE, import_graph

PAGE = ROOT / "docs" / "architecture.md"
MOST_EXCEPTIONS = 2

# The table: `| layer | packages | holds |`, bottom layer first; an exception:
# "- `importer` imports `imported`: why".
_HEADER = "| layer | packages | holds |"
_EXCEPTION = re.compile(r"^- `([\w.]+)` imports `([\w.]+)`:")


def layers_drawn(text: str, root: str = "modetable") -> list[tuple[str, list[str]]]:
    """(layer, its packages and modules as dotted names), bottom first, from the page's table."""
    lines = text.splitlines()
    start = lines.index(_HEADER) + 2
    found = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        layer, packages, _holds = (cell.strip() for cell in line.strip("|").split(" | ", 2))
        names = re.findall(r"`([\w/]+)`", packages)
        found.append(
            (
                layer,
                [
                    root if n == "__init__" else f"{root}.{n.strip('/').replace('/', '.')}"
                    for n in names
                ],
            )
        )
    return found


def exceptions_drawn(text: str) -> set[tuple[str, str]]:
    return {m.groups() for line in text.splitlines() if (m := _EXCEPTION.match(line))}


def against_layers(
    graph: dict[str, set[str]], layers: list[tuple[str, list[str]]]
) -> set[tuple[str, str]]:
    """Every (importer, imported) whose imported module stands in a higher layer."""

    def level(module: str) -> int:
        placed = [
            (len(name), index)
            for index, (_layer, names) in enumerate(layers)
            for name in names
            if module == name or module.startswith(f"{name}.")
        ]
        assert placed, f"{module} stands in no layer of docs/architecture.md"
        return max(placed)[1]  # the most specific name decides

    return {
        (module, target)
        for module, targets in graph.items()
        for target in targets
        if level(target) > level(module)
    }


def test_every_import_keeps_to_the_layers_but_the_named_exceptions():
    text = PAGE.read_text()
    allowed = exceptions_drawn(text)
    assert len(allowed) <= MOST_EXCEPTIONS
    # Exactly these: an exception that no longer happens leaves the page too.
    assert against_layers(import_graph(PACKAGE), layers_drawn(text)) == allowed


def test_every_module_stands_in_a_layer():
    layers = layers_drawn(PAGE.read_text())
    drawn = [name for _layer, names in layers for name in names]
    assert len(drawn) == len(set(drawn))
    for module in import_graph(PACKAGE):
        assert any(module == n or module.startswith(f"{n}.") for n in drawn), module


def test_a_forbidden_import_is_found(tmp_path):
    """The checker itself can fail: a low module importing a high one, at the top,
    inside a function and under TYPE_CHECKING, is reported; an import downward is not."""
    package = tmp_path / "fake"
    for folder in ("low", "high"):
        (package / folder).mkdir(parents=True)
        (package / folder / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "low" / "base.py").write_text("X = 1\n")
    (package / "low" / "top.py").write_text("from fake.high.face import Y\n")
    (package / "low" / "inside.py").write_text("def f():\n    import fake.high.face\n")
    (package / "low" / "typed.py").write_text(
        "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from fake.high import face\n"
    )
    (package / "high" / "face.py").write_text("from fake.low.base import X\nY = X\n")
    page = (
        f"{_HEADER}\n|---|---|---|\n| low | `low/` | the base |\n"
        "| high | `high/`, `__init__` | the face |\n"
    )
    found = against_layers(import_graph(package), layers_drawn(page, root="fake"))
    assert found == {
        ("fake.low.top", "fake.high"),
        ("fake.low.top", "fake.high.face"),
        ("fake.low.inside", "fake.high"),
        ("fake.low.inside", "fake.high.face"),
        ("fake.low.typed", "fake.high"),
        ("fake.low.typed", "fake.high.face"),
    }
    exceptions = (
        "- `fake.low.top` imports `fake.high.face`: because.\nNot a bullet: `x` imports `y`:"
    )
    assert exceptions_drawn(exceptions) == {("fake.low.top", "fake.high.face")}
