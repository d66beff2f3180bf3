"""The engine's code names no mode, annotation key, component, source path or
message text: those live in rules/modes.yaml. This test greps the code for them."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

from conftest import ROOT

from modetable.parsing import paths

SOURCE_DIR = ROOT / "src" / "modetable"
# Kubernetes object structure every manifest reader needs; not mode sources.
GENERIC_SEGMENTS = {"spec", "metadata", "annotations", "name", "namespace", "kind"}
MIN_FRAGMENT = 12
# Kubernetes' own texts, recorded there with their sources: the rules still
# hand-model two API-server checks with the same words (`Required value`, an
# enum's `Unsupported value`), until those checks come from the CRD schemas.
KUBERNETES_TEXTS = SOURCE_DIR / "inputs" / "api_texts.py"


def forbidden_names(rules) -> set[str]:
    names = {m.name for m in rules.modes}
    names |= {rules.annotation_key, rules.inheritance.annotation}
    if rules.suppression is not None:  # modetable's own annotation
        names.add(rules.suppression.annotation)
    for component in rules.components:
        names |= {component.name, component.isvc_field, component.runtime_field}
    for purpose in ("requested", "declared", "running"):
        for source in getattr(rules.sources, purpose):
            for template in (source.path, *source.present):
                if template is None:
                    continue
                for segment in paths.split(template):
                    if "{" not in segment and segment not in GENERIC_SEGMENTS:
                        names.add(segment)
    return names


def message_fragments(rules) -> set[str]:
    texts = [m.text for m in rules.messages.values()]
    texts += list(rules.explanations.values())
    texts += list(rules.admission_stages.values())
    fragments = set()
    for text in texts:
        for literal, *_ in string.Formatter().parse(text):
            literal = literal.strip(" :;,.()[]\"'=")
            if len(literal) >= MIN_FRAGMENT:
                fragments.add(literal)
    return fragments


def code_strings(path: Path) -> list[tuple[int, str]]:
    """String constants of a module, docstrings excepted."""
    tree = ast.parse(path.read_text())
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def test_the_grep_finds_what_it_looks_for(ruleset):
    """The check itself can fail: it flags a planted literal."""
    names = forbidden_names(ruleset.rules)
    assert {
        "MultiNode",
        "ome.io/deploymentMode",
        "modetable.io/ignore",
        "engineConfig",
        "deploymentMode",
        "router",
    } <= names
    assert "does not match requested" in " ".join(message_fragments(ruleset.rules))


def test_code_names_no_mode_key_path_or_message(ruleset):
    names = forbidden_names(ruleset.rules)
    fragments = message_fragments(ruleset.rules)
    word = re.compile(r"(?<![\w.-])(" + "|".join(map(re.escape, sorted(names))) + r")(?![\w-])")
    offences = []
    for path in sorted(SOURCE_DIR.rglob("*.py")):
        for line, text in code_strings(path):
            found = word.search(text)
            if found:
                offences.append(f"{path.relative_to(ROOT)}:{line}: names {found.group(1)!r}")
            for fragment in fragments:
                if fragment in text and path != KUBERNETES_TEXTS:
                    offences.append(
                        f"{path.relative_to(ROOT)}:{line}: holds message text {fragment!r}"
                    )
    assert offences == []
