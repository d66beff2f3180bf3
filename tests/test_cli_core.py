"""The core commands (effective, match, admit): outputs, JSON contracts, exit codes, flags."""

from __future__ import annotations

import json

import pytest
import yaml
from conftest import EXAMPLES, isvc_doc, mode_annotation, rules_used, run_cli, runtime_doc, write

from modetable.__about__ import __version__

PAGE_ISVC = str(EXAMPLES / "inference-service.yaml")
PAGE_REASON = (
    "runtime engine deployment mode MultiNode does not match "
    "requested engine deployment mode OMENative"
)


def manifests(tmp_path, *docs, name="m.yaml"):
    return str(write(tmp_path, name, yaml.safe_dump_all(docs, sort_keys=False)))


def test_version():
    run = run_cli("--version")
    assert (run.code, run.out) == (0, f"modetable {__version__}\n")


def test_match_table_on_the_page_example():
    """The runtimes the mode rule rejects, and one line counting those it passes;
    --all lists every runtime."""
    run = run_cli("match", "--isvc", PAGE_ISVC, str(EXAMPLES))
    assert (run.code, run.err) == (0, "")
    assert run.out.splitlines() == [
        "InferenceService llama-demo/llama-3-70b asks: engine OMENative "
        "(from the InferenceService's spec.deploymentMode)",
        "RUNTIME                               SCOPE    RESULT    "
        "RULE                                   REASON",
        "srt-llama-3-3-70b-instruct-multinode  Cluster  Rejected  "
        f"the runtime declares a different mode  {PAGE_REASON}",
        "1 more runtime passes the mode rule; --all lists every runtime.",
    ]
    every = run_cli("match", "--isvc", PAGE_ISVC, str(EXAMPLES), "--all")
    assert every.out.splitlines() == [
        "InferenceService llama-demo/llama-3-70b asks: engine OMENative "
        "(from the InferenceService's spec.deploymentMode)",
        "RUNTIME                               SCOPE    RESULT    "
        "RULE                                   REASON",
        "srt-llama-3-3-70b-instruct            Cluster  Passes    "
        "-                                      -",
        "srt-llama-3-3-70b-instruct-multinode  Cluster  Rejected  "
        f"the runtime declares a different mode  {PAGE_REASON}",
    ]


def test_match_when_the_mode_rule_passes_every_runtime(tmp_path):
    path = manifests(tmp_path, isvc_doc(), runtime_doc("a"), runtime_doc("b"))
    run = run_cli("match", "--isvc", "ns/svc", path)
    assert (run.code, run.out.splitlines()) == (
        0,
        [
            "InferenceService ns/svc asks: engine none",
            "All 2 runtimes pass the mode rule; --all lists them.",
        ],
    )
    one = run_cli("match", "--isvc", "ns/svc", path, "--runtime", "a")
    assert one.out.splitlines()[1:] == ["The runtime passes the mode rule; --all lists it."]


def test_match_explain_says_the_inference_services_side_once(tmp_path):
    """The InferenceService's side (its mode, the sources passed over) is the same
    against every runtime: said once, before the runtimes' sides."""
    isvc = isvc_doc(engine={})
    isvc["metadata"]["annotations"] = {"ome.io/deploymentMode": "RawDeployment"}
    path = manifests(
        tmp_path,
        isvc,
        runtime_doc("a"),
        runtime_doc("b"),
        runtime_doc("c", engineConfig=mode_annotation("MultiNode")),
    )
    run = run_cli("match", "--isvc", "ns/svc", path, "--explain", "--all")
    assert run.out.count("passed over") == 1, run.out
    assert run.out.splitlines()[6:9] == [
        "InferenceService ns/svc:",
        "  engine: none",
        "    passed over metadata.annotations[ome.io/deploymentMode]: RawDeployment: "
        "does not count for matching",
    ]


