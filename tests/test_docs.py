"""`modetable docs`: the pages follow the rules, and --check fails until they do."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import ROOT, RULES, replace_once, rules_copy, run_cli
from docs_helpers import html_tables, outside_regions

from modetable.output import atomic

PAGE = "deployment-mode-matching.md"
MATCHING_HEADER = [
    "InferenceService's engine mode",
    "Runtime's <code>engineConfig</code> mode",
    "Result",
]


@pytest.fixture
def project(tmp_path) -> Path:
    """A copy of the project's docs/ and rules/ to change freely."""
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    rules_copy(tmp_path / "rules" / "modes.yaml")
    return tmp_path


def edit_rules(project: Path, old: str, new: str) -> None:
    replace_once(project / "rules" / "modes.yaml", old, new)


def docs(project: Path, *args: str):
    return run_cli(
        "docs",
        "--docs-dir",
        str(project / "docs"),
        "--rules",
        str(project / "rules" / "modes.yaml"),
        *args,
    )


def region(page: str, name: str) -> str:
    begin = page.index(f"<!-- BEGIN modetable:{name} -->")
    return page[begin : page.index(f"<!-- END modetable:{name} -->", begin)]


def changed_lines(diff: str) -> tuple[list[str], list[str]]:
    lines = [line for line in diff.splitlines() if not line.startswith(("---", "+++"))]
    return [x[1:] for x in lines if x.startswith("-")], [x[1:] for x in lines if x.startswith("+")]


def test_the_shipped_pages_are_up_to_date_with_the_shipped_rules():
    run = run_cli("docs", "--check", "--docs-dir", str(ROOT / "docs"), "--rules", str(RULES))
    assert (run.code, run.out, run.err) == (0, "", "")


def test_a_status_change_shows_in_the_pages_and_check_fails_until_regenerated(project):
    page_path = project / "docs" / PAGE
    before = page_path.read_text()
    # Deprecated from v1.3 on: the v1.3 table changes, the one pinned to v1.2.2 does not.
    edit_rules(
        project,
        "  - name: VirtualDeployment\n    status: legacy\n",
        "  - name: VirtualDeployment\n    status: legacy\n"
        '    statuses:\n      - status: deprecated\n        since: "v1.3"\n',
    )

    check = docs(project, "--check")
    assert check.code == 1
    assert check.err == (
        f"modetable: {page_path} is out of date (run the same command without --check)\n"
    )
    assert check.out.startswith(f"--- {page_path}\n+++ {page_path}\n@@ ")
    old_rows = [line for line in before.splitlines() if line.startswith("| `VirtualDeployment`")]
    assert len(old_rows) == 2  # the v1.3 table and the one pinned to v1.2.2
    assert changed_lines(check.out) == (
        old_rows[:1],
        [old_rows[0].replace("| legacy    ", "| deprecated")],
    )
    assert page_path.read_text() == before  # --check writes nothing

    write = docs(project)
    assert (write.code, write.out, write.err) == (0, f"wrote {page_path}\n", "")
    after = page_path.read_text()
    assert outside_regions(after) == outside_regions(before)
    (valid,) = html_tables(region(after, "valid-modes"))
    assert valid[4] == [
        "<code>VirtualDeployment</code>",
        "deprecated",
        "always",
        "A whole InferenceService with no workload, from its own "
        "<code>metadata.annotations</code>.",
    ]
    assert docs(project, "--check").code == 0


