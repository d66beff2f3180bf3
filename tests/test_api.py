"""The Python API's surface: the names `import modetable` offers and what each
promises (types, docstrings, errors, warnings), objects given in memory, and
that importing it imports nothing else."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys

import attrs
import pytest
import yaml
from conftest import EXAMPLES, ROOT, RULES, isvc_doc, model_doc, runtime_doc

import modetable

FUNCTIONS = ("load_rules", "select", "effective", "admit", "match", "audit_cluster")


@pytest.fixture(scope="module")
def policy():
    return modetable.load_rules(RULES).at("v1.3")


@pytest.fixture(scope="module")
def examples(policy):
    return modetable.Cluster.from_paths(EXAMPLES, rules=policy)


def documents() -> list:
    """The example manifests as PyYAML gives them."""
    files = sorted(EXAMPLES.glob("*.yaml"))
    return [doc for path in files for doc in yaml.safe_load_all(path.read_text())]


# --- the surface ----------------------------------------------------------------


def test_import_modetable_imports_nothing_else():
    """The engine is imported when a name is first used (PEP 562), so importing
    the package costs what `modetable --version` costs at most."""
    code = (
        "import sys; before = set(sys.modules); import modetable; "
        "print(sorted(set(sys.modules) - before))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert found.stdout.strip() == "['modetable']"


def test_every_public_name_is_there_documented_and_typed():
    assert sorted(modetable.__all__) == modetable.__all__
    assert sorted(dir(modetable)) == dir(modetable)
    assert set(modetable.__all__) <= set(dir(modetable))
    for name in modetable.__all__:
        value = getattr(modetable, name)
        assert inspect.getdoc(value), name
        if inspect.isfunction(value):
            signature = inspect.signature(value)
            assert signature.return_annotation is not inspect.Signature.empty, name
            assert all(
                p.annotation is not inspect.Parameter.empty for p in signature.parameters.values()
            ), name
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        _ = modetable.nothing


def test_the_results_are_frozen(policy, examples):
    ref = examples.isvcs[0]
    for result in (
        modetable.select(policy, examples, ref),
        modetable.effective(policy, examples, ref),
        modetable.admit(policy, examples, ref),
        modetable.match(policy, examples, ref),
        modetable.audit_cluster(policy, examples),
        policy,
        examples,
        modetable.load_rules(RULES),
    ):
        assert attrs.has(type(result)), type(result)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            result.anything = 1


def test_a_policy_and_a_cluster_fill_nothing_after_they_are_made():
    """Every cached property of the engine's Policy and Cluster is computed when
    they are made, so threads sharing them never fill one at the same time."""
    found = modetable.load_rules(RULES).at()
    cluster = modetable.Cluster.from_paths(EXAMPLES, rules=found)
    from modetable.api.cluster import engine_cluster
    from modetable.api.rules import engine_policy

    engine = engine_policy(found)
    shared = (engine, engine_cluster(cluster, engine))
    for value in shared:
        cls = type(value)
        lazy = _cached_properties(cls)
        assert lazy, cls  # the test sees them
        for name in lazy:
            # The slot itself, not the attribute (which would compute it now).
            cls.__dict__[name].__get__(value, cls)


def _cached_properties(cls: type) -> list[str]:
    """The names of the cached properties of `cls` as its source writes them
    (attrs turns them into slots)."""
    import ast

    source = inspect.getsource(inspect.getmodule(cls))
    tree = next(
        n
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.ClassDef) and n.name == cls.__name__
    )
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and any(getattr(d, "id", None) == "cached_property" for d in node.decorator_list)
    ]


# --- rules and policies -----------------------------------------------------------


def test_rules_and_a_policy(policy):
    rules = modetable.load_rules(RULES)
    assert rules.file == str(RULES)
    assert rules.versions == ("v1.2.2", "v1.3")
    assert rules.default_version == "v1.3"
    found = rules.at("1.3.1")
    assert (found.release, found.version, found.file, found.warning) == (
        "v1.3.1",
        "v1.3",
        str(RULES),
        None,
    )


def test_a_release_newer_than_the_rules_is_a_warning():
    rules = modetable.load_rules(RULES)
    with pytest.warns(modetable.ModetableWarning) as said:
        found = rules.at("v1.4.0")
    text = (
        "OME v1.4.0 is newer than these rules describe: they were written for v1.3 "
        "(v1.3.x); using the v1.3 rules"
    )
    assert [str(w.message) for w in said] == [text]
    assert said[0].filename == __file__  # the caller's line, not modetable's
    assert (found.version, found.warning) == ("v1.3", text)


def test_a_release_older_than_the_rules_is_an_error():
    with pytest.raises(modetable.ModetableError) as raised:
        modetable.load_rules(RULES).at("v1.1")
    assert str(raised.value) == (
        "OME v1.1 is older than these rules describe: they cover v1.2.2 to v1.3.x"
    )
    assert raised.value.code == modetable.ErrorCode.UNKNOWN_VERSION


def test_rules_that_do_not_load_are_an_error_list(tmp_path):
    broken = tmp_path / "modes.yaml"
    broken.write_text("versions: [1\n")
    with pytest.raises(modetable.ModetableError) as raised:
        modetable.load_rules(broken)
    assert raised.value.location.file == str(broken)


# --- clusters -----------------------------------------------------------------------


def test_a_cluster_from_paths(examples):
    assert examples.isvcs == ("llama-demo/llama-3-70b",)
    assert examples.runtimes == (
        "srt-llama-3-3-70b-instruct",
        "srt-llama-3-3-70b-instruct-multinode",
    )
    assert examples.models == ("llama-3-3-70b-instruct",)
    assert (examples.skipped, examples.warnings) == (0, ())


def test_a_cluster_from_paths_refuses_what_the_commands_refuse(tmp_path, policy):
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: InferenceService\nmetadata:\n  name: a\nspec:\n  model: 3\n")
    with pytest.raises(modetable.ModetableError) as raised:
        modetable.Cluster.from_paths(bad, rules=policy)
    assert str(raised.value) == f"{bad}:5:10: spec.model must be a mapping, got the number 3"
    with pytest.raises(modetable.ModetableError, match="no manifests given"):
        modetable.Cluster.from_paths(rules=policy)
    with pytest.raises(modetable.ModetableError) as raised:
        modetable.Cluster.from_paths(tmp_path / "absent.yaml", rules=policy)
    assert raised.value.location.file == str(tmp_path / "absent.yaml")


def test_objects_in_memory_read_as_files_do(policy, examples):
    in_memory = modetable.Cluster.from_objects(documents(), rules=policy)
    assert (in_memory.isvcs, in_memory.runtimes, in_memory.models) == (
        examples.isvcs,
        examples.runtimes,
        examples.models,
    )
    ref = examples.isvcs[0]
    by_file = modetable.select(policy, examples, ref).to_json()
    by_object = modetable.select(policy, in_memory, ref).to_json()
    assert by_object["message"] == by_file["message"]
    assert by_object["components"] == by_file["components"]


def test_a_list_and_empty_documents(policy):
    listed = {
        "apiVersion": "v1",
        "kind": "List",
        "items": [model_doc("m"), runtime_doc("rt"), isvc_doc("svc", "ns")],
    }
    cluster = modetable.Cluster.from_objects([None, listed, {"kind": "ConfigMap"}], rules=policy)
    assert (cluster.isvcs, cluster.runtimes, cluster.models, cluster.skipped) == (
        ("ns/svc",),
        ("rt",),
        ("m",),
        1,
    )


def test_one_dict_alone_is_one_object(policy):
    """What `json.load` gives for a `kubectl get -o json` dump: one List, not
    an iterable of objects (iterating it would give its keys)."""
    listed = {
        "apiVersion": "v1",
        "kind": "List",
        "items": [model_doc("m"), runtime_doc("rt"), isvc_doc("svc", "ns")],
    }
    cluster = modetable.Cluster.from_objects(listed, rules=policy)
    assert (cluster.isvcs, cluster.runtimes, cluster.models) == (("ns/svc",), ("rt",), ("m",))
    alone = modetable.Cluster.from_objects(isvc_doc("svc", "ns"), rules=policy)
    assert alone.isvcs == ("ns/svc",)


def _refused(policy, objects) -> modetable.ModetableError:
    with pytest.raises(modetable.ModetableError) as raised:
        modetable.Cluster.from_objects(objects, rules=policy)
    return raised.value


MODEL_NAME_3 = (
    'InferenceService.ome.io "svc" is invalid: spec.model.name: Invalid value: "integer": '
    'spec.model.name in body must be of type string: "integer"'
)


def test_an_object_the_api_server_refuses_is_left_out_with_a_warning(policy):
    isvc = isvc_doc("svc", "ns", model={"name": 3})
    with pytest.warns(modetable.ModetableWarning) as said:
        cluster = modetable.Cluster.from_objects([model_doc("m"), isvc], rules=policy)
    assert cluster.isvcs == ()
    assert [str(w.message) for w in said] == [
        "InferenceService ns/svc (InferenceService ns/svc (objects[1])) is left out, as the API "
        f"server refuses it: {MODEL_NAME_3}"
    ]
    # Asked about, it is denied, whatever the function: admit's answer.
    denial = (
        'The InferenceService "svc" is invalid: spec.model.name: Invalid value: "integer": '
        'spec.model.name in body must be of type string: "integer"'
    )
    admitted = modetable.admit(policy, cluster, "ns/svc")
    assert (admitted.allowed, admitted.denied_by, admitted.message) == (
        False,
        "crd-schema",
        denial,
    )
    for decide in (modetable.select, modetable.effective, modetable.match):
        answer = decide(policy, cluster, "ns/svc")
        assert isinstance(answer, modetable.AdmitResult)
        assert answer.to_json() == admitted.to_json()


def test_an_object_without_a_namespace_is_named_as_the_cluster_will(policy):
    isvc = isvc_doc("svc", "ns")
    del isvc["metadata"]["namespace"]
    isvc["metadata"]["annotations"] = {"ome.io/deploymentMode": 3}
    assert str(_refused(policy, [isvc])) == (
        "InferenceService default/svc (objects[0]) at "
        "metadata.annotations[ome.io/deploymentMode]: "
        "metadata.annotations[ome.io/deploymentMode] must be a string, got the number 3 "
        "(quote it in YAML)"
    )


def test_list_items_and_unnamed_objects_say_where_they_stood(policy):
    listed = {"kind": "List", "items": [model_doc("m"), {"kind": "InferenceService"}]}
    assert str(_refused(policy, [listed])) == (
        "InferenceService (objects[0].items[1]): InferenceService has no metadata"
    )
    assert str(_refused(policy, ["text"])) == (
        "objects[0]: a manifest must be a mapping, got the string 'text'"
    )
    assert str(_refused(policy, [{"kind": "List", "items": 3}])) == (
        "List (objects[0]) at items: items of a List must be a list"
    )


def test_values_beyond_json_are_refused_at_their_place(policy):
    isvc = isvc_doc("svc", "ns")
    isvc["spec"]["engine"] = {"runner": {"args": [1, {1, 2}]}}
    assert str(_refused(policy, [isvc])) == (
        "InferenceService ns/svc (objects[0]) at spec.engine.runner.args[1]: "
        "a set is not a JSON value: pass objects as json.load or yaml.safe_load give them "
        "(a Kubernetes client model: ApiClient().sanitize_for_serialization(obj))"
    )
    isvc["spec"]["engine"] = {("a", "b"): 1}
    assert str(_refused(policy, [isvc])) == (
        "InferenceService ns/svc (objects[0]) at spec.engine: "
        "a mapping key must be a string, not a tuple"
    )
    isvc["spec"]["engine"] = {"x": 10**101}
    assert str(_refused(policy, [isvc])) == (
        "InferenceService ns/svc (objects[0]) at spec.engine.x: a number of more than 100 "
        "digits is longer than the limit; make it a string"
    )
    isvc["spec"]["engine"] = {"x": "\ud800"}
    assert str(_refused(policy, [isvc])) == (
        "InferenceService ns/svc (objects[0]) at spec.engine.x: the string holds U+D800, "
        "which is not a character (a lone surrogate)"
    )


def test_objects_that_hold_themselves_or_nest_too_deep_are_refused(policy):
    isvc = isvc_doc("svc", "ns")
    isvc["spec"]["engine"] = loop = {}
    loop["again"] = loop
    assert str(_refused(policy, [isvc])) == (
        "InferenceService ns/svc (objects[0]) at spec.engine.again: "
        "the object holds itself (a mapping or list inside itself)"
    )
    deep: dict = {}
    isvc["spec"]["engine"] = deep
    for _ in range(300):
        deep["d"] = deep = {}
    error = _refused(policy, [isvc])
    assert error.message == "the object is nested deeper than the limit of 200"


def test_shared_values_are_copied_and_the_callers_objects_untouched(policy):
    shared = {"name": "m"}
    objects = [model_doc("m"), isvc_doc("a", "ns", model=shared), isvc_doc("b", "ns", model=shared)]
    before = json.dumps(objects, sort_keys=True)
    cluster = modetable.Cluster.from_objects(objects, rules=policy)
    assert cluster.isvcs == ("ns/a", "ns/b")
    shared["name"] = "changed"  # afterwards: the cluster keeps what it read
    assert (
        modetable.select(policy, cluster, "ns/a").to_json()["message"]
        == (modetable.select(policy, cluster, "ns/b").to_json()["message"])
    )
    assert "changed" not in json.dumps(modetable.select(policy, cluster, "ns/a").to_json())
    shared["name"] = "m"
    assert json.dumps(objects, sort_keys=True) == before


def test_a_timestamp_pyyaml_read_is_its_text(policy):
    import datetime

    isvc = isvc_doc("svc", "ns")
    isvc["metadata"]["creationTimestamp"] = datetime.datetime(2025, 1, 2, 3, 4, 5)
    cluster = modetable.Cluster.from_objects([model_doc("m"), isvc], rules=policy)
    assert cluster.isvcs == ("ns/svc",)


def test_duplicates_are_a_warning(policy):
    objects = [model_doc("m"), isvc_doc("svc", "ns"), isvc_doc("svc", "ns")]
    with pytest.warns(modetable.ModetableWarning) as said:
        cluster = modetable.Cluster.from_objects(objects, rules=policy)
    text = (
        "InferenceService ns/svc (objects[2]): InferenceService ns/svc is defined twice "
        "(first at InferenceService ns/svc (objects[1])); the later one is used, "
        "as kubectl apply would leave it"
    )
    assert [str(w.message) for w in said] == [text]
    assert said[0].filename == __file__
    assert cluster.warnings == (text,)


def test_a_lenient_cluster_leaves_out_what_does_not_read_and_the_audit_says_so(policy):
    bad = isvc_doc("bad", "ns")
    bad["metadata"]["annotations"] = {"ome.io/deploymentMode": 3}
    objects = [model_doc("m"), isvc_doc("good", "ns"), bad, isvc_doc("refused", "ns", model=3)]
    with pytest.raises(modetable.ModetableError):
        modetable.Cluster.from_objects(objects, rules=policy)
    cluster = modetable.Cluster.from_objects(objects, rules=policy, lenient=True)
    assert cluster.isvcs == ("ns/good",)
    found = modetable.audit_cluster(policy, cluster).to_json()["manifest_findings"]
    assert [(f["id"], f["object"]["name"]) for f in found] == [
        ("manifest/invalid", "bad"),
        ("schema/type", "refused"),
    ]


# --- deciding ---------------------------------------------------------------------


def test_the_isvc_by_reference_or_as_an_object(policy, examples):
    isvc = next(d for d in documents() if d["kind"] == "InferenceService")
    by_ref = modetable.admit(policy, examples, "llama-demo/llama-3-70b")
    by_name = modetable.admit(policy, examples, "llama-3-70b")
    given = modetable.admit(policy, examples, isvc)
    assert by_ref.to_json() == by_name.to_json()
    assert given.to_json()["admission"] == by_ref.to_json()["admission"]
    assert (given.isvc, given.allowed, given.denied_by) == (
        "llama-demo/llama-3-70b",
        False,
        by_ref.denied_by,
    )


def test_an_isvc_not_among_the_objects_is_an_error(policy, examples):
    with pytest.raises(modetable.ModetableError) as raised:
        modetable.select(policy, examples, "llama-demo/llama-3")
    assert str(raised.value) == (
        "no InferenceService 'llama-demo/llama-3' among the manifests "
        '(did you mean "llama-demo/llama-3-70b"?)'
    )


def test_an_object_that_is_not_an_isvc_is_an_error(policy, examples):
    with pytest.raises(modetable.ModetableError) as raised:
        modetable.admit(policy, examples, model_doc("m"))
    assert (
        str(raised.value)
        == "the isvc argument: isvc must be an InferenceService, got a ClusterBaseModel"
    )
    # One the API server refuses is denied, before any webhook.
    refused = modetable.admit(policy, examples, isvc_doc("svc", "ns", model={"name": 3}))
    assert (refused.allowed, refused.denied_by) == (False, "crd-schema")
    assert refused.message == (
        'The InferenceService "svc" is invalid: spec.model.name: Invalid value: "integer": '
        'spec.model.name in body must be of type string: "integer"'
    )
    [finding] = refused.to_json()["schema_findings"]
    assert (finding["id"], finding["location"]["file"]) == (
        "schema/type",
        "InferenceService ns/svc (the isvc argument)",
    )


def test_a_cluster_read_with_other_rules_is_refused(tmp_path, policy, examples):
    other = tmp_path / "modes.yaml"
    other.write_text(RULES.read_text().replace("RuntimeNotFound", "RuntimeMissing"))
    elsewhere = modetable.load_rules(other).at("v1.3")
    with pytest.raises(modetable.ModetableError) as raised:
        modetable.select(elsewhere, examples, examples.isvcs[0])
    assert str(raised.value) == (
        f"the cluster was read with the rules of {RULES}, not those of {other}: "
        "read it with rules=the policy"
    )
    # The same file loaded twice is the same rules.
    again = modetable.load_rules(RULES).at("v1.3")
    assert modetable.select(again, examples, examples.isvcs[0]).runtime is None


def test_results_say_what_their_json_says(policy, examples):
    ref = examples.isvcs[0]
    selected = modetable.select(policy, examples, ref)
    data = selected.to_json()
    assert (selected.isvc, selected.version, selected.result, selected.runtime) == (
        data["isvc"],
        data["version"],
        data["result"],
        None,
    )
    assert (selected.named, selected.message, selected.allowed) == (
        data["named"],
        data["message"],
        data["admission"]["allowed"],
    )
    assert selected.modes == {"engine": "OMENative"}
    found = modetable.effective(policy, examples, ref, runtime="srt-llama-3-3-70b-instruct")
    assert (found.runtime, found.named, found.selected, found.modes, found.reconcile) == (
        "srt-llama-3-3-70b-instruct",
        False,
        False,
        {"engine": "OMENative"},
        {},
    )
    matched = modetable.match(policy, examples, ref)
    assert (matched.passing, matched.ok) == (("srt-llama-3-3-70b-instruct",), True)
    audit = modetable.audit_cluster(policy, examples)
    assert [(i.isvc, i.runtime, i.problems, i.severity) for i in audit.items] == [
        (ref, None, ("denied", "no_runtime"), "error")
    ]
    assert (audit.fails(), audit.fails("warning"), audit.fails(None)) == (True, True, False)
    assert audit.summary == audit.to_json()["summary"]


def test_a_cache_keyed_by_a_policy_is_bounded():
    """A program that makes a Policy per request must not keep every one: a
    function cached by its Policy argument keeps a bounded number."""
    import ast

    unbounded = []
    for path in sorted((ROOT / "src" / "modetable").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            takes_policy = any(
                isinstance(a.annotation, ast.Name | ast.Constant)
                and "Policy" in ast.unparse(a.annotation)
                for a in node.args.args
            )
            cached = [ast.unparse(d) for d in node.decorator_list]
            if takes_policy and any(d in ("cache", "functools.cache") for d in cached):
                unbounded.append(f"{path.name}:{node.name}")
            if takes_policy and any("lru_cache(maxsize=None)" in d for d in cached):
                unbounded.append(f"{path.name}:{node.name}")
    assert unbounded == []


# --- what a Cluster keeps between calls --------------------------------------------


def _fleet_documents() -> list:
    """InferenceServices of a few shapes in a few namespaces (one shape in
    several namespaces, one namespace with a runtime of its own), over runtimes
    that pass or fail different checks, and a model of each format."""
    from corpus import MODEL, entry

    gguf = {
        **MODEL["spec"],
        "modelFormat": {"name": "gguf", "version": "3.0.0"},
        "modelFramework": {"name": "llama.cpp", "version": "0.3.2"},
    }
    models = [model_doc("m", **MODEL["spec"]), model_doc("gguf", **gguf)]
    runtimes = [
        runtime_doc("a", supportedModelFormats=[entry(priority=2)]),
        runtime_doc("b", supportedModelFormats=[entry(priority=3)]),
        runtime_doc("local", "ServingRuntime", namespace="ns1", supportedModelFormats=[entry()]),
        runtime_doc("off", disabled=True, supportedModelFormats=[entry(priority=9)]),
        runtime_doc(
            "multinode",
            supportedModelFormats=[entry(priority=8)],
            engineConfig={"annotations": {"ome.io/deploymentMode": "MultiNode"}},
        ),
    ]
    isvcs = [
        isvc_doc(f"svc-{n}", namespace, **spec)
        for n, (namespace, spec) in enumerate(
            [
                ("ns1", {}),
                ("ns2", {}),
                ("ns1", {"model": {"name": "gguf"}}),
                ("ns2", {"runtime": {"name": "b"}}),
                ("ns3", {"model": {"name": "missing"}}),
                ("ns2", {}),
                ("ns1", {"runtime": {"name": "off"}}),
            ]
        )
    ]
    return [*models, *runtimes, *isvcs]


# The commands that select, and their answers with every step run, nothing kept
# (what `modetable select`, `admit` and `effective` run).
_SELECTING = ("select", "admit", "effective")


def _by_every_step(policy, cluster, ref: str, command: str) -> dict:
    from modetable.api import results
    from modetable.api.cluster import engine_cluster
    from modetable.api.rules import engine_policy

    engine = engine_policy(policy)
    objects = engine_cluster(cluster, engine)
    answer = getattr(results, f"{command}_result")
    return answer(engine, objects, objects.find_isvc(ref)).to_json()


def test_select_on_one_cluster_again_and_again_answers_as_every_step_run():
    """Each select() on a Cluster shares what the ones before it decided (per
    policy, the last four kept), with admit() and effective(), which select
    too: the answers are still every step's, in any
    order, under policies of several versions taking turns, one policy equal
    to another, and more policies than are kept; and once the Cluster is
    gone, and pickled."""
    import gc
    import pickle
    import weakref

    from modetable.api import cluster as api_cluster

    rules = modetable.load_rules(RULES)
    policies = [rules.at(v) for v in ("v1.3", "v1.2.2", "1.3.1", "v1.3.0", "1.2.2", "v1.3")]
    with pytest.warns(modetable.ModetableWarning):
        policies.append(rules.at("v1.4.0"))  # newer than the rules: a release of its own
    cluster = modetable.Cluster.from_objects(_fleet_documents(), rules=policies[0])
    expected = {
        (n, ref, command): _by_every_step(policy, cluster, ref, command)
        for n, policy in enumerate(policies)
        for ref in cluster.isvcs
        for command in _SELECTING
    }
    assert [expected[0, ref, "select"]["result"] for ref in cluster.isvcs] == [
        "picked",
        "picked",
        "none",
        "named",
        "model_missing",
        "picked",
        "runtime_disabled",
    ]
    for ref in (*cluster.isvcs, *reversed(cluster.isvcs)):
        for n, policy in enumerate(policies):
            for command in _SELECTING:
                answer = getattr(modetable, command)(policy, cluster, ref)
                assert answer.to_json() == expected[n, ref, command], (ref, command)
    kept = api_cluster._kept[cluster]
    assert len(kept._evaluators) == api_cluster._POLICIES_KEPT == 4
    # A result finds its candidates when its JSON is asked for; it does not
    # keep the Cluster alive, and what is kept goes with the Cluster.
    made = {ref: modetable.select(policies[0], cluster, ref) for ref in cluster.isvcs}
    gone = weakref.ref(cluster)
    del cluster, kept
    gc.collect()
    assert gone() is None
    for ref, result in made.items():
        assert result.to_json() == expected[0, ref, "select"]
        assert pickle.loads(pickle.dumps(result)).to_json() == expected[0, ref, "select"]
