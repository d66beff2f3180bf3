"""What the code passes each message and explanation, against what the rules
say it receives (`params`, rules/model/sources.py EXPLANATION_PARAMS)."""

from __future__ import annotations

import pytest
from conftest import RULES

from modetable.authoring.callsites import call_sites
from modetable.errors import ModetableError
from modetable.rules import load_ruleset
from modetable.rules.model.names import PATH_PARAMS
from modetable.rules.model.sources import EXPLANATION_PARAMS


def test_the_call_sites_are_read_from_the_source():
    sites = {(s.key, s.passed, s.file) for s in call_sites()}
    assert ("not_reconciled", ("component",), "modetable/engine/running.py") in sites
    assert ("cannot_run_in", ("component", "mode"), "modetable/engine/running.py") in sites


def test_every_message_the_code_names_exists_and_gets_its_params():
    messages = load_ruleset(RULES).rules.messages
    for site in call_sites():
        assert site.key in messages, site.where
        if site.passed is not None:
            assert set(messages[site.key].params) <= set(site.passed), site.where


def test_every_explanation_call_passes_what_the_model_says():
    sites = call_sites("explanation")
    assert {s.key for s in sites} == set(EXPLANATION_PARAMS)
    for site in sites:
        assert set(site.passed or ()) == set(EXPLANATION_PARAMS[site.key]), site.where


def test_path_placeholders_are_the_ones_the_policy_fills(v13):
    assert set(v13.placeholder_values(v13.components[0])) == set(PATH_PARAMS)


def test_a_message_not_given_its_params_is_an_error_not_a_crash(v13):
    with pytest.raises(ModetableError) as caught:
        v13.message("mode_mismatch", component="engine", runtime_mode="MultiNode")
    assert caught.value.message == (
        "message 'mode_mismatch' has params isvc_mode, which modetable does not pass it here"
    )
    with pytest.raises(ModetableError) as caught:
        v13.message("no_such_message")
    assert caught.value.message == "the rules have no message 'no_such_message'"


def test_a_filled_message_is_verbatim(v13):
    assert v13.message(
        "mode_mismatch", component="engine", runtime_mode="MultiNode", isvc_mode="OMENative"
    ) == (
        "runtime engine deployment mode MultiNode does not match "
        "requested engine deployment mode OMENative"
    )
