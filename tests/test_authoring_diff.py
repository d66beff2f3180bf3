"""`modetable rules diff`: what changes between versions or files, and why."""

from __future__ import annotations

from functools import cache
from itertools import product

from conftest import RULES, Run, rules_copy, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from modetable.authoring.diff import Change, Side, diff
from modetable.authoring.patterns import compress, show_set
from modetable.rules import load_ruleset


@cache  # two tests read the one comparison of the shipped versions
def sections_of(before: str, after: str) -> dict:
    ruleset = load_ruleset(RULES)
    found = diff(Side(before, ruleset.at(before)), Side(after, ruleset.at(after)))
    return {s.title: [(*c.inputs, c.before, c.after, c.why) for c in s.changes] for s in found}


def test_v13_against_v122_mode_values_and_matching():
    sections = sections_of("v1.2.2", "v1.3")
    assert sections["mode values"] == [
        ("OMENative", "no mode", "a mode (current)", "modes OMENative since v1.3"),
        (
            "MultiNode",
            "a mode (current)",
            "a mode (deprecated, use OMENative)",
            "modes MultiNode: deprecated since v1.3",
        ),
        ("MultiNodeRayVLLM", "a mode (current)", "no mode", "modes MultiNodeRayVLLM before v1.3"),
    ]
    others = "RawDeployment|MultiNode|VirtualDeployment"
    became = "OMENative: no mode → a mode (current)"
    left = "MultiNodeRayVLLM: a mode (current) → no mode"
    assert sections["matching (each compared component)"] == [
        (
            others,
            "OMENative",
            "pass (row declared-none)",
            "reject (row different-mode, mode_mismatch)",
            became,
        ),
        (
            others,
            "MultiNodeRayVLLM",
            "reject (row different-mode, mode_mismatch)",
            "pass (row declared-none)",
            left,
        ),
        (
            "OMENative",
            others,
            "pass (row requested-none)",
            "reject (row different-mode, mode_mismatch)",
            became,
        ),
        (
            "MultiNodeRayVLLM",
            others,
            "reject (row different-mode, mode_mismatch)",
            "pass (row requested-none)",
            left,
        ),
    ]
    assert sections["compared for matching"] == []


def test_v13_against_v122_resolution_and_admission():
    sections = sections_of("v1.2.2", "v1.3")
    requested = sections["requested mode of the engine, decoder and router"]
    assert requested[:3] == [
        (
            "unset",
            "RawDeployment",
            "none",
            "RawDeployment (isvc-service-mode)",
            "isvc-service-mode: not in version → used",
        ),
        (
            "unset",
            "OMENative",
            "none",
            "OMENative (isvc-service-mode)",
            "isvc-service-mode: not in version → used",
        ),
        (
            "OMENative",
            "-",
            "none",
            "OMENative (isvc-component-annotation)",
            "isvc-component-annotation: not valid → used",
        ),
    ]
    running = sections["running mode of the engine and decoder"]
    # A leader/worker alone: MultiNode in v1.2.2, OMENative since v1.3.
    assert (
        "not VirtualDeployment",
        "unset",
        "not RawDeployment|OMENative",
        "set",
        "MultiNode (leader-worker-shape-v1.2)",
        "OMENative (leader-worker-shape)",
        "leader-worker-shape: not in version → used; "
        "leader-worker-shape-v1.2: used → not in version",
    ) in running
    admission = sections["admission (an InferenceService declaring the engine and decoder)"]
    # spec.deploymentMode's values are the CRD schema's (crd-schema), which the
    # diff of the rules' checks does not compare: the webhook's check alone.
    assert {row[4] for row in admission} == {"denied (engine-decoder-agree)"}


def test_the_cli_prints_only_changes_and_exits_1():
    run = run_cli("rules", "diff", "v1.2.2", "v1.3")
    assert run.code == 1
    lines = run.out.splitlines()
    assert lines[0] == "From v1.2.2 to v1.3:"
    assert "mode values: 3 changes (5 combinations tried)" in lines
    assert lines[-1] == "No change: compared for matching."