def test_version_gated_rows_show_in_their_version_only(project):
    page_path = project / "docs" / PAGE
    before = page_path.read_text()
    edit_rules(
        project,
        "      declared: OMENative\n      outcome: reject\n      row: different-mode\n",
        "      declared: OMENative\n      outcome: reject\n      row: different-mode\n"
        "    - requested: MultiNode\n"
        "      declared: RawDeployment\n"
        "      outcome: reject\n"
        "      row: different-mode\n"
        '      since: "v1.3"\n',
    )
    edit_rules(
        project,
        '      path: "metadata.annotations[{annotation_key}]"\n      counts: never\n'
        '      docs:\n        where: "`metadata.annotations`"\n  declared:\n',
        '      path: "metadata.annotations[{annotation_key}]"\n      counts: never\n'
        '      docs:\n        where: "`metadata.annotations`"\n'
        "    - id: isvc-label\n"
        "      object: isvc\n"
        '      path: "metadata.labels[{annotation_key}]"\n'
        "      counts: never\n"
        '      since: "v1.3"\n'
        "      docs:\n"
        '        where: "`metadata.labels`"\n'
        "  declared:\n",
    )
    assert docs(project, "--check").code == 1
    assert docs(project).code == 0
    assert docs(project, "--check").code == 0
    after = page_path.read_text()
    assert outside_regions(after) == outside_regions(before)

    (matching,) = html_tables(region(after, "matching-table"))
    assert matching == [
        MATCHING_HEADER,
        ["None", "<code>MultiNode</code> (deprecated)", "Passes"],
        ["<code>OMENative</code>", "None", "Passes"],
        ["<code>OMENative</code>", "<code>OMENative</code>", "Passes"],
        ["<code>OMENative</code>", "<code>MultiNode</code>", "Rejected"],
        ["<code>RawDeployment</code>", "<code>OMENative</code>", "Rejected"],
        ["<code>MultiNode</code>", "<code>RawDeployment</code>", "Rejected"],
    ]
    (declaration,) = html_tables(region(after, "declaration-table"))
    assert declaration[-1] == [
        "InferenceService: <code>metadata.annotations</code> or <code>metadata.labels</code> "
        "(since v1.3)",
        "No",
    ]

    out = project / "v1.2.2"
    assert docs(project, "--ome-version", "v1.2.2", "--out", str(out)).code == 0
    old = (out / PAGE).read_text()
    (matching,) = html_tables(region(old, "matching-table"))
    # MultiNode was deprecated by v1.3: in v1.2.2 it is not.
    assert matching == [MATCHING_HEADER, ["None", "<code>MultiNode</code>", "Passes"]]
    (declaration,) = html_tables(region(old, "declaration-table"))
    assert declaration[-1] == ["InferenceService: <code>metadata.annotations</code>", "No"]


def test_ome_version_renders_into_the_folder_named_and_leaves_docs_alone(project):
    before = {p.name: p.read_bytes() for p in (project / "docs").iterdir()}
    out = project / "out" / "v1.2.2"
    run = docs(project, "--ome-version", "1.2.2", "--out", str(out))
    written = "".join(
        f"wrote {out / name}\n" for name in ("commands.md", PAGE, "findings.md", "sharp-edges.md")
    )
    assert (run.code, run.out, run.err) == (0, written, "")
    assert {p.name: p.read_bytes() for p in (project / "docs").iterdir()} == before
    # only pages with regions
    assert sorted(p.name for p in out.iterdir()) == [
        "commands.md",
        PAGE,
        "findings.md",
        "sharp-edges.md",
    ]
    page = (out / PAGE).read_text()
    assert outside_regions(page) == outside_regions(before[PAGE].decode())
    (valid,) = html_tables(region(page, "valid-modes"))
    assert [row[:3] for row in valid] == [
        ["Value", "Status", "Valid"],
        ["<code>RawDeployment</code>", "current", "always"],
        ["<code>MultiNode</code>", "current", "always"],
        ["<code>VirtualDeployment</code>", "legacy", "always"],
        ["<code>MultiNodeRayVLLM</code>", "current", "before v1.3"],
    ]
    assert "Not valid in v1.2.2, so read as no mode: `OMENative` (since v1.3).\n" in page
    (rejection,) = html_tables(region(page, "rejection-table"))
    assert rejection[2] == [
        "No runtime passes",
        "The webhook rejects the InferenceService. After admission, OME records a Warning "
        "event with reason <code>RuntimeSelectionError</code>. Running pods keep serving.",
    ]

    again = docs(project, "--ome-version", "v1.2.2", "--out", str(out), "--check")
    assert (again.code, again.out) == (0, "")
    v13 = docs(project, "--ome-version", "v1.3", "--out", str(out), "--check")
    assert v13.code == 1
    assert "+Not valid in v1.3, so read as no mode: `MultiNodeRayVLLM` (before v1.3).\n" in v13.out


