"""The selection code names no OME field, operator, event, condition or column:
those live in the rules' `selection:` section. This test greps for them (as
tests/test_data_decides.py does for the mode rules; message texts are covered
there for every message, selection's included)."""

from __future__ import annotations

import re

import attrs
from conftest import ROOT
from test_data_decides import code_strings

from modetable.parsing import paths

CODE = [
    *sorted((ROOT / "src" / "modetable" / "selection").glob("*.py")),
    ROOT / "src" / "modetable" / "cli" / "select.py",
    ROOT / "src" / "modetable" / "cli" / "explain.py",
]


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple):
        return [v for v in value if isinstance(v, str)]
    return []


def selection_words(rules) -> set[str]:
    """OME's own words in the selection rules. Lower-case single words (`name`,
    `version`, `priority`, `min`) are left out: they are also the rules
    format's vocabulary and the JSON contract's keys, so grepping them says
    nothing. The field names OME spells in camelCase are what matters."""
    selection = rules.selection
    words: set[str] = set()
    holders = [
        selection.model_ref,
        selection.model,
        selection.runtime,
        selection.entry,
        selection.spec_fields,
        selection.webhook,
    ]
    templates = list(selection.accelerator_classes)
    for holder in holders:
        for field in attrs.fields(type(holder)):
            templates += _strings(getattr(holder, field.name))
    for template in templates:
        for segment in paths.split(template):
            if segment != segment.lower() or "/" in segment:
                words.add(segment)
    pipeline = selection.formats.pipeline
    words |= {pipeline.class_name, pipeline.additional}
    words |= set(selection.versions.operators) | {selection.versions.default_operator}
    # Event types (Warning) are Kubernetes' generic enum, also kubectl's prefix.
    for effects in selection.outcomes.values():
        for effect in effects:
            words |= {w for w in (effect.reason, effect.source) if w}
            if effect.emit == "condition" and effect.type:
                words.add(effect.type)
    words |= {selection.explain.yes, selection.explain.no}
    words |= set(selection.explain.resources.values())
    words |= {selection.formats.label.prefix} | set(selection.scope_words.values())
    return words


def offences(words: set[str], files) -> list[str]:
    # A word inside a dotted path counts too (`spec.supportedModelFormats`).
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(words))) + r")(?![\w-])")
    found = []
    for path in files:
        for line, text in code_strings(path):
            match = pattern.search(text)
            if match:
                found.append(f"{path.name}:{line}: names {match.group(1)!r}")
    return found


def test_the_grep_finds_what_it_looks_for(ruleset, tmp_path):
    words = selection_words(ruleset.rules)
    assert {
        "supportedModelFormats",
        "modelSizeRange",
        "acceleratorClasses",
        "ome.io/accelerator-class",
        "GreaterThanOrEqual",
        "RuntimeNotFound",
        "RuntimeReady",
        "mt:",
    } <= words
    planted = tmp_path / "planted.py"
    planted.write_text('PATH = "spec.supportedModelFormats"\nSTATUS = "RuntimeNotFound"\n')
    assert len(offences(words, [planted])) == 2


def test_selection_code_names_no_field_operator_event_or_column(ruleset):
    assert offences(selection_words(ruleset.rules), CODE) == []


def test_explain_code_names_no_column_of_kubectls_table(ruleset):
    """Other commands may print their own headings; explain's are OME's."""
    columns = set(ruleset.rules.selection.explain.columns)
    explain = [path for path in CODE if path.stem == "explain"]
    assert len(explain) == 2
    assert offences(columns, explain) == []