def test_match_explain_says_where_each_side_got_its_mode():
    run = run_cli(
        "match",
        "--isvc",
        "llama-3-70b",
        str(EXAMPLES),
        "--explain",
        "--runtime",
        "srt-llama-3-3-70b-instruct-multinode",
    )
    assert run.code == 1
    assert run.out.splitlines()[3:] == [
        "",
        "InferenceService llama-demo/llama-3-70b:",
        "  engine: OMENative from the InferenceService's spec.deploymentMode",
        "",
        "srt-llama-3-3-70b-instruct-multinode (ClusterServingRuntime):",
        "  engine: Rejected: the runtime declares a different mode",
        "    runtime: MultiNode from the runtime's spec.engineConfig annotation "
        "ome.io/deploymentMode",
        "      passed over spec.engineConfig.leader or spec.engineConfig.worker: "
        "leader: does not count for matching",
    ]


def test_match_says_in_words_which_rule_decided_and_where_each_mode_came_from(tmp_path):
    """The table and --explain say the rules' `words` of the row that decided and
    of each side's source (an annotation, one inherited from the parent), never
    their ids, which JSON keeps."""
    path = manifests(
        tmp_path,
        isvc_doc(engine=mode_annotation("MultiNode"), runtime={"name": "child"}),
        runtime_doc("parent", engineConfig=mode_annotation("OMENative")),
        runtime_doc("child", annotations={"ome.io/inherit-from": "parent"}, engineConfig={}),
    )
    reason = (
        "runtime engine deployment mode OMENative does not match "
        "requested engine deployment mode MultiNode"
    )
    run = run_cli("match", "--isvc", "ns/svc", path, "--explain")
    assert (run.code, run.err) == (1, "")
    assert run.out.splitlines() == [
        "InferenceService ns/svc asks: engine MultiNode "
        "(from the InferenceService's spec.engine annotation ome.io/deploymentMode)",
        "RUNTIME        SCOPE    RESULT    RULE                                   REASON",
        f"child (named)  Cluster  Rejected  the runtime declares a different mode  {reason}",
        f"parent         Cluster  Rejected  the runtime declares a different mode  {reason}",
        "",
        "InferenceService ns/svc:",
        "  engine: MultiNode from the InferenceService's spec.engine annotation "
        "ome.io/deploymentMode",
        "",
        "child (ClusterServingRuntime):",
        "  engine: Rejected: the runtime declares a different mode",
        "    runtime: OMENative from the spec.engineConfig annotation ome.io/deploymentMode "
        "the runtime inherits from its parent",
        "",
        "parent (ClusterServingRuntime):",
        "  engine: Rejected: the runtime declares a different mode",
        "    runtime: OMENative from the runtime's spec.engineConfig annotation "
        "ome.io/deploymentMode",
    ]
    data = run_cli("match", "--isvc", "ns/svc", path, "-o", "json").json()
    child = data["runtimes"][0]
    assert (child["row"], child["components"]["engine"]["declared"]["source"]) == (
        "different-mode",
        "runtime-inherited-annotation",
    )
    assert data["requested"]["engine"]["source"] == "isvc-component-annotation"


