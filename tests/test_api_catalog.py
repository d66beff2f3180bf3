"""The Python API against the commands, over the real catalog (../shared/ome-catalog):
for every InferenceService and every command, the API's `to_json()` is what the
command prints with `-o json`; and the catalog given as objects in memory gets
the same verdicts as the catalog read from its files.

The catalog is read once. The per-InferenceService runs hand the command line
that same reading (its rules and objects); a few runs read everything from
disk as a user's would, and the audit (every InferenceService at once) does too.
"""

from __future__ import annotations

import copy
import json
import warnings

import pytest
from conftest import CATALOG, RULES, need, run_cli
from corpus import catalog_documents

import modetable
from modetable import selection
from modetable.api.cluster import engine_cluster
from modetable.api.rules import engine_policy, engine_ruleset
from modetable.cli import common
from modetable.engine import matching
from modetable.inputs import loading
from modetable.selection import Evaluator, Memoised

COMMANDS = ("select", "effective", "admit", "match")
API = {
    "select": modetable.select,
    "effective": modetable.effective,
    "admit": modetable.admit,
    "match": modetable.match,
}


@pytest.fixture(scope="module")
def rules():
    return modetable.load_rules(RULES)


@pytest.fixture(scope="module")
def policy(rules):
    return rules.at()


@pytest.fixture(scope="module")
def cluster(policy):
    need(CATALOG)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", modetable.ModetableWarning)  # duplicates
        return modetable.Cluster.from_paths(CATALOG, rules=policy)


@pytest.fixture
def read_once(monkeypatch, rules, policy, cluster):
    """The command line given the catalog already read, and the same rules; each
    InferenceService's selection made once and shown by every command that shows
    it (select, admit, effective without a named runtime), and each runtime
    matched with it once, on both sides. A selection asked for with every step
    run is made by the fleet's evaluator with every candidate, which gives the
    same outcome (test_selection_catalog.py shows it on this catalog) for
    an eighth of the work: what is compared here is the API and the command
    showing one outcome, whichever way it was made."""
    objects = engine_cluster(cluster, engine_policy(policy))
    monkeypatch.setattr(common, "load_ruleset", lambda path=None, warn=None: engine_ruleset(rules))
    monkeypatch.setattr(loading, "load_paths", lambda *args, **kwargs: objects)
    reference = selection.select
    made: dict = {}
    evaluators: dict = {}

    def select_once(policy, cluster, isvc, evaluator=None):
        key = (policy.release, policy.file, id(cluster), id(isvc), evaluator)
        if key not in made:
            if evaluator is None:
                fleet = (policy.release, policy.file, id(cluster))
                if fleet not in evaluators:
                    evaluators[fleet] = Evaluator(policy, cluster, Memoised(policy, cluster))
                made[key] = reference(policy, cluster, isvc, evaluators[fleet])
            else:
                made[key] = reference(policy, cluster, isvc, evaluator)
        return made[key]

    monkeypatch.setattr(selection, "select", select_once)
    reference_match = matching.match_runtime
    matched: dict = {}

    def match_once(policy, cluster, isvc, runtime, named, requested=None):
        key = (policy.release, policy.file, id(cluster), id(isvc), id(runtime), named)
        if key not in matched:
            matched[key] = reference_match(policy, cluster, isvc, runtime, named, requested)
        return matched[key]

    monkeypatch.setattr(matching, "match_runtime", match_once)


@pytest.fixture(scope="module")
def kinds_of_outcome(policy, cluster):
    """One InferenceService of each outcome the catalog holds (picked, named,
    none, model_missing...), for the tests that need not run them all."""
    found: dict[str, str] = {}
    for item in modetable.audit_cluster(policy, cluster).items:
        found.setdefault(item.to_json()["result"], item.isvc)
    return sorted(found.values())


def command_json(command: str, *argv: str) -> dict:
    run = run_cli(command, *argv, "-o", "json")
    assert run.code in (0, 1), run.err
    return run.json()


@pytest.mark.slow
def test_every_command_prints_the_apis_json_for_every_isvc(read_once, policy, cluster):
    assert len(cluster.isvcs) > 100
    for ref in cluster.isvcs:
        for command in COMMANDS:
            expected = API[command](policy, cluster, ref).to_json()
            assert command_json(command, "--isvc", ref, str(CATALOG)) == expected, (command, ref)


