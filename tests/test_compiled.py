"""The compiled matching table agrees with the interpreting one (matching.decide)."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modetable.engine.compiled import Decision, compile_matching
from modetable.engine.matching import decide, match_component
from modetable.engine.modes import Resolution
from modetable.errors import ModetableError
from modetable.rules.model.matching import Row
from modetable.rules.policy import Policy

# A value no version knows as a mode: resolution never gives it, so the compiled
# table hands it to the interpreter.
NOT_A_MODE = "multinode"


def _outcome(function, *args):
    """What a call gives: its result, or ("error", message)."""
    try:
        return function(*args)
    except ModetableError as exc:
        return ("error", str(exc))


def _resolution(purpose: str, component: str, mode: str | None) -> Resolution:
    return Resolution(
        purpose=purpose,
        component=component,
        mode=mode,
        source_label=None,
        source_id=None,
        readings=(),
    )


def _inputs(policy: Policy) -> list[str | None]:
    return [None, *policy.all_modes, NOT_A_MODE]


def _assert_agrees(policy: Policy) -> int:
    """Every combination, every component: the compiled and the interpreted answer agree."""
    compiled = compile_matching(policy)
    checked = 0
    for requested in _inputs(policy):
        for declared in _inputs(policy):
            assert _outcome(compiled.decide, requested, declared) == _outcome(
                decide, policy, requested, declared
            ), (requested, declared)
            for component in policy.components:
                interpreted = _outcome(
                    match_component,
                    policy,
                    component,
                    _resolution("requested", component.name, requested),
                    _resolution("declared", component.name, declared),
                )
                if isinstance(interpreted, tuple):
                    expected: object = interpreted
                else:
                    expected = Decision(
                        row=interpreted.row, outcome=interpreted.outcome, reason=interpreted.reason
                    )
                got = _outcome(compiled.decision, component.name, requested, declared)
                assert got == expected, (component.name, requested, declared)
                checked += 1
    return checked


def test_compiled_agrees_with_the_interpreter_on_every_combination_of_every_version(ruleset):
    for version in ruleset.versions:
        policy = ruleset.at(version)
        modes = len(policy.all_modes) + 2
        assert _assert_agrees(policy) == modes * modes * len(policy.components)


def test_the_pages_examples_decide_by_their_rows_when_compiled(ruleset):
    for version in ruleset.versions:
        compiled = compile_matching(ruleset.at(version))
        for example in ruleset.rules.matching.examples:
            requested = None if example.requested == "none" else example.requested
            declared = None if example.declared == "none" else example.declared
            decision = compiled.decision("engine", requested, declared)
            assert (decision.row, decision.outcome) == (example.row, example.outcome)


def test_a_rejection_carries_the_pages_reason(v13):
    assert compile_matching(v13).decision("decoder", "OMENative", "MultiNode") == Decision(
        row="different-mode",
        outcome="reject",
        reason=(
            "runtime decoder deployment mode MultiNode does not match "
            "requested decoder deployment mode OMENative"
        ),
    )


def test_passing_declared_modes_for_a_request(v13):
    assert compile_matching(v13).passing_declared("engine", "OMENative") == frozenset(
        {None, "OMENative"}
    )
    assert compile_matching(v13).passing_declared("engine", None) == frozenset(
        {None, *v13.all_modes}
    )


# --- Any table a policy author might write, not only the bundled one -----------

MODES = ("RawDeployment", "OMENative", "MultiNode")
WORDS = ("-", "none", "mode", "same", "different", "RawDeployment")
VERSIONS = (None, "v1.2.2", "v1.3")

conditions = st.one_of(
    st.sampled_from(WORDS),
    st.lists(st.sampled_from(MODES), min_size=1, max_size=3, unique=True).map(tuple),
)


@st.composite
def tables(draw):
    count = draw(st.integers(min_value=0, max_value=5))
    rows = []
    for index in range(count):
        outcome = draw(st.sampled_from(("pass", "reject")))
        rows.append(
            Row(
                id=f"row-{index}",
                requested=draw(conditions),
                declared=draw(conditions),
                outcome=outcome,
                message="mode_mismatch" if outcome == "reject" else None,
                since=draw(st.sampled_from(VERSIONS)),
                until=draw(st.sampled_from((None, "v1.3"))),
            )
        )
    hit_policy = draw(st.sampled_from(("UNIQUE", "FIRST", "ANY")))
    return tuple(rows), hit_policy


@settings(max_examples=60, deadline=None)
@given(table=tables(), version=st.sampled_from(("v1.2.2", "v1.3")))
def test_compiled_agrees_on_any_table(ruleset, table, version):
    rows, hit_policy = table
    matching = attrs.evolve(ruleset.rules.matching, rows=rows, hit_policy=hit_policy)
    rules = attrs.evolve(ruleset.rules, matching=matching)
    _assert_agrees(Policy(version=version, rules=rules, file=ruleset.file))


def test_a_combination_the_table_refuses_raises_the_interpreters_error(ruleset):
    rows = (Row(id="only-none", requested="none", declared="-", outcome="pass"),)
    rules = attrs.evolve(ruleset.rules, matching=attrs.evolve(ruleset.rules.matching, rows=rows))
    policy = Policy(version="v1.3", rules=rules, file=ruleset.file)
    with pytest.raises(ModetableError) as caught:
        compile_matching(policy).decide("OMENative", None)
    assert str(caught.value) == (
        "the matching table has no row for requested=OMENative, declared=none (v1.3)"
    )
    assert compile_matching(policy).passing_declared("engine", "OMENative") == frozenset()