def test_a_source_passed_over_names_the_one_that_decided_in_words(tmp_path):
    """`not needed, X decided first` says X in the rules' words; JSON's `why` is
    the same sentence, its `source` the id."""
    isvc = isvc_doc(engine=mode_annotation("MultiNode"), deploymentMode="OMENative")
    path = manifests(tmp_path, isvc, runtime_doc("rt"))
    run = run_cli("match", "--isvc", "ns/svc", path, "--explain", "--all")
    assert (run.code, run.err) == (0, "")
    decided = "the InferenceService's spec.engine annotation ome.io/deploymentMode"
    assert run.out.splitlines() == [
        f"InferenceService ns/svc asks: engine MultiNode (from {decided})",
        "RUNTIME    SCOPE    RESULT    RULE    REASON",
        "rt         Cluster  Passes    -       -",
        "",
        "InferenceService ns/svc:",
        f"  engine: MultiNode from {decided}",
        f"    passed over spec.deploymentMode: OMENative: not needed, {decided} decided first",
        "",
        "rt (ClusterServingRuntime):",
        "  engine: Passes: the runtime declares no mode",
        "    runtime: none",
    ]
    data = run_cli("match", "--isvc", "ns/svc", path, "-o", "json").json()
    assert data["requested"]["engine"] == {
        "mode": "MultiNode",
        "source": "isvc-component-annotation",
        "passed_over": [
            {
                "source": "isvc-service-mode",
                "path": "spec.deploymentMode",
                "value": "OMENative",
                "verdict": "shadowed",
                "why": f"OMENative: not needed, {decided} decided first",
                "at": f"{path}:10:19",
            }
        ],
    }


def test_every_row_and_every_side_source_of_the_bundled_rules_has_words():
    """What the text says in their place: a row or a source without `words`
    would show its path or `row ID` instead."""
    from conftest import RULES

    from modetable.rules import load_ruleset

    rules = load_ruleset(RULES).rules
    assert [row.id for row in rules.matching.rows if not row.words] == []
    sides = (*rules.sources.requested, *rules.sources.declared)
    assert [source.id for source in sides if not source.words] == []


def test_rules_without_words_name_the_row_by_its_id_and_the_source_by_its_path(tmp_path):
    """`words` are optional: a rules file without them is shown by what it has."""
    from conftest import RULES

    text = RULES.read_text()
    kept = "\n".join(line for line in text.splitlines() if not line.startswith("      words: "))
    rules = write(tmp_path, "rules/modes.yaml", kept + "\n")
    run = run_cli("match", "--rules", str(rules), "--isvc", PAGE_ISVC, str(EXAMPLES), "--explain")
    assert (run.code, run.err) == (0, "")
    assert run.out.splitlines()[1:] == [
        "InferenceService llama-demo/llama-3-70b asks: engine OMENative (from spec.deploymentMode)",
        "RUNTIME                               SCOPE    RESULT    RULE                REASON",
        "srt-llama-3-3-70b-instruct-multinode  Cluster  Rejected  row different-mode  "
        f"{PAGE_REASON}",
        "1 more runtime passes the mode rule; --all lists every runtime.",
        "",
        "InferenceService llama-demo/llama-3-70b:",
        "  engine: OMENative from spec.deploymentMode",
        "",
        "srt-llama-3-3-70b-instruct-multinode (ClusterServingRuntime):",
        "  engine: Rejected: row different-mode",
        "    runtime: MultiNode from spec.engineConfig.annotations[ome.io/deploymentMode]",
        "      passed over spec.engineConfig.leader or spec.engineConfig.worker: "
        "leader: does not count for matching",
    ]


def test_match_json(tmp_path):
    run = run_cli("match", "--isvc", "llama-3-70b", str(EXAMPLES), "-o", "json")
    data = run.json()
    assert data["requested"] == {
        "engine": {"mode": "OMENative", "source": "isvc-service-mode", "passed_over": []}
    }
    rejected = data["runtimes"][1]
    assert {
        k: rejected[k] for k in ("name", "kind", "scope", "named", "result", "reason", "row")
    } == {
        "name": "srt-llama-3-3-70b-instruct-multinode",
        "kind": "ClusterServingRuntime",
        "scope": "Cluster",
        "named": False,
        "result": "reject",
        "reason": PAGE_REASON,
        "row": "different-mode",
    }
    assert rejected["components"]["engine"]["declared"]["mode"] == "MultiNode"


def test_match_exits_1_when_no_runtime_passes(tmp_path):
    path = manifests(
        tmp_path,
        isvc_doc(engine=mode_annotation("OMENative")),
        runtime_doc(engineConfig=mode_annotation("MultiNode")),
    )
    run = run_cli("match", "--isvc", "ns/svc", path)
    assert run.code == 1