def test_one_version_against_itself_has_no_change():
    run = run_cli("rules", "diff", "v1.3", "1.3")
    assert run.code == 0
    assert run.out.splitlines()[-1].startswith("No change: mode values; compared for matching;")


def test_against_another_file_shows_a_changed_row_with_the_row(tmp_path):
    old = rules_copy(tmp_path / "old.yaml")
    new = rules_copy(
        tmp_path / "new.yaml",
        (
            "    - id: different-mode\n      requested: mode\n      declared: different\n",
            "    - id: virtual-passes\n      requested: [VirtualDeployment]\n"
            "      declared: [RawDeployment]\n      outcome: pass\n"
            "    - id: different-mode\n      requested: mode\n      declared: different\n",
        ),
    )
    run = run_cli("rules", "diff", "--rules", str(new), "--against", str(old), "-o", "json")
    assert run.code == 1, run.err
    data = run.json()
    assert data["before"] == f"{old} (v1.3)"
    assert data["after"] == f"{new} (v1.3)"
    matching = next(s for s in data["sections"] if s["title"].startswith("matching"))
    assert matching["changes"] == [
        {
            "inputs": {"requested": "VirtualDeployment", "declared": "RawDeployment"},
            "before": "reject (row different-mode, mode_mismatch)",
            "after": "error: the matching table's rows virtual-passes, different-mode overlap "
            "(hit policy UNIQUE)",
            "why": "row different-mode → no row decides",
        }
    ]
    written = data["sections"][-1]
    assert written["title"] == "rules in force"
    assert written["changes"] == [
        {
            "inputs": {"rule": "matching.rows[virtual-passes]"},
            "before": "absent",
            "after": '{"id": "virtual-passes", "requested": ["VirtualDeployment"], '
            '"declared": ["RawDeployment"], "outcome": "pass"}',
            "why": "added",
        }
    ]
    assert all(s["changes"] == [] for s in data["sections"] if s not in (matching, written))


def test_modes_added_together_are_each_named_in_why(tmp_path):
    text = RULES.read_text().replace(
        'versions: ["v1.2.2", "v1.3"]', 'versions: ["v1.2.2", "v1.3", "v1.4"]', 1
    )
    text = text.replace(
        "modes:\n",
        'modes:\n  - name: Wide\n    status: current\n    since: "v1.4"\n'
        '  - name: Tall\n    status: current\n    since: "v1.4"\n',
        1,
    )
    path = tmp_path / "modes.yaml"
    path.write_text(text)
    ruleset = load_ruleset(path)
    sections = diff(Side("v1.3", ruleset.at("v1.3")), Side("v1.4", ruleset.at("v1.4")))
    assert sections[0].changes == (
        Change(
            ("Wide|Tall",),
            "no mode",
            "a mode (current)",
            "modes Wide since v1.4; modes Tall since v1.4",
        ),
    )


def test_a_deprecation_changes_the_status_and_nothing_decided(tmp_path):
    old = rules_copy(tmp_path / "old.yaml")
    new = rules_copy(
        tmp_path / "new.yaml",
        (
            "  - name: VirtualDeployment\n    status: legacy\n",
            "  - name: VirtualDeployment\n    status: deprecated\n    replacement: OMENative\n",
        ),
    )
    run = run_cli("rules", "diff", "--rules", str(new), "--against", str(old), "-o", "json")
    assert run.code == 1, run.err
    sections = run.json()["sections"]
    assert sections[0]["changes"] == [
        {
            "inputs": {"value": "VirtualDeployment"},
            "before": "a mode (legacy)",
            "after": "a mode (deprecated, use OMENative)",
            "why": "modes VirtualDeployment: status and replacement changed",
        }
    ]
    assert sections[-1]["changes"] == [
        {
            "inputs": {"rule": "modes[VirtualDeployment].status"},
            "before": "legacy",
            "after": "deprecated",
            "why": "status changed",
        },
        {
            "inputs": {"rule": "modes[VirtualDeployment].replacement"},
            "before": "none",
            "after": "OMENative",
            "why": "replacement changed",
        },
    ]
    assert all(s["changes"] == [] for s in sections[1:-1])


