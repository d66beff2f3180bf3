"""The admission engine: the rules' checks in order, the first denial wins, the
warnings before it come with it, and every denial and warning names the check
(an id of the rules' `admission` list) that gave it."""

from __future__ import annotations

import pytest
from conftest import ADMISSION_V13 as V13
from conftest import cluster_of, format_entry, isvc_doc, llama_model_spec, model_doc, runtime_doc

from modetable.admission import STAGE_ORDER, admit
from modetable.admission.fields import TESTS
from modetable.admission.kinds import CHECKS
from modetable.inputs.admission_fields import EXPECTS
from modetable.rules.words import AdmissionCheck, TestWord
from modetable.selection import select
from modetable.versions import in_force
from modetable.views.common import AdmissionView
from modetable.views.converter import unstructure

WEBHOOK = 'admission webhook "inferenceservice.ome-webhook-server.validator" denied the request: '


def test_every_check_word_has_its_kind():
    assert set(CHECKS) == set(AdmissionCheck)


def test_every_test_word_has_its_test():
    assert set(TESTS) == set(EXPECTS) == set(TestWord)


def test_the_shipped_checks_in_order(v13, v122):
    assert tuple(r.id for r in v13.admission) == V13
    assert tuple(r.id for r in v122.admission) == (
        "crd-schema",
        "model-required",
        "runtime-resolution",
    )


@pytest.mark.parametrize("version", ["v1.2.2", "v1.3"])
def test_every_outcome_that_shows_at_admission_has_exactly_one_check(ruleset, version):
    policy = ruleset.at(version)
    selection = policy.rules.selection
    claimed: dict[str, list[str]] = {}
    for rule in (r for r in policy.admission if r.check == "selection"):
        for outcome in rule.outcomes:
            claimed.setdefault(outcome, []).append(rule.id)
    for outcome, effects in selection.outcomes.items():
        shows = [
            e
            for e in effects
            if e.emit in ("warning", "denial") and in_force(e.since, e.until, version)
        ]
        if shows:
            assert len(claimed.get(outcome, [])) == 1, (outcome, claimed.get(outcome))
            (check,) = (r for r in policy.admission if r.id == claimed[outcome][0])
            assert {e.stage for e in shows if e.emit == "denial"} <= {check.stage}


def test_schema_checks_run_before_the_webhooks(v13):
    stages = [r.stage for r in v13.admission]
    assert stages == sorted(stages, key=STAGE_ORDER.index)


def _picked(policy, **isvc_spec):
    docs = [
        isvc_doc(engine={}, **isvc_spec),
        model_doc("m", **llama_model_spec()),
        runtime_doc("rt", supportedModelFormats=[format_entry()]),
    ]
    cluster = cluster_of(policy, *docs)
    return select(policy, cluster, cluster.isvcs[0])


def test_a_warning_names_the_check_that_gave_it(v13):
    admission = _picked(v13).admission
    assert unstructure(AdmissionView.of(admission)) == {
        "allowed": True,
        "message": None,
        "warnings": ["Runtime rt will be auto-selected for model m"],
        "denied_by": None,
        "warning_checks": ["runtime-resolution"],
        "checked": list(V13),
        "not_checked": [],
    }


def test_the_first_denial_wins_and_later_checks_are_not_run(v13):
    outcome = _picked(
        v13,
        deploymentMode="OMENative",
        decoder={"annotations": {"ome.io/deploymentMode": "RawDeployment"}},
    )
    admission = outcome.admission
    assert admission.denied_by == "engine-decoder-agree"
    assert admission.message == (
        WEBHOOK + 'InvalidDeploymentModeCombination: engine deploymentMode="OMENative" does '
        'not match decoder deploymentMode="RawDeployment"; when either is OMENative, both must '
        "use the same value"
    )
    # The auto-selection warning comes from a later check: OME never reaches it.
    assert admission.warnings == ()
    assert admission.checked == V13[: V13.index("engine-decoder-agree") + 1]


def test_without_selection_its_checks_are_neither_run_nor_noted(v13):
    cluster = cluster_of(v13, isvc_doc(engine={}))
    admission = admit(v13, cluster.isvcs[0])
    assert admission.allowed
    pure = tuple(c for c in V13 if c not in ("model-exists", "runtime-resolution"))
    assert admission.checked == pure
    assert admission.not_checked == ()


def test_v122_runs_the_checks_it_had(v122):
    admission = _picked(v122).admission
    assert admission.checked == (
        "crd-schema",
        "model-required",
        "runtime-resolution",
    )
    assert admission.warning_checks == ("runtime-resolution",)
