"""A fleet's admission reads each InferenceService's fields in one walk
(`fields.FieldPlan`) and runs the checks' tests on what it read: the same
verdicts as `admit` reading every path itself, on every case of the checks'
own tests, the real catalog and the synthetic fleet (tests/corpus.py), and
generated InferenceServices holding anything (of any type) at the paths the
checks read.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import cluster_of
from corpus import catalog, fleet
from hypothesis import given, settings
from hypothesis import strategies as st
from test_admission_checks import CASES, ROLLOUT_CASES, cluster_docs, isvc

from modetable.admission import Shown, admit
from modetable.admission.fields import FieldPlan, PlannedReader, Reader, field_plan
from modetable.errors import Location
from modetable.inputs.manifests import Manifest
from modetable.parsing import paths

# What selection might show at admission: nothing, a warning, a denial.
SHOWN = [
    ((), "picked"),
    ((Shown("picked", "warning", "Runtime rt will be auto-selected for model m"),), "picked"),
    ((Shown("none", "denial", "no runtime found"),), "none"),
    ((), "model_missing"),
]


def assert_planned_agrees(policy, cluster, isvcs=None) -> None:
    plan = field_plan(policy)
    for one in isvcs if isvcs is not None else cluster.isvcs:
        for selection, result in SHOWN:
            expected = admit(policy, one, cluster, selection=selection, result=result)
            got = admit(
                policy, one, cluster, selection=selection, result=result, read=plan.read(one)
            )
            assert got == expected, one.ref


@pytest.mark.parametrize("version", ["v1.2.2", "v1.3"])
def test_every_case_of_the_checks_tests(ruleset, version):
    policy = ruleset.at(version)
    for case in [*CASES, *ROLLOUT_CASES]:
        extra = getattr(case, "extra", ())
        docs = [isvc(case.spec, getattr(case, "annotations", None)), *cluster_docs(*extra)]
        assert_planned_agrees(policy, cluster_of(policy, *docs))


def test_the_catalog():
    ome = catalog("v1.3")
    assert_planned_agrees(ome.policy, ome.cluster)


def test_a_synthetic_fleet():
    synthetic = fleet("v1.3")
    assert_planned_agrees(synthetic.policy, synthetic.cluster)


# --- generated InferenceServices: anything at the paths the checks read -------------

VALUES = st.sampled_from(
    [None, "", "x", "OMENative", "RawDeployment", "keda", "KEDA", "ServingRuntime",
     "r-ns-rt-0123abcd", "cr-rt-0123abcd", 0, 1, -1, 2, True, False, 1.5, {}, [],
     {"image": ""}, {"runner": {"image": "i"}}, [{}], [{"policyRef": {}}]]
)  # fmt: skip


def _templates(plan: FieldPlan) -> list[tuple[str | None, str]]:
    return [(c, t) for c in [None, *plan.policy.components_by_name] for t in plan.slots(c)]


@st.composite
def bodies(draw, plan: FieldPlan) -> dict[str, Any]:
    """A body holding random values at some of the places the checks read."""
    body: dict[str, Any] = {"metadata": {"name": "svc", "namespace": "ns"}}
    for component, template in draw(st.lists(st.sampled_from(_templates(plan)), max_size=12)):
        segments = Reader(plan.policy, _manifest(body), component).segments(template)
        # A `*` is an item of a list: the first.
        segments = tuple("0" if s == "*" else s for s in segments)
        body = _put(body, segments, draw(VALUES))
    return body


def _put(node: Any, segments: tuple[str, ...], value: Any) -> Any:
    if not segments:
        return value
    head, rest = segments[0], segments[1:]
    if head == "0":
        items = list(node) if isinstance(node, list) and node else [{}]
        items[0] = _put(items[0], rest, value)
        return items
    copy = dict(node) if isinstance(node, dict) else {}
    copy[head] = _put(copy.get(head), rest, value)
    return copy


def _manifest(body: dict[str, Any]) -> Manifest:
    return Manifest(
        kind="InferenceService",
        name="svc",
        namespace="ns",
        scope="namespace",
        body=body,  # type: ignore[arg-type]
        location=Location("generated.yaml", 1, 1),
    )


def _outcome(function, *args: Any, **kwargs: Any) -> Any:
    """What a call gives, or the error it raises (both sides must raise alike)."""
    try:
        return function(*args, **kwargs)
    except Exception as error:  # compared, not hidden
        return (type(error), str(error))


@pytest.mark.slow
@pytest.mark.parametrize("version", ["v1.2.2", "v1.3"])
def test_generated_inference_services(ruleset, version):
    policy = ruleset.at(version)
    plan = field_plan(policy)
    tests = [
        t
        for rule in policy.admission
        for t in (
            *rule.guard,
            *(rule.undecided.when if rule.undecided else ()),
            *(w for case in rule.cases for w in case.when),
        )
    ]
    components: dict[str | None, list[str]] = {}
    for component, template in _templates(plan):
        components.setdefault(component, []).append(template)

    @settings(max_examples=300, deadline=None)
    @given(bodies(plan))
    def agree(body: dict[str, Any]) -> None:
        one = _manifest(body)
        read = plan.read(one)
        for component, templates in components.items():
            planned, walked = PlannedReader(read, component), Reader(policy, one, component)
            for template in templates:
                assert list(planned.all(template)) == list(walked.all(template))
                assert _outcome(planned.field, template) == _outcome(walked.field, template)
            # What a test holds depends on the component, not on the paths
            # asked before it: once per component that has paths.
            for test in tests:
                assert _outcome(planned.holds, test) == _outcome(walked.holds, test), test
        for name in policy.components_by_name:
            assert read.declares(name) == Reader(policy, one).declares(name)
        for selection, result in SHOWN:
            expected = _outcome(admit, policy, one, None, selection=selection, result=result)
            got = _outcome(admit, policy, one, None, selection=selection, result=result, read=read)
            assert got == expected

    agree()


def test_a_path_the_plan_does_not_hold_is_walked(v13):
    one = _manifest({"spec": {"engine": {"image": "i"}}})
    reader = field_plan(v13).read(one).reader("engine")
    assert reader.field("spec.{isvc_field}.image") == "i"
    assert reader.field("spec.nothing") is paths.MISSING
