"""Each set of words the rules may use is given its meaning once, in the engine,
and the rules' model allows exactly those words: a word the data allows and the
engine lacks would be an internal error halfway through an answer."""

from __future__ import annotations

import re
import typing

from conftest import EXAMPLES, ROOT

from modetable.engine.matching import CONDITIONS
from modetable.engine.modes import Verdict
from modetable.engine.runtimes import runtime_request
from modetable.errors import ErrorCode
from modetable.inputs.manifests import read_cluster
from modetable.rules.model import (
    CONDITION_WORDS,
    EXPLANATION_PARAMS,
    WHEN_RECORDED,
    ConditionWord,
    Difference,
    EffectWhen,
    LabelPart,
    RankKey,
    SelectionStep,
)
from modetable.selection.checks import STEPS, Step
from modetable.selection.formats import DIFFERENCES, LABEL_PARTS
from modetable.selection.outcome import when_conditions
from modetable.selection.scoring import RANK_KEYS


def _words(literal: object) -> set[str]:
    return set(typing.get_args(literal))


def test_condition_words_are_the_predicates_of_the_matching_table():
    assert _words(ConditionWord) == set(CONDITIONS) == set(CONDITION_WORDS)


def test_selection_steps_are_the_checks_functions():
    assert _words(SelectionStep) == set(STEPS) == set(Step)


def test_ranking_keys_are_the_scorings_keys():
    assert _words(RankKey) == set(RANK_KEYS)


def test_differences_and_label_parts_are_the_formats_tables():
    assert _words(Difference) == set(DIFFERENCES)
    assert _words(LabelPart) == set(LABEL_PARTS)


def test_effect_conditions_are_the_facts_an_outcome_computes(v13):
    cluster = read_cluster([str(EXAMPLES)], v13.rules.manifests)
    isvc = cluster.isvcs[0]
    facts = when_conditions(v13, isvc, runtime_request(v13, isvc), has_model=True)
    # and the one each effect decides by its own condition (recorded or not)
    assert _words(EffectWhen) == {*facts, WHEN_RECORDED}


def test_every_verdict_has_its_explanation():
    assert {str(v) for v in Verdict} <= set(EXPLANATION_PARAMS)
    assert set(EXPLANATION_PARAMS) - {str(v) for v in Verdict} == {"chain_broken"}


def test_the_error_codes_are_the_ones_limits_md_lists():
    page = (ROOT / "docs" / "limits.md").read_text()
    section = page.split("## Error codes", 1)[1]
    listed = set(re.findall(r"^\| `([a-z-]+)` \|", section, re.MULTILINE))
    assert listed == {str(code) for code in ErrorCode}
