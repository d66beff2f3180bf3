"""docs/json.md against what each command prints with `-o json`.

Each section's example is read from the page (`{...}`, `[...]` and `"..."`
stand for what it leaves out) and held to a real run: every object it shows
has exactly the real object's fields, in order, and where the example is a
run these tests can make, the same values. Every field its table names is in
the real output. So a field added, renamed or dropped fails here until the
page says so.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import ROOT, isvc_doc, mode_annotation, rules_copy, run_cli, runtime_doc
from test_audit import write_fleet
from test_upgrade import documents as upgrade_documents

PAGE = ROOT / "docs" / "json.md"
ISVC = "examples/inference-service.yaml"
MULTINODE = "srt-llama-3-3-70b-instruct-multinode"
ELIDED = "..."
IDENTITY = ("name", "check", "code")  # how a shown list item finds its real one

# The scenarios of docs/commands.md's examples (tests/test_docs_core_examples.py
# holds those of effective, match and admit whole; here only their fields).
EFFECTIVE = [
    isvc_doc(engine={}, router={}, runtime={"name": "rt"}),
    runtime_doc(
        "rt", engineConfig=mode_annotation("MultiNode"), routerConfig=mode_annotation("MultiNode")
    ),
]
ADMIT = [isvc_doc(engine=mode_annotation("OMENative"), decoder={})]


def _write(folder: Path, name: str, documents: list[dict]) -> None:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump_all(documents, sort_keys=False))


def _effective(folder: Path) -> tuple[Path, tuple[str, ...]]:
    _write(folder, "manifests/m.yaml", EFFECTIVE)
    return folder, ("effective", "--isvc", "ns/svc", "manifests/")


def _admit(folder: Path) -> tuple[Path, tuple[str, ...]]:
    _write(folder, "manifests/m.yaml", ADMIT)
    return folder, ("admit", "--isvc", "svc", "manifests/")


def _audit(folder: Path) -> tuple[Path, tuple[str, ...]]:
    """The fleet of docs/commands.md's `audit` example (tests/test_audit.py)."""
    write_fleet(folder)
    return folder, ("audit", "fleet/")


def _upgrade(folder: Path) -> tuple[Path, tuple[str, ...]]:
    """The fleet of docs/commands.md's upgrade example (tests/test_upgrade.py)."""
    _write(folder, "fleet/fleet.yaml", upgrade_documents())
    return folder, ("audit", "--from", "v1.2.2", "--to", "v1.3", "fleet/")


def _gap(folder: Path) -> tuple[Path, tuple[str, ...]]:
    """The `rules check` example: VirtualDeployment left out of `declared-none`."""
    rules_copy(
        folder / "rules" / "modes.yaml",
        (
            "    - id: declared-none\n      requested: mode\n",
            "    - id: declared-none\n"
            "      requested: [RawDeployment, OMENative, MultiNode, MultiNodeRayVLLM]\n",
        ),
    )
    return folder, ("rules", "check")


RULES_PLACE = re.compile(r"(rules/modes\.yaml):\d+:\d+")


def _here(*argv: str):
    return lambda folder: (ROOT, argv)


# section title -> how to run it (from which folder), and whether the example
# shows that run's values (else only its fields)
RUNS = {
    "effective": (_effective, True),
    "match": (_here("match", "--isvc", ISVC, "examples/", "--runtime", MULTINODE), True),
    "admit": (_admit, True),
    "select": (_here("select", "--isvc", ISVC, "examples/"), True),
    "audit": (_audit, True),
    "audit --from V --to V": (_upgrade, True),
    "explain": (_here("explain", "--isvc", ISVC, "examples/", "--why", MULTINODE), True),
    "rules check": (_gap, True),
    "rules diff": (_here("rules", "diff", "v1.2.2", "v1.3"), True),
}


def sections() -> dict[str, str]:
    found = {}
    for part in PAGE.read_text().split("\n## ")[1:]:
        title, _, body = part.partition("\n")
        found[title.strip("`")] = body
    return found


def example(body: str) -> Any:
    text = re.search(r"^```json\n(.*?)^```$", body, re.M | re.S).group(1)
    return json.loads(text.replace("{...}", "{}").replace("[...]", "[]"))


