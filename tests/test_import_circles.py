"""No import circle inside src/modetable: data flows one way.

Every import counts, at the top of a module, inside a function or under
`TYPE_CHECKING`: a circle hidden by a function-level import is still a circle.
Importing `pkg.mod` runs `pkg/__init__.py` first, so it counts as importing
the package too (except a module's own packages, which run before it).
"""

from __future__ import annotations

from package_source import import_graph


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
    assert _circles(import_graph()) == []


def test_the_graph_sees_function_level_and_type_checking_imports():
    graph = import_graph()
    # At the top of the module, and inside a function (match's run).
    assert "modetable.engine.matching" in graph["modetable.admission.fields"]
    assert "modetable.api.results" in graph["modetable.cli.match"]
    # Only under TYPE_CHECKING.
    assert "modetable.rules.policy" in graph["modetable.inputs.checks"]


def test_a_circle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert _circles(graph) == [["a", "b", "c"], ["e"]]