def test_against_compares_at_the_ome_version_when_none_is_named(tmp_path):
    run = run_cli("--ome-version", "v1.2.2", "rules", "diff", "--against", str(RULES), "-o", "json")
    assert run.code == 0, run.err
    assert run.json()["before"] == f"{RULES} (v1.2.2)"


def test_rules_commands_read_the_rules_file_here(tmp_path, monkeypatch):
    """The file a policy author edits, not the copy installed with modetable."""
    monkeypatch.chdir(tmp_path)
    run = run_cli("rules", "check")
    assert run.out.endswith("example runs passed\n")
    assert not run.out.startswith("rules/modes.yaml")  # none here: the bundled file
    rules_copy(
        tmp_path / "rules" / "modes.yaml",
        ("    status: legacy\n", "    status: legacy\n    stauts: x\n"),
    )
    run = run_cli("rules", "check")
    assert run.code == 1
    assert run.out.splitlines()[-1] == (
        "rules/modes.yaml: 1 error, 0 warnings; 0 of 0 example runs passed"
    )
    assert run_cli("rules", "diff", "v1.2.2", "v1.3").code == 2


def test_usage_errors_exit_2():
    assert run_cli("rules", "diff", "v1.3").code == 2
    assert run_cli("rules", "diff", "v1.3", "v1.2").err == (
        "modetable: error: OME v1.2 is older than these rules describe: "
        "they cover v1.2.2 to v1.3.x\n"
    )


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3), st.integers(0, 1)), unique=True),
    st.data(),
)
def test_patterns_cover_exactly_the_points(points, data):
    domains = [range(3), range(4), range(2)]
    labelled = [(p, data.draw(st.sampled_from("ab"))) for p in points]
    patterns = compress(labelled, domains)
    covered = [
        (combination, label)
        for inputs, label in patterns
        for combination in product(*[sorted(values) for values in inputs])
    ]
    assert sorted(covered) == sorted(labelled)  # each point once, with its label


def test_a_set_shows_as_any_as_a_list_or_as_what_it_leaves_out():
    domain = ["unset", "A", "B", "C"]
    assert show_set(frozenset(domain), domain, str) == "-"
    assert show_set(frozenset({"A", "C"}), domain, str) == "A|C"
    assert show_set(frozenset({"A", "B", "C"}), domain, str) == "not unset"


# --- what no decision shows: the rules in force compared ---------------------------


def _edited(tmp_path, *replacements: tuple[str, str]):
    return rules_copy(tmp_path / "new.yaml", *replacements)


def _in_force_changes(path, *versions: str) -> tuple[list[dict], Run]:
    """The changes of the JSON diff's last section, and the table diff's run."""
    run = run_cli("rules", "diff", *versions, "--rules", str(path), "--against", str(RULES))
    assert run.code == 1, run.err
    data = run_cli(
        "rules", "diff", *versions, "--rules", str(path), "--against", str(RULES), "-o", "json"
    ).json()
    return [c for c in data["sections"][-1]["changes"]], run


def test_a_reworded_ome_message_is_a_change_said_as_such_with_its_key(tmp_path):
    old = "runtime {component} deployment mode {runtime_mode} does not match requested"
    new = "runtime {component} deployment mode {runtime_mode} differs from the requested"
    path = _edited(tmp_path, (old, new))
    changes, run = _in_force_changes(path, "v1.3")
    assert changes == [
        {
            "inputs": {"rule": "messages.mode_mismatch.text"},
            "before": f"{old} {{component}} deployment mode {{isvc_mode}}",
            "after": f"{new} {{component}} deployment mode {{isvc_mode}}",
            "why": "OME message mode_mismatch reworded",
        }
    ]
    lines = run.out.splitlines()
    at = lines.index("messages.mode_mismatch.text: OME message mode_mismatch reworded")
    assert lines[at - 1] == "rules in force: 1 change"
    assert lines[at : at + 3] == [
        "messages.mode_mismatch.text: OME message mode_mismatch reworded",
        f"  {RULES} (v1.3): {old} {{component}} deployment mode {{isvc_mode}}",
        f"  {path} (v1.3): {new} {{component}} deployment mode {{isvc_mode}}",
    ]


