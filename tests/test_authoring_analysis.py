"""The decision table analysed in every version: GAP, OVERLAP, MASKED, UNUSED.

The broken tables are the shipped file with its matching rows replaced, so
every other section stays the one modetable ships.
"""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT, RULES, run_cli

from modetable.authoring.analysis import analyse, code_findings, unused
from modetable.rules import load_ruleset

VERSIONS = ("v1.2.2", "v1.3")

# A gap (VirtualDeployment against none), an overlap (RawDeployment against
# MultiNode) and a masked row (MultiNode against MultiNode), in every version.
DELIBERATE_ROWS = """\
  rows:
    - id: requested-none
      requested: none
      declared: "-"
      outcome: pass
    - id: declared-none
      requested: [RawDeployment, OMENative, MultiNode, MultiNodeRayVLLM]
      declared: none
      outcome: pass
    - id: same-mode
      requested: mode
      declared: same
      outcome: pass
    - id: raw-over-multinode
      requested: [RawDeployment]
      declared: [MultiNode]
      outcome: pass
    - id: different-mode
      requested: mode
      declared: different
      outcome: reject
      message: mode_mismatch
    - id: multinode-twice
      requested: [MultiNode]
      declared: [MultiNode]
      outcome: pass
"""


def with_rows(tmp_path: Path, rows: str, hit_policy: str = "UNIQUE") -> Path:
    """The shipped rules with the matching table's rows (and hit policy) replaced."""
    text = RULES.read_text()
    start = text.index("\nmatching:\n")
    rows_at = text.index("\n  rows:\n", start) + 1
    end = re.compile(r"^  (#|examples:)", re.M).search(text, rows_at).start()
    text = text[:rows_at] + rows + text[end:]
    text = text.replace("  hit_policy: UNIQUE\n", f"  hit_policy: {hit_policy}\n", 1)
    path = tmp_path / "modes.yaml"
    path.write_text(text)
    return path


def line_of(path: Path, needle: str) -> int:
    return path.read_text().splitlines().index(needle) + 1


def new_findings(path: Path) -> list[str]:
    """Findings of `path` the shipped file does not have, as `CODE [versions] message @line`."""
    shipped = {(f.code, f.message) for f in analyse(load_ruleset(RULES))}
    return [
        f"{f.code} [{', '.join(f.versions)}] {f.message} @{f.location.line}"
        for f in analyse(load_ruleset(path))
        if (f.code, f.message) not in shipped
    ]


def test_the_shipped_file_yields_no_findings():
    assert [str(f) for f in analyse(load_ruleset(RULES))] == []


def test_rules_check_on_the_shipped_file_passes_quietly():
    run = run_cli("rules", "check", "--strict", str(RULES))
    assert run.code == 0, run.out
    assert run.out.startswith(f"{RULES}: 0 errors, 0 warnings; ")


def test_a_deliberate_gap_overlap_and_masked_row_yield_exactly_those(tmp_path):
    path = with_rows(tmp_path, DELIBERATE_ROWS)
    rows = line_of(path, "  rows:")
    assert new_findings(path) == [
        f"GAP [v1.2.2, v1.3] no row matches requested=VirtualDeployment, declared=none @{rows + 1}",
        "OVERLAP [v1.2.2, v1.3] rows raw-over-multinode and different-mode both match "
        "requested=RawDeployment, declared=MultiNode (pass and reject; hit policy UNIQUE) "
        f"@{line_of(path, '    - id: different-mode')}",
        "MASKED [v1.2.2, v1.3] row multinode-twice never decides: earlier rows (same-mode) "
        f"match everything it matches @{line_of(path, '    - id: multinode-twice')}",
    ]


def test_rules_check_exits_1_on_the_deliberate_table(tmp_path):
    path = with_rows(tmp_path, DELIBERATE_ROWS)
    run = run_cli("rules", "check", str(path))
    assert run.code == 1
    lines = run.out.splitlines()
    gap = f"{path}:{line_of(path, '  rows:') + 1}:5: error: GAP [v1.2.2, v1.3]: "
    assert gap + "no row matches requested=VirtualDeployment, declared=none" in lines
    masked = (
        f"{path}:{line_of(path, '    - id: multinode-twice')}:7: warning: MASKED [v1.2.2, v1.3]: "
    )
    assert (
        masked
        + "row multinode-twice never decides: earlier rows (same-mode) match everything it matches"
        in lines
    )
    assert sum(": error: OVERLAP " in line for line in lines) == 1


