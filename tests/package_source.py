"""modetable's own source, parsed once per test process: the syntax tree of each
module and the graph of which module imports which, for the tests about the
package's shape (test_import_circles, test_layers, test_public_surface). What
these give is shared: a test reads it and never changes it.

Every import counts, at the top of a module, inside a function or under
`TYPE_CHECKING`. Importing `pkg.mod` runs `pkg/__init__.py` first, so it counts
as importing the package too (except a module's own packages, which run before it).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from conftest import ROOT

PACKAGE = ROOT / "src" / "modetable"


def module_name(path: Path, package: Path = PACKAGE) -> str:
    """`pkg.sub.mod` for `pkg/sub/mod.py`; `pkg.sub` for `pkg/sub/__init__.py`."""
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def parsed(package: Path = PACKAGE) -> dict[str, ast.Module]:
    """Each module of `package` by name (its `__main__` too), in the order of their paths."""
    return {
        module_name(path, package): ast.parse(path.read_text(), str(path))
        for path in sorted(package.rglob("*.py"))
    }


def imported(name: str, tree: ast.Module, known: set[str], package: bool) -> set[str]:
    """The modules of `known` that `name` imports, anywhere in its code."""
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


@functools.cache
def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module → the modules of `package` it imports."""
    trees = parsed(package)
    packages = {module_name(path, package) for path in package.rglob("__init__.py")}
    known = set(trees)
    return {name: imported(name, tree, known, name in packages) for name, tree in trees.items()}