def test_match_orders_namespaced_runtimes_first_and_ignores_other_namespaces(tmp_path):
    path = manifests(
        tmp_path,
        isvc_doc(),
        runtime_doc("a-cluster"),
        runtime_doc("z-local", kind="ServingRuntime", namespace="ns"),
        runtime_doc("elsewhere", kind="ServingRuntime", namespace="other"),
    )
    data = run_cli("match", "--isvc", "svc", path, "-o", "json").json()
    assert [(r["name"], r["scope"]) for r in data["runtimes"]] == [
        ("z-local", "Namespaced"),
        ("a-cluster", "Cluster"),
    ]


def test_match_reports_a_broken_chain_of_the_named_runtime(tmp_path):
    path = manifests(
        tmp_path,
        isvc_doc(runtime={"name": "child"}),
        runtime_doc("child", annotations={"ome.io/inherit-from": "child"}),
    )
    data = run_cli("match", "--isvc", "svc", path, "-o", "json").json()
    assert [(r["result"], r["reason"]) for r in data["runtimes"]] == [
        ("error", "inheritance cycle detected: [child child]")
    ]


def test_effective_table_prints_mode_and_source(tmp_path):
    path = manifests(
        tmp_path,
        isvc_doc(engine={}, router={}, runtime={"name": "rt"}),
        runtime_doc(
            "rt",
            engineConfig=mode_annotation("MultiNode"),
            routerConfig=mode_annotation("MultiNode"),
        ),
    )
    run = run_cli("effective", "--isvc", "ns/svc", path)
    assert run.code == 0
    assert run.out.splitlines() == [
        "InferenceService ns/svc: runtime rt (ClusterServingRuntime, named)",
        "COMPONENT    MODE                             RUN-TIME ERROR",
        "engine       MultiNode (ComponentAnnotation)",
        "router       MultiNode (ComponentAnnotation)  Failed to reconcile component: invalid "
        "deployment mode for router",
    ]


def test_effective_uses_no_runtime_that_ome_refuses(tmp_path):
    """A disabled named runtime, or one named for a model with no format, is
    not used (select says so too, and why): its MultiNode is no component's
    mode. With the model missing from the manifests, the named runtime's modes
    stay the answer (the model may be in the cluster), unless OME refuses the
    runtime for what it holds itself. A broken chain is the webhook's error."""
    from conftest import format_entry, llama_model_spec, model_doc

    isvc = isvc_doc(engine={}, runtime={"name": "rt"})
    multinode = {
        "engineConfig": mode_annotation("MultiNode"),
        "supportedModelFormats": [format_entry()],
    }
    disabled = "cluster-scoped runtime rt is disabled"
    no_format = "invalid model specification: modelFormat.name: model format name is required"
    cases = {
        "disabled": (
            [model_doc("m", **llama_model_spec()), runtime_doc("rt", disabled=True, **multinode)],
            disabled,
        ),
        # Ready without a format (a model waiting for OME's model agent is pending).
        "no-format": (
            [{**model_doc("m"), "status": {"state": "Ready"}}, runtime_doc("rt", **multinode)],
            no_format,
        ),
        "disabled-no-model": ([runtime_doc("rt", disabled=True, **multinode)], disabled),
    }
    for name, (docs, why) in cases.items():
        path = manifests(tmp_path, isvc, *docs, name=f"{name}.yaml")
        run = run_cli("effective", "--isvc", "ns/svc", path)
        assert (run.code, run.out.splitlines()) == (
            0,
            [
                "InferenceService ns/svc: no runtime",
                why,
                "COMPONENT    MODE",
                "engine       RawDeployment (Default)",
            ],
        ), name
        assert run_cli("effective", "--isvc", "ns/svc", path, "-o", "json").json()["message"] == why
        assert run_cli("select", "--isvc", "ns/svc", path, "-o", "json").json()["runtime"] is None
    broken = runtime_doc("rt", annotations={"ome.io/inherit-from": "gone"}, **multinode)
    for docs in ([model_doc("m", **llama_model_spec()), broken], [broken]):
        run = run_cli("effective", "--isvc", "ns/svc", manifests(tmp_path, isvc, *docs))
        assert run.code == 2
        assert run.err.endswith('inherit-from parent "gone" not found (chain so far: [rt])\n')
    path = manifests(tmp_path, isvc, runtime_doc("rt", engineConfig=mode_annotation("MultiNode")))
    run = run_cli("effective", "--isvc", "ns/svc", path)
    assert run.out.splitlines()[2] == "engine       MultiNode (ComponentAnnotation)"
    # A virtual InferenceService uses no runtime: one named that is missing is
    # no error.
    virtual = {
        **isvc,
        "metadata": {
            **isvc["metadata"],
            "annotations": {"ome.io/deploymentMode": "VirtualDeployment"},
        },
    }
    run = run_cli("effective", "--isvc", "ns/svc", manifests(tmp_path, virtual, name="v.yaml"))
    assert (run.code, run.out.splitlines()[0]) == (0, "InferenceService ns/svc: no runtime")