@pytest.fixture
def real(tmp_path, monkeypatch):
    def run(title: str) -> Any:
        folder, argv = RUNS[title][0](tmp_path)
        if not (folder / "rules").exists():
            # As in a checkout: the rules file read is rules/modes.yaml, the bundled one.
            (folder / "rules").symlink_to(ROOT / "rules")
        monkeypatch.chdir(folder)
        done = run_cli(*argv, "-o", "json")
        assert done.code in (0, 1), done.err
        return json.loads(done.out)

    return run


def test_every_section_is_held_to_a_run():
    assert set(sections()) == set(RUNS)


def _item(item: Any, got: list, index: int, values: bool) -> Any:
    if values and isinstance(item, dict):
        for key in IDENTITY:
            if key in item:
                return next((g for g in got if g.get(key) == item[key]), None)
    return got[index] if index < len(got) else (got[0] if got else None)


def _compare(shown: Any, got: Any, values: bool, where: str) -> None:
    if isinstance(shown, dict):
        assert isinstance(got, dict), f"{where}: {got!r} is not an object"
        if not shown:
            return  # {...}: left out
        assert list(shown) == list(got), f"{where}: fields {list(shown)} != {list(got)}"
        for key, value in shown.items():
            _compare(value, got[key], values, f"{where}.{key}")
    elif isinstance(shown, list):
        assert isinstance(got, list), f"{where}: {got!r} is not a list"
        for index, item in enumerate(shown):
            match = _item(item, got, index, values)
            assert match is not None, f"{where}[{index}]: no such item in {got!r}"
            _compare(item, match, values, f"{where}[{index}]")
    elif values and not (isinstance(shown, str) and ELIDED in shown):
        # A place in the shipped rules moves with every edit above it; the
        # loader's positions are held exactly by the broken-rules corpus.
        if isinstance(shown, str) and isinstance(got, str):
            shown, got = (
                RULES_PLACE.sub(r"\1:LINE:COL", shown),
                RULES_PLACE.sub(r"\1:LINE:COL", got),
            )
        assert shown == got, f"{where}: {shown!r} != {got!r}"


@pytest.mark.parametrize("title", list(RUNS))
def test_the_example_is_what_the_command_prints(title, real):
    _compare(example(sections()[title]), real(title), RUNS[title][1], title)