def test_the_commands_read_from_disk_print_the_apis_json(policy, cluster):
    """No reading handed over: the command reads the rules and the catalog itself."""
    for ref in cluster.isvcs[:1]:
        for command in COMMANDS:
            expected = API[command](policy, cluster, ref).to_json()
            argv = ("--rules", str(RULES), command, "--isvc", ref, str(CATALOG))
            assert command_json(*argv) == expected, (command, ref)


def test_audit_prints_the_apis_json(policy, cluster):
    expected = modetable.audit_cluster(policy, cluster).to_json()
    assert len(expected["items"]) == len(cluster.isvcs)
    assert command_json("--rules", str(RULES), "audit", str(CATALOG)) == expected


def test_options_print_the_apis_json(read_once, policy, cluster):
    """--runtime, -n and --candidates, as keywords."""
    ref = "qwen2-5-72b-instruct/qwen2-5-72b-instruct"
    runtime = "srt-qwen2-5-72b-instruct"
    for command in ("effective", "match"):
        expected = API[command](policy, cluster, ref, runtime=runtime).to_json()
        argv = ("--isvc", ref, "--runtime", runtime, str(CATALOG))
        assert command_json(command, *argv) == expected
    namespace = ref.split("/")[0]
    expected = modetable.audit_cluster(
        policy, cluster, namespace=namespace, candidates=True
    ).to_json()
    assert len(expected["items"]) == 1 and expected["items"][0]["candidates"]
    argv = ("-n", namespace, "--candidates", str(CATALOG))
    assert command_json("audit", *argv) == expected


# The catalog's InferenceServices the API server refuses (OME's CRD schema).
REFUSED = ("default/exaone-3-5-7-8b-instruct", "zai-org-test/glm-4-5v-test")


@pytest.mark.parametrize("ref", REFUSED)
def test_every_command_answers_a_refused_isvc_with_the_denial_the_command_prints(
    read_once, policy, cluster, ref
):
    """select, effective, match and admit: admit's denial (an AdmitResult),
    whose JSON is what each command prints, exit 1."""
    for command in COMMANDS:
        answer = API[command](policy, cluster, ref)
        assert isinstance(answer, modetable.AdmitResult), command
        assert (answer.allowed, answer.denied_by) == (False, "crd-schema")
        run = run_cli(command, "--isvc", ref, str(CATALOG), "-o", "json")
        assert (run.code, run.json()) == (1, answer.to_json()), command
    for command in ("effective", "match"):
        answer = API[command](policy, cluster, ref, runtime="srt-anything")
        assert answer.to_json() == modetable.admit(policy, cluster, ref).to_json()


def test_to_json_is_plain_json_made_anew_each_time(policy, cluster, kinds_of_outcome):
    """Dicts, lists, strings, numbers, booleans and None, and nothing else (no
    tuple, no enum): what json.loads gives back from the command's output. And a
    new document each time: a caller may change what to_json() gave it, and the
    result (and the objects read) stay as they were."""
    found = [API[c](policy, cluster, ref) for ref in kinds_of_outcome for c in COMMANDS]
    found.append(modetable.audit_cluster(policy, cluster, candidates=True))
    for result in found:
        first = result.to_json()
        assert _types(first) <= {dict, list, str, int, float, bool, type(None)}
        kept = copy.deepcopy(first)
        _scribble(first)
        assert result.to_json() == kept


def _types(value) -> set[type]:
    found = {type(value)}
    if isinstance(value, dict):
        assert all(type(k) is str for k in value)
        for item in value.values():
            found |= _types(item)
    elif isinstance(value, list):
        for item in value:
            found |= _types(item)
    return found