def test_effective_json_contract(tmp_path):
    path = manifests(
        tmp_path,
        isvc_doc(engine={}, router={}, runtime={"name": "rt"}),
        runtime_doc("rt", routerConfig=mode_annotation("MultiNode")),
    )
    data = run_cli("effective", "--isvc", "ns/svc", path, "-o", "json").json()
    assert data == {
        "isvc": "ns/svc",
        "version": "v1.3",
        "runtime": {"name": "rt", "kind": "ClusterServingRuntime", "read_from": "manifest"},
        "named": True,
        "components": {
            "engine": {"mode": "RawDeployment", "source": "Default"},
            "router": {"mode": "MultiNode", "source": "ComponentAnnotation"},
        },
        "reconcile": {"router": "invalid deployment mode for router"},
        "reconcile_logs": {"router": "Failed to reconcile component"},
        "message": None,
        "rules": rules_used(),
    }


def test_effective_with_runtime_flag_and_v122(tmp_path):
    path = manifests(tmp_path, isvc_doc(engine={"leader": {}}), runtime_doc("rt"))
    args = ("effective", "--isvc", "svc", path, "--runtime", "rt", "-o", "json")
    assert run_cli(*args).json()["components"] == {
        "engine": {"mode": "OMENative", "source": "LeaderWorkerShape"}
    }
    old = run_cli(*args, "--ome-version", "v1.2.2").json()
    assert (old["version"], old["components"]) == (
        "v1.2.2",
        {"engine": {"mode": "MultiNode", "source": "LeaderWorkerShape"}},
    )


def test_global_options_work_before_and_after_the_command(tmp_path):
    path = manifests(tmp_path, isvc_doc(engine={"leader": {}}))
    before = run_cli("--ome-version", "v1.2.2", "effective", "--isvc", "svc", path, "-o", "json")
    after = run_cli("effective", "--isvc", "svc", path, "-o", "json", "--ome-version", "1.2.2")
    assert before.json() == after.json()
    assert before.json()["version"] == "v1.2.2"


