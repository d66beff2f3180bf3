"""The fleet's evaluator (the selection steps run through the `Memoised`
strategy: results kept per what each step declares it reads, runtimes pruned by
the indexes the steps declare) gives what `select` gives with every step run:
every field of select's JSON and, with `candidates`, every candidate and every
check it ran. A step that declared less than it reads would share an answer
between InferenceServices that differ there; the catalog (compared in
tests/test_selection_catalog.py, beside the every-step outcomes it already
makes of it) and the look-alike fleets of tests/test_fleet_differential.py are
where that shows."""

from __future__ import annotations

import attrs
from conftest import cluster_of, isvc_doc, mode_annotation, runtime_doc
from corpus import MODEL, SHARDED_MODEL, entry

from modetable.selection import Evaluator, Memoised, select
from modetable.views.select import CheckView, OutcomeView


def _traces(outcome, seen=None):
    """Each candidate's checks, as explain shows them. `seen` keeps the view of
    each result already shown (a result is frozen, and the fleet's evaluator
    hands the same one to many runtimes): each is made once."""
    seen = {} if seen is None else seen
    traces = []
    for candidate in outcome.candidates:
        trace = []
        for check in candidate.checks:
            # The result kept beside its view: its id is not reused meanwhile.
            found = seen.get(id(check))
            if found is None:
                found = seen[id(check)] = (check, CheckView.of(check))
            trace.append(found[1])
        traces.append(trace)
    return traces


def fleet_evaluator(policy, cluster, candidates=False) -> Evaluator:
    return Evaluator(policy, cluster, Memoised(policy, cluster), candidates=candidates)


def assert_memo_agrees(policy, cluster, references=None) -> list[str]:
    """The fleet's evaluator against `select` (or `references`, select's outcomes
    by reference, already made) for each InferenceService; their results."""
    fast = fleet_evaluator(policy, cluster)
    full = fleet_evaluator(policy, cluster, candidates=True)
    results = []
    seen: dict = {}
    for isvc in cluster.isvcs:
        made = references is not None
        reference = references[isvc.ref] if made else select(policy, cluster, isvc)
        expected = OutcomeView.of(reference)
        with_candidates = select(policy, cluster, isvc, full)
        assert OutcomeView.of(with_candidates) == expected, isvc.ref
        assert _traces(with_candidates, seen) == _traces(reference, seen), isvc.ref
        got = OutcomeView.of(select(policy, cluster, isvc, fast))
        assert got == attrs.evolve(expected, candidates=()), isvc.ref
        results.append(reference.result)
    return results


def test_the_fleet_picks_at_the_edges(ruleset):
    """Ties broken by scope and name, a runtime in the namespace beating a better
    cluster one, accelerator classes, disabled runtimes, sizes, and no runtime:
    what the fleet's evaluator picks, and that every step run picks the same."""
    documents = [
        MODEL,
        runtime_doc("a", supportedModelFormats=[entry(priority=2)]),
        runtime_doc("b", supportedModelFormats=[entry(priority=2)]),
        runtime_doc("local", "ServingRuntime", namespace="ns", supportedModelFormats=[entry()]),
        runtime_doc("a", "ServingRuntime", namespace="other", supportedModelFormats=[entry()]),
        runtime_doc("off", disabled=True, supportedModelFormats=[entry(priority=9)]),
        runtime_doc(
            "h100",
            supportedModelFormats=[entry(priority=5)],
            acceleratorRequirements={"acceleratorClasses": ["nvidia-h100"]},
        ),
        runtime_doc(
            "small", supportedModelFormats=[entry(priority=7)], modelSizeRange={"max": "1B"}
        ),
        runtime_doc(
            "multinode",
            supportedModelFormats=[entry(priority=8)],
            engineConfig=mode_annotation("MultiNode"),
        ),
        runtime_doc("manual", supportedModelFormats=[entry(autoSelect=False, priority=9)]),
        isvc_doc("in-ns", "ns"),
        isvc_doc("elsewhere", "other"),
        isvc_doc("third", "third"),
        isvc_doc(
            "wants-h100",
            "third",
            engine={"acceleratorOverride": {"acceleratorClass": "nvidia-h100"}},
        ),
        isvc_doc(
            "wants-a100",
            "third",
            engine={"acceleratorOverride": {"acceleratorClass": "nvidia-a100"}},
        ),
        isvc_doc("pins-multinode", "third", engine=mode_annotation("MultiNode")),
        isvc_doc("native", "third", deploymentMode="OMENative"),
        isvc_doc("names-one", "third", runtime={"name": "multinode"}, deploymentMode="OMENative"),
        isvc_doc("no-model", "third", model={"name": "absent"}),
        SHARDED_MODEL,
        isvc_doc("sharded", "third", model={"name": "sharded"}),
    ]
    for version in ruleset.versions:
        policy = ruleset.at(version)
        cluster = cluster_of(policy, *documents)
        fast = fleet_evaluator(policy, cluster)
        picked = {
            isvc.name: (
                o.runtime.ref if (o := select(policy, cluster, isvc, fast)).runtime else o.result
            )
            for isvc in cluster.isvcs
        }
        assert picked["in-ns"] == "ns/local"
        assert picked["elsewhere"] == "other/a"
        assert picked["wants-a100"] == "none"
        assert_memo_agrees(policy, cluster)
    assert picked == {
        "in-ns": "ns/local",
        "elsewhere": "other/a",
        "third": "multinode",
        "wants-h100": "h100",
        "wants-a100": "none",
        "pins-multinode": "multinode",
        "native": "h100",
        "names-one": "multinode",
        "no-model": "model_missing",
        "sharded": "model_sharded",
    }
