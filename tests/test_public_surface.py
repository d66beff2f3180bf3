"""Public and private are visible: each module says what it offers in
`__all__`, internals start with `_` and stay home, and the audit builds on
selection's documented surface only."""

from __future__ import annotations

import ast
import importlib

from package_source import parsed


def _modules() -> dict[str, ast.Module]:
    """The package's modules but `__main__`, which is run, not imported."""
    return {name: tree for name, tree in parsed().items() if name != "modetable.__main__"}


def _defined(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return {n for n in names if not n.startswith("_")}


def _imported(tree: ast.Module) -> set[str]:
    return {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_every_module_lists_exactly_its_public_names():
    for name, tree in _modules().items():
        module = importlib.import_module(name)
        listed = getattr(module, "__all__", None)
        assert listed is not None, f"{name} has no __all__"
        assert all(hasattr(module, n) for n in listed), name
        assert not [n for n in listed if n.startswith("_")], name
        if not hasattr(module, "__path__"):
            # Its own public names, and any it hands on from the modules it imports.
            assert _defined(tree) <= set(listed), name
            assert set(listed) - _defined(tree) <= _imported(tree), name


def test_no_module_takes_another_modules_internals():
    modules = _modules()
    for name, tree in modules.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "") in modules:
                taken = [
                    a.name
                    for a in node.names
                    if a.name.startswith("_") and not a.name.endswith("__")
                ]
                assert not taken, f"{name} takes {taken} from {node.module}"


def test_the_audit_uses_selections_surface_only():
    for name, tree in _modules().items():
        if not name.startswith("modetable.audit"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "modetable.selection"
            ):
                assert node.module == "modetable.selection", f"{name} imports {node.module}"