def test_admit_json_and_exit_codes(tmp_path):
    denied = manifests(
        tmp_path, isvc_doc(engine=mode_annotation("OMENative"), decoder={}), name="d.yaml"
    )
    run = run_cli("admit", "--isvc", "svc", denied, "-o", "json")
    assert run.code == 1
    assert run.json() == {
        "admission": {
            "allowed": False,
            "message": 'admission webhook "inferenceservice.ome-webhook-server.validator" denied '
            'the request: InvalidDeploymentModeCombination: engine deploymentMode="OMENative" '
            'does not match decoder deploymentMode=""; when either is OMENative, both must use '
            "the same value",
            "warnings": [],
            "denied_by": "engine-decoder-agree",
            "warning_checks": [],
            "checked": [
                "crd-schema",
                "decoder-requires-engine",
                "leader-worker-pairing",
                "lean-multi-pod-runner",
                "engine-decoder-agree",
            ],
            "not_checked": [],
        },
        "schema_findings": [],
        "version": "v1.3",
        "rules": rules_used(),
    }
    allowed = run_cli("admit", "--isvc", "svc", denied, "-o", "yaml", "--ome-version", "1.2.3")
    assert allowed.code == 0
    assert yaml.safe_load(allowed.out) == {
        "admission": {
            "allowed": True,
            "message": None,
            "warnings": [],
            "denied_by": None,
            "warning_checks": [],
            "checked": [
                "crd-schema",
                "model-required",
                "runtime-resolution",
            ],
            "not_checked": [],
        },
        "schema_findings": [],
        "version": "v1.2.3",
        "rules": rules_used("v1.2.2"),
    }


def test_isvc_ref_as_a_file_not_among_the_manifests(tmp_path):
    isvc = write(
        tmp_path, "isvc.yaml", yaml.safe_dump(isvc_doc(engine=mode_annotation("OMENative")))
    )
    runtimes = manifests(
        tmp_path, runtime_doc(engineConfig=mode_annotation("MultiNode")), name="rt/r.yaml"
    )
    run = run_cli("match", "--isvc", str(isvc), str(tmp_path / "rt"), "-o", "json")
    assert [r["result"] for r in run.json()["runtimes"]] == ["reject"]
    assert runtimes


def test_bad_usage_and_input_exit_2_with_one_line(tmp_path):
    cases = [
        (["effective"], "modetable: error: the following arguments are required: --isvc"),
        (
            ["match", "--isvc", "x"],
            "modetable: error: no manifests given (pass files, folders or -)",
        ),
        (
            ["--ome-version", "v1.2", "admit", "--isvc", "x", str(EXAMPLES)],
            "modetable: error: OME v1.2 is older than these rules describe: "
            "they cover v1.2.2 to v1.3.x",
        ),
        (
            ["admit", "--isvc", "nope", str(EXAMPLES)],
            "modetable: error: no InferenceService 'nope' among the manifests "
            "(found: llama-demo/llama-3-70b)",
        ),
        (
            ["admit", "--isvc", "x", str(tmp_path / "missing.yaml")],
            f"modetable: error: {tmp_path / 'missing.yaml'}: no such file or directory",
        ),
    ]
    for argv, expected in cases:
        run = run_cli(*argv)
        assert run.code == 2, argv
        assert run.err.splitlines()[-1].startswith(expected), (argv, run.err)
        assert len(run.err.splitlines()) == 1, run.err


def test_stdin_and_kind_list(tmp_path):
    listing = {
        "apiVersion": "v1",
        "kind": "List",
        "items": [
            isvc_doc(engine=mode_annotation("OMENative")),
            runtime_doc(engineConfig=mode_annotation("MultiNode")),
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "skipped"}},
        ],
    }
    run = run_cli("match", "--isvc", "svc", "-", "-o", "json", stdin=yaml.safe_dump(listing))
    assert [r["name"] for r in run.json()["runtimes"]] == ["rt"]
    as_json = run_cli("match", "--isvc", "svc", "-", "-o", "json", stdin=json.dumps(listing))
    assert as_json.json() == run.json()


def test_folders_are_read_recursively_with_multi_document_files(tmp_path):
    write(tmp_path, "a/b/c/isvc.yaml", "---\n" + yaml.safe_dump(isvc_doc()) + "---\n")
    write(tmp_path, "a/runtimes.yml", yaml.safe_dump_all([runtime_doc("r1"), runtime_doc("r2")]))
    write(tmp_path, "a/notes.txt", "not yaml: [")
    data = run_cli("match", "--isvc", "svc", str(tmp_path / "a"), "-o", "json").json()
    assert [r["name"] for r in data["runtimes"]] == ["r1", "r2"]


