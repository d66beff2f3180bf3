"""Each set of words the rules may use is defined once (rules/words.py), and the
engine's table that gives the words their meaning covers every word: a word the
data allows and the engine lacks would be an internal error halfway through an
answer."""

from __future__ import annotations

import re

from conftest import EXAMPLES, ROOT

from modetable.engine.matching import CONDITIONS
from modetable.engine.modes import Verdict
from modetable.engine.runtimes import runtime_request
from modetable.errors import ErrorCode
from modetable.inputs.sources import read_cluster
from modetable.reports.sarif import LEVELS
from modetable.rules.model.sources import EXPLANATION_PARAMS
from modetable.rules.words import (
    ConditionWord,
    Difference,
    EffectWhen,
    LabelPart,
    RankKey,
    SelectionStep,
    Severity,
)
from modetable.selection.checks import STEPS
from modetable.selection.formats import DIFFERENCES, LABEL_PARTS
from modetable.selection.outcome import when_conditions
from modetable.selection.scoring import RANK_KEYS


def test_every_condition_word_has_its_predicate():
    assert set(CONDITIONS) == set(ConditionWord)


def test_every_selection_step_has_its_function():
    assert set(STEPS) == set(SelectionStep)


def test_every_ranking_key_has_its_sort_key():
    assert set(RANK_KEYS) == set(RankKey)


def test_every_difference_and_label_part_has_its_reading():
    assert set(DIFFERENCES) == set(Difference)
    assert set(LABEL_PARTS) == set(LabelPart)


def test_every_effect_condition_is_a_fact_an_outcome_computes(v13):
    cluster = read_cluster([str(EXAMPLES)], v13.rules.manifests)
    isvc = cluster.isvcs[0]
    facts = when_conditions(v13, isvc, runtime_request(v13, isvc), has_model=True)
    # and the one each effect decides by its own condition (recorded or not)
    assert {*facts, EffectWhen.RECORDED} == set(EffectWhen)


def test_every_severity_has_its_sarif_level():
    assert set(LEVELS) == set(Severity)


def test_every_verdict_has_its_explanation():
    assert {str(v) for v in Verdict} <= set(EXPLANATION_PARAMS)
    assert set(EXPLANATION_PARAMS) - {str(v) for v in Verdict} == {"chain_broken"}


def test_the_error_codes_are_the_ones_limits_md_lists():
    page = (ROOT / "docs" / "limits.md").read_text()
    section = page.split("## Error codes", 1)[1]
    listed = set(re.findall(r"^\| `([a-z-]+)` \|", section, re.MULTILINE))
    assert listed == {str(code) for code in ErrorCode}