def test_first_hit_allows_overlaps_but_not_masked_rows(tmp_path):
    path = with_rows(tmp_path, DELIBERATE_ROWS, hit_policy="FIRST")
    assert [line.split(" [")[0] for line in new_findings(path)] == ["GAP", "MASKED"]


def test_any_hit_allows_overlaps_with_one_outcome_only(tmp_path):
    rows = DELIBERATE_ROWS.replace(
        "    - id: raw-over-multinode\n      requested: [RawDeployment]\n"
        "      declared: [MultiNode]\n      outcome: pass\n",
        "    - id: raw-over-multinode\n      requested: [RawDeployment]\n"
        "      declared: [MultiNode]\n      outcome: reject\n",
    )
    assert [line.split(" [")[0] for line in new_findings(with_rows(tmp_path, rows, "ANY"))] == [
        "GAP",
        "MASKED",
    ]
    assert [
        line.split(" [")[0] for line in new_findings(with_rows(tmp_path, DELIBERATE_ROWS, "ANY"))
    ] == [
        "GAP",
        "OVERLAP",
        "MASKED",
    ]


def test_unique_refuses_an_overlap_even_with_one_outcome(tmp_path):
    rows = DELIBERATE_ROWS.replace(
        "      declared: [MultiNode]\n      outcome: pass\n    - id: different",
        "      declared: [MultiNode]\n      outcome: reject\n    - id: different",
    )
    overlap = [f for f in new_findings(with_rows(tmp_path, rows)) if f.startswith("OVERLAP")]
    assert overlap == [
        "OVERLAP [v1.2.2, v1.3] rows raw-over-multinode and different-mode both match "
        "requested=RawDeployment, declared=MultiNode (both reject; hit policy UNIQUE) "
        f"@{line_of(tmp_path / 'modes.yaml', '    - id: different-mode')}"
    ]


def test_a_row_naming_only_a_mode_of_another_version_is_masked_there(tmp_path):
    rows = DELIBERATE_ROWS.replace(
        "    - id: multinode-twice\n      requested: [MultiNode]\n      declared: [MultiNode]\n",
        "    - id: multinode-twice\n      requested: [OMENative]\n      declared: none\n",
    )
    path = with_rows(tmp_path, rows)
    masked = [f for f in new_findings(path) if f.startswith("MASKED")]
    assert masked == [
        "MASKED [v1.2.2] row multinode-twice matches no input in this version "
        f"@{line_of(path, '    - id: multinode-twice')}",
        "MASKED [v1.3] row multinode-twice never decides: earlier rows (declared-none) "
        f"match everything it matches @{line_of(path, '    - id: multinode-twice')}",
    ]


def test_unused_names_and_rules_in_force_in_no_version(tmp_path):
    text = RULES.read_text()
    text = text.replace(
        "modes:\n",
        "modes:\n  - name: Spare\n    status: current\n",
        1,
    )
    text = text.replace(
        "    - id: default\n      name: Default\n",
        '    - id: never\n      name: Never\n      gives: RawDeployment\n      until: "v1.2.2"\n'
        "    - id: default\n      name: Default\n",
        1,
    )
    path = tmp_path / "modes.yaml"
    path.write_text(text)
    ruleset = load_ruleset(path)
    shipped = {f.message for f in unused(load_ruleset(RULES))}
    found = [(f.message, f.location.line) for f in unused(ruleset) if f.message not in shipped]
    index = [s.id for s in ruleset.rules.sources.running].index("never")
    assert found == [
        ("mode 'Spare' is never referred to", line_of(path, "  - name: Spare")),
        (
            f"sources.running[{index}] (never) is in force in none of the listed versions",
            line_of(path, "    - id: never"),
        ),
    ]


def test_messages_the_code_looks_up_must_exist_with_params_it_passes(tmp_path):
    assert code_findings(load_ruleset(RULES)) == []
    text = RULES.read_text().replace(
        "    text: not reconciled because {component} failed before it\n    params: [component]\n",
        "    text: not reconciled because {component} failed before {mode}\n"
        "    params: [component, mode]\n",
    )
    path = tmp_path / "modes.yaml"
    path.write_text(text)
    source = ROOT / "src" / "modetable" / "engine" / "running.py"
    call = next(
        number
        for number, text in enumerate(source.read_text().splitlines(), 1)
        if '"not_reconciled"' in text
    )
    assert [f.message for f in code_findings(load_ruleset(path))] == [
        "message 'not_reconciled' has params mode, but modetable passes it component "
        f"(modetable/engine/running.py:{call})"
    ]
