"""OME's ServingRuntime webhook on apply (the rules' `runtime_admission`;
selection facts, sections 7 and 10): a runtime it denies never exists, so no
command gives it to an InferenceService."""

from __future__ import annotations

import pytest
import yaml
from conftest import format_entry, isvc_doc, llama_model_spec, model_doc, run_cli, runtime_doc

from modetable.inputs.runtime_admission import runtime_denial
from modetable.inputs.sources import read_cluster

CSR = 'admission webhook "clusterservingruntime.ome-webhook-server.validator" denied the request: '
SR = 'admission webhook "servingruntime.ome-webhook-server.validator" denied the request: '
PROFILE = 'runtimes carrying ome.io/runtime-profile="true" must also set spec.disabled: true'


def denial(policy, tmp_path, runtime: dict) -> str | None:
    path = tmp_path / "rt.yaml"
    path.write_text(yaml.safe_dump(runtime, sort_keys=False))
    (found,) = read_cluster([str(path)], policy.rules.manifests).runtimes
    return runtime_denial(policy, found)


def entries(*pairs: tuple[str | None, bool | None, int | None]) -> list[dict]:
    """(entry name, autoSelect, priority) per entry; None leaves a field out."""
    made = []
    for name, auto, priority in pairs:
        entry = format_entry(autoSelect=auto, priority=priority)
        if name is not None:
            entry["name"] = name
        made.append(entry)
    return made


@pytest.mark.parametrize(
    ("pairs", "named"),
    [
        ((("vllm", True, 1), ("vllm", True, 2)), "vllm"),
        # Entries that leave the name out share the empty one.
        (((None, True, 1), (None, True, 3)), ""),
        # Held against the first priority set for the name, not the last.
        ((("a", True, 2), ("a", True, 2), ("a", True, 5)), "a"),
    ],
    ids=["named", "unnamed", "third"],
)
def test_autoselect_entries_of_one_name_with_different_priorities_are_denied(
    v13, v122, tmp_path, pairs, named
):
    runtime = runtime_doc("rt", supportedModelFormats=entries(*pairs))
    text = f"different priorities assigned for the model format {named} under the "
    for policy in (v13, v122):
        assert denial(policy, tmp_path, runtime) == CSR + text + "clusterservingruntime rt"
    served = runtime_doc("rt", "ServingRuntime", supportedModelFormats=entries(*pairs))
    assert denial(v13, tmp_path, served) == SR + text + "servingruntime rt"


@pytest.mark.parametrize(
    "pairs",
    [
        (("vllm", True, 1), ("vllm", True, 1)),
        (("vllm", True, 1), ("sglang", True, 2)),
        # Only autoSelect true entries are held to it (unset is not true).
        (("vllm", True, 1), ("vllm", False, 2), ("vllm", None, 3)),
        # A first entry with no priority holds nothing against the others (OME's map).
        (("vllm", True, None), ("vllm", True, 2), ("vllm", True, 3)),
        # An unset priority is held against nothing.
        (("vllm", True, 2), ("vllm", True, None)),
    ],
    ids=["same", "other-names", "not-autoselect", "first-unset", "later-unset"],
)
def test_entries_that_agree_are_admitted(v13, tmp_path, pairs):
    runtime = runtime_doc("rt", supportedModelFormats=entries(*pairs))
    assert denial(v13, tmp_path, runtime) is None


def test_a_profile_must_be_disabled_since_v13(v13, v122, tmp_path):
    def profile(value: str, **spec) -> dict:
        annotations = {"ome.io/runtime-profile": value}
        return runtime_doc("base", annotations=annotations, **spec)

    assert denial(v13, tmp_path, profile("true")) == CSR + PROFILE
    assert denial(v122, tmp_path, profile("true")) is None  # no inheritance before v1.3
    assert denial(v13, tmp_path, profile("true", disabled=True)) is None
    assert denial(v13, tmp_path, profile("True")) is None  # only "true" makes a profile


def test_a_disabled_runtime_is_admitted_before_any_check(v13, tmp_path):
    pairs = (("vllm", True, 1), ("vllm", True, 2))
    runtime = runtime_doc("rt", disabled=True, supportedModelFormats=entries(*pairs))
    assert denial(v13, tmp_path, runtime) is None


def cluster_docs() -> list[dict]:
    pairs = (("vllm", True, 1), ("vllm", True, 2))
    return [
        model_doc("m", **llama_model_spec()),
        # It would rank first by its name; it never exists.
        runtime_doc("a-denied", supportedModelFormats=entries(*pairs)),
        runtime_doc("b-admitted", supportedModelFormats=[format_entry()]),
        isvc_doc("svc", "ns", engine={}),
    ]