def test_check_into_an_empty_folder_diffs_from_nothing(project):
    out = project / "empty"
    run = docs(project, "--ome-version", "v1.3", "--out", str(out), "--check")
    assert run.code == 1
    assert run.out.startswith(f"--- /dev/null\n+++ {out / 'commands.md'}\n@@ -0,0 +1,")
    assert f"--- /dev/null\n+++ {out / PAGE}\n@@ -0,0 +1," in run.out
    assert not out.exists()


def test_defaults_are_docs_and_rules_under_the_current_directory(project, monkeypatch):
    edit_rules(project, "    status: legacy\n", "    status: deprecated\n")
    monkeypatch.chdir(project)
    run = run_cli("docs", "--check")
    assert run.code == 1
    assert run.err == (
        f"modetable: docs/{PAGE} is out of date (run the same command without --check)\n"
    )
    assert run_cli("docs").out == f"wrote docs/{PAGE}\n"
    assert run_cli("docs", "--check").code == 0


def test_pages_without_regions_are_left_alone(project):
    plain = project / "docs" / "plain.md"
    plain.write_bytes(b"# Plain\r\n\r\nno regions | here\n")
    run = docs(project)
    assert (run.code, run.out) == (0, "")
    assert plain.read_bytes() == b"# Plain\r\n\r\nno regions | here\n"


