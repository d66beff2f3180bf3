"""Where modetable's own code looks a message up by key, and what it passes.

Most messages are named by a rule (a row's `message`, an admission rule's);
some the engine names itself (`policy.message("not_reconciled", component=...)`).
Reading those calls from the source makes them the contract a message's
`params` is checked against, with no list to keep beside the code. Only
`modetable rules check` and the tests read the source; loading does not.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import modetable
from modetable.settled import frozen

__all__ = ["CallSite", "call_sites"]

_MESSAGE = "message"  # the Policy method that takes a message key first


@frozen
class CallSite:
    """A call naming message `key`; `passed` is None when it passes `**values`."""

    key: str
    passed: tuple[str, ...] | None
    file: str
    line: int

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@cache
def call_sites(method: str = _MESSAGE) -> tuple[CallSite, ...]:
    """Every `.method("key", ...)` call in modetable's source (messages by default;
    `explanation` for the explanations)."""
    root = Path(modetable.__file__).resolve().parent
    found: list[CallSite] = []
    for path in sorted(root.rglob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
            if f".{method}(" not in text:
                continue
            tree = ast.parse(text, str(path))
        except (OSError, SyntaxError, UnicodeDecodeError):
            continue
        relative = f"modetable/{path.relative_to(root).as_posix()}"
        found.extend(_calls(tree, relative, method))
    return tuple(dict.fromkeys(found))  # a nested function is walked with its parent


def _calls(tree: ast.Module, file: str, method: str) -> Iterator[CallSite]:
    """The calls of each function (the module included) with the functions
    nested in it, each read with the string and dict assignments of the same
    reach. One walk of the module gathers them all, in the order a walk of
    each function would (a walk's order restricted to a part of the tree is
    that part's walk order); walking each function anew, three times, was most
    of `rules check` (0.7 s of CPU)."""
    functions: list[tuple[dict[str, list[str]], dict[str, tuple[str, ...]], list[ast.Call]]] = []
    todo: deque[tuple[ast.AST, tuple[int, ...]]] = deque([(tree, ())])
    while todo:
        node, enclosing = todo.popleft()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module):
            enclosing = (*enclosing, len(functions))
            functions.append(({}, {}, []))
        elif isinstance(node, ast.Assign):
            for at in enclosing:
                _string_assignment(node, functions[at][0])
                _dict_assignment(node, functions[at][1])
        elif _is_call(node, method):
            for at in enclosing:
                functions[at][2].append(node)  # type: ignore[arg-type]
        # ast.iter_child_nodes, without its two generators per node.
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                todo.append((value, enclosing))
            elif isinstance(value, list):
                todo.extend((item, enclosing) for item in value if isinstance(item, ast.AST))
    for assigned, mappings, calls in functions:
        for node in calls:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                keys = [first.value]
            elif isinstance(first, ast.Name):
                keys = assigned.get(first.id, [])  # `key = "a" if ... else "b"`
            else:
                continue  # a key a rule names: checked through the rule's field
            passed = _passed(node, mappings)
            for key in keys:
                yield CallSite(key, passed, file, node.lineno)


def _is_call(node: ast.AST, method: str) -> bool:
    """`something.method(first, ...)`."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == method
        and bool(node.args)
    )


def _string_assignment(node: ast.Assign, found: dict[str, list[str]]) -> None:
    """A local name assigned only string literals (possibly chosen by `if`)."""
    if len(node.targets) != 1:
        return
    target = node.targets[0]
    if not isinstance(target, ast.Name):
        return
    strings = _strings(node.value)
    if strings is not None:
        found.setdefault(target.id, []).extend(strings)


def _strings(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = _strings(node.body), _strings(node.orelse)
        if body is not None and orelse is not None:
            return body + orelse
    return None


def _dict_assignment(node: ast.Assign, found: dict[str, tuple[str, ...]]) -> None:
    """A local name assigned a dict literal with string keys: those keys."""
    if (
        len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Dict)
        and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.value.keys)
    ):
        found[node.targets[0].id] = tuple(k.value for k in node.value.keys)  # type: ignore[union-attr]


def _passed(call: ast.Call, mappings: dict[str, tuple[str, ...]]) -> tuple[str, ...] | None:
    names: list[str] = []
    for keyword in call.keywords:
        if keyword.arg is not None:
            names.append(keyword.arg)
        elif isinstance(keyword.value, ast.Name) and keyword.value.id in mappings:
            names.extend(mappings[keyword.value.id])
        else:
            return None  # **values: what it holds is not visible here
    return tuple(names)