def test_duplicates_warn_and_the_later_one_wins(tmp_path):
    path = manifests(
        tmp_path,
        isvc_doc(),
        runtime_doc("rt", engineConfig=mode_annotation("MultiNode")),
        runtime_doc("rt"),
    )
    run = run_cli("match", "--isvc", "svc", path, "-o", "json", "--explain")
    assert [r["result"] for r in run.json()["runtimes"]] == ["pass"]
    assert run.err == (
        f"modetable: warning: {path}:19:1: ClusterServingRuntime rt is defined twice "
        f"(first at {path}:10:1); the later one is used, as kubectl apply would leave it\n"
    )


def test_match_exits_1_when_the_named_runtimes_chain_is_broken_even_if_another_passes(tmp_path):
    path = manifests(
        tmp_path,
        isvc_doc(runtime={"name": "child"}),
        runtime_doc("child", annotations={"ome.io/inherit-from": "missing"}),
        runtime_doc("other"),
    )
    run = run_cli("match", "--isvc", "svc", path)
    assert run.code == 1
    assert run.out.splitlines()[1:] == [
        "RUNTIME        SCOPE    RESULT    RULE    REASON",
        'child (named)  Cluster  Error     -       inherit-from parent "missing" not found '
        "(chain so far: [child])",
        "1 more runtime passes the mode rule; --all lists every runtime.",
    ]


def test_an_empty_runtime_name_is_an_error_not_an_absent_option():
    cases = [
        (
            "effective",
            "--runtime",
            "modetable: error: no runtime '' for namespace llama-demo among the manifests",
        ),
        ("match", "--runtime", "modetable: error: no runtime '' for namespace llama-demo"),
        (
            "explain",
            "--why",
            "modetable: error: no runtime '' for namespace llama-demo (found: "
            "srt-llama-3-3-70b-instruct, srt-llama-3-3-70b-instruct-multinode)",
        ),
    ]
    for command, option, message in cases:
        run = run_cli(command, option, "", "--isvc", "llama-3-70b", str(EXAMPLES))
        assert (run.code, run.err) == (2, message + "\n"), command


# Words that read as options, and `--` and `-`, which after `--` are files too.
OPTION_LIKE_WORDS = ["-nzz.yaml", "--namespace=x.yaml", "-o.yaml", "--", "-", "--help", "-A"]
# Every command that takes MANIFESTS, with the options it requires.
OPERAND_COMMANDS = {
    "effective": ["--isvc", "svc"],
    "match": ["--isvc", "svc"],
    "admit": ["--isvc", "svc"],
    "select": ["--isvc", "svc"],
    "explain": ["--isvc", "svc"],
    "audit": [],
}


def test_every_command_with_manifests_is_in_the_table():
    from modetable.cli import COMMANDS

    taking = {name for name in COMMANDS if "MANIFESTS" in run_cli(name, "--help").out}
    assert taking == set(OPERAND_COMMANDS)


@pytest.mark.parametrize("command", OPERAND_COMMANDS)
def test_after_double_dash_every_word_is_one_of_the_manifests(command):
    """Whatever it looks like, and with options between the files before `--`
    (which argparse alone refused as "unrecognized arguments")."""
    from modetable.cli import build_parser

    required = OPERAND_COMMANDS[command]
    for before, options in (([], []), (["first.yaml"], ["-o", "json", "-n", "ns"])):
        argv = [command, *required, *before, *options, "--", *OPTION_LIKE_WORDS]
        args = build_parser(argv).parse_args(argv)
        assert args.manifests == [*before, *OPTION_LIKE_WORDS]
        assert (args.output, args.namespace) == (("json", "ns") if options else ("table", None))
