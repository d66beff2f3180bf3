"""No import circle inside src/modetable: data flows one way.

Every import counts, at the top of a module, inside a function or under
`TYPE_CHECKING`: a circle hidden by a function-level import is still a circle.
Importing `pkg.mod` runs `pkg/__init__.py` first, so it counts as importing
the package too (except a module's own packages, which run before it).
"""

from __future__ import annotations

import ast

from conftest import ROOT

PACKAGE = ROOT / "src" / "modetable"


def _module_name(path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, ast.Module]:
    return {
        _module_name(path): ast.parse(path.read_text(), str(path))
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def _imported(name: str, tree: ast.Module, known: set[str], package: bool) -> set[str]:
    """The modules of the package that `name` imports, anywhere in its code."""
    here = name if package else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.rsplit(".", node.level - 1)[0] if node.level > 1 else here
                base = f"{anchor}.{base}" if base else anchor
            targets.add(base)
            # `from pkg import mod` imports the module pkg.mod.
            targets.update(f"{base}.{alias.name}" for alias in node.names)
    found = set()
    for target in targets:
        parts = target.split(".")
        for end in range(1, len(parts) + 1):
            prefix = ".".join(parts[:end])
            own_package = name == prefix or name.startswith(prefix + ".")
            if prefix in known and not own_package:
                found.add(prefix)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    packages = {_module_name(path) for path in PACKAGE.rglob("__init__.py")}
    return {name: _imported(name, tree, known, name in packages) for name, tree in modules.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), and any
    module that imports itself."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in order:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], order[target])
        if low[node] == order[node]:
            members = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                members.append(member)
                if member == node:
                    break
            if len(members) > 1 or node in graph[node]:
                found.append(sorted(members))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found


def test_no_import_circle_inside_the_package():
    assert _circles(_graph()) == []


def test_the_graph_sees_function_level_and_type_checking_imports():
    graph = _graph()
    # At the top of the module, and inside a function (match's run).
    assert "modetable.engine.matching" in graph["modetable.admission.fields"]
    assert "modetable.api.results" in graph["modetable.cli.match"]
    # Only under TYPE_CHECKING.
    assert "modetable.rules.policy" in graph["modetable.inputs.checks"]


def test_a_circle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert _circles(graph) == [["a", "b", "c"], ["e"]]