def test_the_audit_reports_a_denied_runtime_and_goes_on_without_it(tmp_path):
    path = tmp_path / "fleet.yaml"
    path.write_text(yaml.safe_dump_all(cluster_docs(), sort_keys=False))
    run = run_cli("audit", str(path), "-o", "json")
    assert run.code == 1, run.err
    data = run.json()
    [finding] = data["manifest_findings"]
    assert {k: finding[k] for k in ("severity", "id", "message", "object")} == {
        "severity": "error",
        "id": "manifest/denied",
        "message": CSR + "different priorities assigned for the model format vllm under the "
        "clusterservingruntime a-denied",
        "object": {"kind": "ClusterServingRuntime", "namespace": None, "name": "a-denied"},
    }
    [item] = data["items"]
    assert item["runtime"] == {
        "name": "b-admitted",
        "kind": "ClusterServingRuntime",
        "read_from": "manifest",
    }


def test_select_refuses_the_input_with_the_denial(tmp_path):
    path = tmp_path / "fleet.yaml"
    path.write_text(yaml.safe_dump_all(cluster_docs(), sort_keys=False))
    run = run_cli("select", "--isvc", "ns/svc", str(path))
    assert run.code == 2
    line = path.read_text().splitlines().index("---") + 2  # the second object's first line
    assert run.err == (
        f"modetable: error: {path}:{line}:1: {CSR}different priorities assigned for the model "
        "format vllm under the clusterservingruntime a-denied\n"
    )


def test_select_says_which_runtime_webhook_checks_it_rests_on(tmp_path):
    docs = [d for d in cluster_docs() if d["metadata"]["name"] != "a-denied"]
    path = tmp_path / "fleet.yaml"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    said = (
        "Runtimes are taken as OME's ServingRuntime webhook would admit them: of its checks "
        "modetable runs a profile's disabled rule and the entries' priorities, not the "
        "accelerator classes they list (AcceleratorClasses are not read), the shape of a "
        "MultiNode or RawDeployment configuration, priorities shared with other runtimes, or "
        "an inheritance chain broken at apply"
    )
    run = run_cli("select", "--isvc", "ns/svc", str(path), "-v")
    assert run.code == 0, run.err
    assert said in run.out.splitlines()
    # Without -v, the admission's one line points at it.
    brief = run_cli("select", "--isvc", "ns/svc", str(path))
    assert said not in brief.out.splitlines()
    assert "Admission: allowed\nAllowed by the " in brief.out
    assert brief.out.count("-v lists what it does not model") == 1


def test_rules_check_refuses_effects_that_would_say_nothing(tmp_path):
    """`emit: message` outside the outcomes that are no result, and `when:
    [recorded]` on anything but a condition, are read by nothing: errors."""
    from conftest import rules_copy

    picked = (
        "    picked:\n      - emit: warning\n        message: auto_selected\n"
        "        when: [webhook_selects]\n"
    )
    path = rules_copy(
        tmp_path / "rules" / "modes.yaml",
        (
            picked,
            "    picked:\n      - emit: message\n        message: auto_selected\n"
            "      - emit: warning\n        message: auto_selected\n        when: [recorded]\n",
        ),
    )
    run = run_cli("--rules", str(path), "rules", "check")
    assert run.code == 1  # findings, as rules check reports them
    errors = [line.split(": error: ", 1)[1] for line in run.out.splitlines() if ": error: " in line]
    assert errors == [
        "incomplete-rule: emit: message is read only in virtual_deployment; outcomes picked "
        "would show nothing of it",
        "incomplete-rule: `when: [recorded]` holds only on a condition effect",
    ]


def test_rules_check_wants_what_each_runtime_check_reads(tmp_path):
    from conftest import rules_copy

    path = rules_copy(
        tmp_path / "rules" / "modes.yaml",
        (
            "      check: priorities_agree\n      entry_name: name\n",
            "      check: priorities_agree\n",
        ),
    )
    run = run_cli("--rules", str(path), "rules", "check")
    assert run.code == 1  # findings, as rules check reports them
    assert "error: incomplete-rule: a priorities_agree check names its entry_name" in run.out


def test_select_denied_with_a_runtime_points_at_v_for_the_webhook_checks(tmp_path):
    docs = [
        isvc_doc(runtime={"name": "rt"}, engine={"minReplicas": 0}),
        runtime_doc("rt", supportedModelFormats=[format_entry()]),
        model_doc("m", **llama_model_spec()),
    ]
    path = tmp_path / "m.yaml"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    run = run_cli("select", "--isvc", "ns/svc", str(path))
    lines = run.out.splitlines()
    at = lines.index("Admission: denied")
    assert lines[at + 2 : at + 4] == [
        "Some checks of OME's webhooks are not modelled; -v lists them",
        "",
    ]
    full = run_cli("select", "--isvc", "ns/svc", str(path), "-v").out.splitlines()
    assert full[at + 2].startswith("Runtimes are taken as OME's ServingRuntime webhook would")
    assert full[at + 3] == ""