def test_checks_in_another_order_are_a_change(tmp_path):
    size = "    - id: model-size\n      check: model_size\n      message: size_outside_range\n"
    fmt = "    - id: model-format\n      check: model_format\n      message: format_not_supported\n"
    path = _edited(tmp_path, (fmt + size, size + fmt))
    changes, _ = _in_force_changes(path, "v1.3")
    order = "disabled, accelerator-class, deployment-mode, {}, auto-select, score"
    assert changes == [
        {
            "inputs": {"rule": "selection.checks"},
            "before": order.format("model-format, model-size"),
            "after": order.format("model-size, model-format"),
            "why": "order changed",
        }
    ]


def test_a_docs_sentence_and_a_source_are_compared_too(tmp_path):
    path = _edited(
        tmp_path,
        (
            "          - text: Running pods keep serving.\n",
            "          - text: Pods keep serving.\n",
        ),
        (
            "    - id: isvc-service-mode\n      object: isvc\n",
            "    - id: isvc-service-mode\n      name: SpecMode\n      object: isvc\n",
        ),
    )
    changes = {
        c["inputs"]["rule"]: (c["before"], c["after"], c["why"])
        for c in _in_force_changes(path, "v1.3")[0]
    }
    assert changes == {
        "sources.requested[isvc-service-mode].name": ("none", "SpecMode", "name changed"),
        "docs.rejection_table.rows[1].shows[2].text": (
            "Running pods keep serving.",
            "Pods keep serving.",
            "text changed",
        ),
    }


def test_against_compares_every_version_both_files_describe(tmp_path):
    """The newer file lists v1.4 (a version the other has not): every shared
    version is compared, and the one only it has is said, not failed on."""
    path = _edited(
        tmp_path,
        ('versions: ["v1.2.2", "v1.3"]', 'versions: ["v1.2.2", "v1.3", "v1.4"]'),
        (
            "    text: model has no {side} version but runtime requires {runtime}",
            "    text: model has no {side} version, runtime requires {runtime}",
        ),
    )
    run = run_cli("rules", "diff", "--rules", str(path), "--against", str(RULES), "-o", "json")
    assert run.code == 1, run.err
    data = run.json()
    assert [(c["before"], c["after"]) for c in data["comparisons"]] == [
        (f"{RULES} (v1.2.2)", f"{path} (v1.2.2)"),
        (f"{RULES} (v1.3)", f"{path} (v1.3)"),
    ]
    assert (data["only_before"], data["only_after"]) == ([], ["v1.4"])
    assert data["rules"] == {"path": str(path), "version": None, "against": str(RULES)}
    for comparison in data["comparisons"]:
        assert [c["why"] for s in comparison["sections"] for c in s["changes"]] == [
            "OME message version_missing reworded"
        ]
    table = run_cli("rules", "diff", "--rules", str(path), "--against", str(RULES)).out
    assert table.splitlines()[:2] == [
        f"rules: {path}",
        f"Only in {path}: v1.4 (not compared; `rules diff V1 V2` on that file shows what a "
        "line changes).",
    ]


def test_two_releases_are_placed_on_their_lines():
    run = run_cli("rules", "diff", "1.2.4", "v1.3.2", "-o", "json")
    assert run.code == 1, run.err
    data = run.json()
    assert (data["before"], data["after"]) == ("v1.2.4", "v1.3.2")
    assert (data["rules"]["from"], data["rules"]["to"]) == ("v1.2.2", "v1.3")
    same = run_cli("rules", "diff", "v1.3.0", "v1.3.9")
    assert (same.code, same.err) == (0, "")