def _keys(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data).union(*(_keys(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(_keys(v) for v in data))
    return set()


@pytest.mark.parametrize("title", list(RUNS))
def test_every_field_the_table_names_is_printed(title, real):
    cells = [
        line.split(" | ")[0] for line in sections()[title].splitlines() if line.startswith("| `")
    ]
    named = {
        path.split(".")[-1].removesuffix("[]")
        for cell in cells
        for path in re.findall(r"`([^`]+)`", cell)
    }
    assert named <= _keys(real(title)), title


# Objects keyed by data (component names, a section's inputs, counts by
# result or mode), not by field: their keys are values, their values may hold fields.
KEYED_BY_DATA = {"components", "inputs", "reconcile", "reconcile_rules", "results", "modes"}
KEYED_BY_DATA |= {"mode_changes", "severity", "findings"}
# Sections that document some of their fields as another section's
# ("every field of select's JSON", "as in audit's deprecations").
REFERS = {"audit": ("select",), "audit --from V --to V": ("audit", "select")}


def _fields(data: Any, keyed_by_data: bool = False) -> set[str]:
    if isinstance(data, dict):
        own = set() if keyed_by_data else set(data)
        return own.union(*(_fields(v, k in KEYED_BY_DATA) for k, v in data.items()))
    if isinstance(data, list):
        return set().union(*(_fields(v) for v in data))
    return set()


@pytest.mark.parametrize("title", list(RUNS))
def test_every_field_printed_is_on_the_page(title, real):
    """The other way round: each field the run prints is shown in the example or
    named in the section's text (or the section it refers to), so a field added
    to the output fails here until the page documents it."""
    text = "".join(sections()[t] for t in (title, *REFERS.get(title, ())))
    named = set(re.findall(r'"([^"]+)":', text)) | set(re.findall(r"`([^`]+)`", text))
    named |= {part.removesuffix("[]") for name in list(named) for part in name.split(".")}
    missing = sorted(_fields(real(title)) - named)
    assert missing == [], f"{title}: {missing}"


# --- the page against the views -------------------------------------------------

# section title -> the view its JSON is converted from (modetable.views).
VIEWS = {
    "effective": "effective:EffectiveView",
    "match": "match:MatchView",
    "admit": "admit:AdmitView",
    "select": "select:SelectView",
    "audit": "audit:AuditView",
    "audit --from V --to V": "upgrade:UpgradeView",
    "explain": "explain:ExplainView",
    "rules check": "rules:RulesCheckView",
    "rules diff": "rules:RulesDiffView",
}
_SPLICED = object()  # where a flattened dict's keys (data, not fields) stand


def _view(name: str) -> type:
    import importlib

    module, _, cls = name.partition(":")
    return getattr(importlib.import_module(f"modetable.views.{module}"), cls)


def _types(view: type) -> dict[str, Any]:
    import typing

    return typing.get_type_hints(view)


def _unless_none(kind: Any) -> Any:
    import types
    import typing

    if isinstance(kind, types.UnionType) or typing.get_origin(kind) is typing.Union:
        others = [k for k in typing.get_args(kind) if k is not type(None)]
        return others[0] if len(others) == 1 else kind
    return kind


def _document_keys(view: type) -> list[tuple[Any, Any, bool]]:
    """(key, type, may be left out) of a view's document, in order; a
    flattened view's keys in its place, a flattened dict's as _SPLICED."""
    import attrs

    hints = _types(view)
    keys: list[tuple[Any, Any, bool]] = []
    for field in attrs.fields(view):
        kind = _unless_none(hints[field.name])
        if field.metadata.get("flatten"):
            keys += _document_keys(kind) if attrs.has(kind) else [(_SPLICED, None, True)]
        else:
            keys.append(
                (field.metadata.get("key", field.name), kind, "omit_if_none" in field.metadata)
            )
    return keys


def _held_to_view(shown: Any, kind: Any, where: str) -> None:
    import typing

    import attrs

    kind = _unless_none(kind)
    if shown is None:
        return
    if attrs.has(kind):
        assert isinstance(shown, dict), f"{where}: {shown!r} is not an object"
        if not shown:
            return  # {...}: left out
        keys = _document_keys(kind)
        at = 0
        for key in shown:
            while at < len(keys) and keys[at][0] != key:
                if keys[at][0] is _SPLICED and key not in [k for k, _, _ in keys[at + 1 :]]:
                    break  # a key of the flattened dict
                assert keys[at][2], f"{where}: {key!r} where the view has {keys[at][0]!r}"
                at += 1
            assert at < len(keys), f"{where}: {key!r} is no field of {kind.__name__}"
            if keys[at][0] is not _SPLICED:
                _held_to_view(shown[key], keys[at][1], f"{where}.{key}")
                at += 1
        left = [k for k, _, optional in keys[at:] if not optional]
        assert left == [], f"{where}: the page leaves out {left}"
    elif typing.get_origin(kind) is tuple and isinstance(shown, list):
        for index, item in enumerate(shown):
            _held_to_view(item, typing.get_args(kind)[0], f"{where}[{index}]")
    elif typing.get_origin(kind) is dict and isinstance(shown, dict):
        for name, value in shown.items():
            _held_to_view(value, typing.get_args(kind)[1], f"{where}.{name}")


def test_every_section_names_its_view():
    assert set(sections()) == set(VIEWS)


@pytest.mark.parametrize("title", list(VIEWS))
def test_the_example_has_the_views_fields_in_order(title):
    """Each object of the page's example has exactly its view's fields (after
    renames and flattening), in the view's order, a field the view leaves out
    when None absent only where it may be."""
    _held_to_view(example(sections()[title]), _view(VIEWS[title]), title)


def test_a_field_the_page_lacks_fails():
    shown = {"admission": {"allowed": True}, "schema_findings": [], "version": "v1.3", "rules": {}}
    lacking = "admit.admission: the page leaves out ['message', 'warnings', 'denied_by', "
    lacking += "'warning_checks', 'checked', 'not_checked']"
    with pytest.raises(AssertionError, match=re.escape(lacking)):
        _held_to_view(shown, _view(VIEWS["admit"]), "admit")
    wrong = "admit: 'versions' where the view has 'admission'"
    with pytest.raises(AssertionError, match=re.escape(wrong)):
        _held_to_view({"versions": "v1.3"}, _view(VIEWS["admit"]), "admit")
    unknown = "admit: 'note' is no field of AdmitView"
    with pytest.raises(AssertionError, match=re.escape(unknown)):
        _held_to_view(
            {"admission": {}, "schema_findings": [], "version": "v", "rules": {}, "note": 1},
            _view(VIEWS["admit"]),
            "admit",
        )