def test_an_interrupted_write_keeps_the_page_whole(project, monkeypatch):
    edit_rules(project, "    status: legacy\n", "    status: deprecated\n")
    page_path = project / "docs" / PAGE
    before = page_path.read_bytes()

    def interrupted(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", interrupted)
    run = docs(project)
    assert (run.code, run.out) == (2, "")
    assert run.err == f"modetable: error: {page_path}: cannot write: No space left on device\n"
    assert page_path.read_bytes() == before
    assert [p.name for p in page_path.parent.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            ("--ome-version", "v1.2.2"),
            "--ome-version renders the pages as they stood in that version: "
            "name the folder to write them to with --out DIR",
        ),
        (
            ("--ome-version", "v1.2", "--out", "x"),
            "OME v1.2 is older than these rules describe: they cover v1.2.2 to v1.3.x",
        ),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(project, args, error):
    run = docs(project, *args)
    assert (run.code, run.out, run.err) == (2, "", f"modetable: error: {error}\n")


def test_a_missing_docs_folder_is_one_line_and_exit_2(tmp_path):
    run = run_cli("docs", "--docs-dir", str(tmp_path / "nope"), "--rules", str(RULES))
    assert (run.code, run.err) == (2, f"modetable: error: {tmp_path / 'nope'}: no such folder\n")


def test_broken_markers_and_options_name_their_places_all_at_once(project):
    options = project / "docs" / "options.md"
    options.write_text(
        "# Options\n\n<!-- BEGIN modetable:valid-modes colour=red -->\n"
        "<!-- END modetable:valid-modes -->\n\n"
        "<!-- BEGIN modetable:matching-table version=v0.1 -->\n"
        "<!-- END modetable:matching-table -->\n"
    )
    markers = project / "docs" / "markers.md"
    markers.write_text("<!-- BEGIN modetable:no-such -->\n")
    run = docs(project, "--check")
    assert (run.code, run.out) == (2, "")
    assert run.err.splitlines() == [
        f"modetable: error: {markers}:1:1: unknown generated region 'no-such'",
        f"modetable: error: {markers}:1:1: region 'no-such' is never closed (no END)",
        f"modetable: error: {options}:3:1: region 'valid-modes' takes no option 'colour' "
        "(options: version)",
        f"modetable: error: {options}:6:1: OME v0.1 is older than these rules describe: "
        "they cover v1.2.2 to v1.3.x",
    ]


def test_a_rules_file_without_a_docs_section_is_an_error(project):
    rules = project / "rules" / "modes.yaml"
    text = rules.read_text()
    rules.write_text(text[: text.index("\n# The words `modetable docs`")] + "\n")
    run = docs(project, "--check")
    assert run.code == 2
    assert run.err.splitlines()[0] == (
        f"modetable: error: {rules}: the rules file has no docs: section to render from"
    )


def test_the_selection_checks_come_in_the_rules_order_with_their_reason_formats(v13):
    from modetable.docs.tables import selection_checks

    (checks,) = html_tables(selection_checks(v13))
    assert [row[:3] for row in checks] == [
        ["#", "Check", "Reason when it fails"],
        ["1", "The runtime is not <code>disabled</code>", "<code>runtime is disabled</code>"],
        [
            "2",
            "The runtime lists every accelerator class the InferenceService names",
            "<code>runtime does not support the required accelerator class</code>",
        ],
        [
            "3",
            "The deployment modes match, for each compared component (this page's rule)",
            "<code>runtime {component} deployment mode {runtime_mode} does not match "
            "requested {component} deployment mode {isvc_mode}</code>",
        ],
        [
            "4",
            "An entry of <code>supportedModelFormats</code> matches the model",
            "<code>model format '{label}' not in supported formats: {entries}</code>",
        ],
        [
            "5",
            "The model's size is inside <code>modelSizeRange</code>",
            "<code>model size {size} is outside supported range {range}</code>",
        ],
        [
            "6",
            "An entry sets <code>autoSelect: true</code>",
            "<code>supports the model but has no supportedModelFormats[].autoSelect=true "
            "entry, so automatic selection skips it (pin it explicitly via "
            "spec.runtime.name instead)</code>",
        ],
        ["7", "The runtime's score is above 0", "<code>auto-select score is 0</code>"],
    ]
    assert checks[6][3] == (
        "counted in the no-runtime message, not listed there; "
        "auto-selection only; a named runtime is not checked"
    )


def test_reordering_the_selection_checks_reorders_the_page(project):
    edit_rules(
        project,
        "    - id: accelerator-class\n"
        "      check: accelerator_class\n"
        "      message: accelerator_class_unsupported\n"
        "      needs_isvc: true\n"
        "      model_slot: empty\n"
        "    - id: deployment-mode\n"
        "      check: deployment_mode\n"
        "      needs_isvc: true\n"
        "      model_slot: empty\n",
        "    - id: deployment-mode\n"
        "      check: deployment_mode\n"
        "      needs_isvc: true\n"
        "      model_slot: empty\n"
        "    - id: accelerator-class\n"
        "      check: accelerator_class\n"
        "      message: accelerator_class_unsupported\n"
        "      needs_isvc: true\n"
        "      model_slot: empty\n",
    )
    assert docs(project, "--check").code == 1
    assert docs(project).code == 0
    (checks,) = html_tables(region((project / "docs" / PAGE).read_text(), "selection-checks"))
    assert [row[1] for row in checks[2:4]] == [
        "The deployment modes match, for each compared component (this page's rule)",
        "The runtime lists every accelerator class the InferenceService names",
    ]


def test_a_docs_label_for_an_undefined_selection_outcome_is_an_error(project, ruleset):
    edit_rules(project, "    picked: A runtime passes", "    pickd: A runtime passes")
    run = docs(project, "--check")
    rules = project / "rules" / "modes.yaml"
    defined = ", ".join(ruleset.rules.selection.outcomes)
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        f"modetable: error: {rules}: docs.selection_outcomes names 'pickd', "
        f"which selection.outcomes does not define (it defines: {defined})\n"
    )


def test_an_example_kept_off_the_docs_is_still_a_test(project, monkeypatch):
    """`docs: false`: a test-only example is not one of OME's own examples."""
    page_path = project / "docs" / PAGE
    before = page_path.read_text()
    example = "      declared: OMENative\n      outcome: reject\n      row: different-mode\n"
    edit_rules(
        project,
        example,
        example + "    - requested: VirtualDeployment\n"
        "      declared: MultiNode\n"
        "      outcome: reject\n"
        "      row: different-mode\n"
        "      docs: false\n",
    )
    assert docs(project, "--check").code == 0
    assert page_path.read_text() == before
    monkeypatch.chdir(project)
    check = run_cli("rules", "check")
    assert (check.code, check.out.splitlines()[-1]) == (
        0,
        "rules/modes.yaml: 0 errors, 0 warnings; 29 of 29 example runs passed",
    )
    # The same example in the docs: the page is out of date until rendered.
    edit_rules(project, "      docs: false\n", "")
    assert docs(project, "--check").code == 1
