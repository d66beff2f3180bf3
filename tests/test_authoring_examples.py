"""The rules file's examples run as tests: the right answer from the wrong rule fails."""

from __future__ import annotations

from pathlib import Path

from conftest import RULES, rules_copy, run_cli

from modetable.authoring.examples import run_examples
from modetable.rules import load_ruleset


def edited(tmp_path: Path, old: str, new: str) -> Path:
    return rules_copy(tmp_path / "modes.yaml", (old, new))


def failures(path: Path) -> list[str]:
    return [
        f"{run.section}[{run.index}] {run.version}: {run.case}: {run.failure}"
        for run in run_examples(load_ruleset(path))
        if not run.passed
    ]


def test_every_shipped_example_passes_in_every_version_it_runs_in():
    runs = run_examples(load_ruleset(RULES))
    assert [r for r in runs if not r.passed] == []
    ruleset = load_ruleset(RULES)
    ran = {(r.section, r.index) for r in runs}
    assert len(ran) == len(ruleset.rules.matching.examples) + len(ruleset.rules.sources.examples)


def test_a_matching_example_runs_only_where_its_modes_are_modes():
    runs = run_examples(load_ruleset(RULES))
    versions = {
        r.case: sorted(x.version for x in runs if x.case == r.case and x.section == "matching")
        for r in runs
        if r.section == "matching"
    }
    assert versions["requested=none, declared=MultiNode"] == ["v1.2.2", "v1.3"]
    assert versions["requested=OMENative, declared=MultiNode"] == ["v1.3"]


def test_the_right_outcome_from_the_wrong_row_fails(tmp_path):
    path = edited(
        tmp_path,
        "    - requested: OMENative\n      declared: none\n      outcome: pass\n"
        "      row: declared-none\n",
        "    - requested: OMENative\n      declared: none\n      outcome: pass\n"
        "      row: requested-none\n",
    )
    assert failures(path) == [
        "matching[1] v1.3: requested=OMENative, declared=none: "
        "expected pass from row requested-none, got pass from row declared-none"
    ]


def test_the_right_mode_from_the_wrong_source_fails(tmp_path):
    path = edited(
        tmp_path,
        "      values: {component-annotation: MultiNode, service-spec: OMENative}\n"
        "      mode: MultiNode\n      source: component-annotation\n",
        "      values: {component-annotation: MultiNode, service-spec: OMENative}\n"
        "      mode: MultiNode\n      source: service-spec\n",
    )
    assert failures(path) == [
        f"sources[8] {version}: running engine: component-annotation=MultiNode, "
        "service-spec=OMENative: expected MultiNode from service-spec, "
        "got MultiNode from component-annotation"
        for version in ("v1.2.2", "v1.3")
    ]


def test_a_source_that_reads_nothing_for_the_component_fails(tmp_path):
    path = edited(
        tmp_path,
        "      component: router\n      values: {service-annotation: VirtualDeployment}\n",
        "      component: router\n      values: {leader-worker-shape: set}\n",
    )
    assert failures(path) == [
        f"sources[11] {version}: running router: leader-worker-shape=set: "
        "source leader-worker-shape is not a running source for the router"
        for version in ("v1.2.2", "v1.3")
    ]


def test_an_example_that_runs_in_no_version_fails(tmp_path):
    path = edited(
        tmp_path,
        "    - requested: RawDeployment\n      declared: OMENative\n",
        "    - requested: MultiNodeRayVLLM\n      declared: OMENative\n",
    )
    assert failures(path) == [
        "matching[4] None: requested=MultiNodeRayVLLM, declared=OMENative: runs in no listed "
        "version (in none is it in force with all its modes valid)"
    ]


def test_rules_check_prints_a_failing_example_at_its_place(tmp_path):
    path = edited(
        tmp_path,
        "    - requested: OMENative\n      declared: MultiNode\n      outcome: reject\n",
        "    - requested: OMENative\n      declared: MultiNode\n      outcome: pass\n",
    )
    lines = path.read_text().splitlines()
    line = next(
        n + 1
        for n, text in enumerate(lines)
        if text == "    - requested: OMENative" and lines[n + 1] == "      declared: MultiNode"
    )
    run = run_cli("rules", "check", str(path))
    assert run.code == 1
    assert (
        f"{path}:{line}:7: error: EXAMPLE [v1.3]: requested=OMENative, declared=MultiNode: "
        "expected pass from row different-mode, got reject from row different-mode"
    ) in run.out.splitlines()