def _scribble(value) -> None:
    """Change every dict and list inside `value`, in place."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in list(value):
            _scribble(item)
        value.append("scribbled")


# --- objects in memory --------------------------------------------------------------


def _placeless(value):
    """A JSON document without the places of things (files and lines here, object
    paths there): what is left is the verdict."""
    if isinstance(value, dict):
        if "label" in value:  # a finding's related place: what it is, not where
            return {"label": value["label"]}
        return {k: _placeless(v) for k, v in value.items() if k not in ("at", "location")}
    if isinstance(value, list):
        return [_placeless(v) for v in value]
    return value


@pytest.fixture(scope="module")
def in_memory(policy):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", modetable.ModetableWarning)
        return modetable.Cluster.from_objects(catalog_documents(), rules=policy)


def test_objects_in_memory_get_the_verdicts_of_the_files(policy, cluster, in_memory):
    """The audit with every candidate: each InferenceService's outcome, admission,
    running modes, findings, and every runtime's checks against it."""
    assert in_memory.isvcs == cluster.isvcs
    assert in_memory.runtimes == cluster.runtimes
    assert in_memory.models == cluster.models
    # The objects defined twice, and the two the API server refuses (exaone, glm-4-5v).
    assert len(in_memory.warnings) == len(cluster.warnings) == 3
    from_files = modetable.audit_cluster(policy, cluster, candidates=True).to_json()
    from_objects = modetable.audit_cluster(policy, in_memory, candidates=True).to_json()
    assert len(from_objects["items"]) == len(cluster.isvcs)
    # An object defined twice: its message says where the first one is.
    said = [
        [(f["severity"], f["id"], f["object"]) for f in document.pop("manifest_findings")]
        for document in (from_files, from_objects)
    ]
    assert said[0] == said[1] and said[0]
    assert _placeless(from_objects) == _placeless(from_files)


def test_objects_in_memory_match_as_the_files_do(policy, cluster, in_memory, kinds_of_outcome):
    for ref in kinds_of_outcome:
        for command in COMMANDS:
            from_files = _placeless(API[command](policy, cluster, ref).to_json())
            from_objects = _placeless(API[command](policy, in_memory, ref).to_json())
            assert from_objects == from_files, (command, ref)


def test_an_isvc_given_as_an_object_gets_the_verdict_of_the_one_in_the_cluster(
    policy, cluster, kinds_of_outcome
):
    """The webhook's case: the InferenceService is the request's object, not one read."""
    isvcs = {
        f"{d['metadata'].get('namespace', 'default')}/{d['metadata']['name']}": d
        for d in catalog_documents()
        if isinstance(d, dict) and d.get("kind") == "InferenceService"
    }
    for ref in kinds_of_outcome:
        for command in COMMANDS:
            by_ref = _placeless(API[command](policy, cluster, ref).to_json())
            given = _placeless(API[command](policy, cluster, isvcs[ref]).to_json())
            assert given == by_ref, (command, ref)


def test_the_json_of_every_command_round_trips(policy, cluster):
    """json.dumps then json.loads gives the same document back (what the
    command prints is what to_json() holds)."""
    ref = cluster.isvcs[0]
    for command in COMMANDS:
        document = API[command](policy, cluster, ref).to_json()
        assert json.loads(json.dumps(document)) == document


# --- threads --------------------------------------------------------------------


@pytest.mark.slow
def test_threads_selecting_at_once_get_the_answers_of_one_thread(kinds_of_outcome):
    """One Policy and one Cluster, fresh (nothing computed yet), shared by
    several threads selecting at once, each in its own order, with the
    interpreter switching threads as often as it can."""
    import sys
    import threading

    policy = modetable.load_rules(RULES).at()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", modetable.ModetableWarning)
        cluster = modetable.Cluster.from_paths(CATALOG, rules=policy)
    refs = list(kinds_of_outcome)
    start = threading.Barrier(4)
    answers: dict[int, dict] = {}
    failures: list[BaseException] = []

    def work(number: int) -> None:
        try:
            start.wait()
            order = refs[number:] + refs[:number]
            answers[number] = {
                (ref, command): API[command](policy, cluster, ref).to_json()
                for ref in order
                for command in ("select", "match")
            }
        except BaseException as exc:  # reported below, with the thread's answers
            failures.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
    alone = {
        (ref, command): API[command](policy, cluster, ref).to_json()
        for ref in refs
        for command in ("select", "match")
    }
    assert len(answers) == 4
    for found in answers.values():
        assert found == alone
