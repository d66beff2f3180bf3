"""What waits for OME's model agent (the rules' `selection.model_agent`): the
fields a model still lacks that the agent fills in once it has read the model's
config, and the selection checks that read them, which are pending (neither
passed nor failed) until then.

A model waits while it lacks a field the agent always fills in, has no state
after which the agent is done (Ready, Failed), and does not ask the agent to
skip it. Everything else about it is decided as usual.
"""

from __future__ import annotations

from collections.abc import Callable

from modetable.inputs.fields import read
from modetable.inputs.formats import ModelFacts
from modetable.inputs.manifests import Manifest
from modetable.parsing.paths import split
from modetable.rules.model.selection import AgentWait, SelectionCheck
from modetable.rules.policy import Policy
from modetable.rules.words import ModelField
from modetable.selection.rules import selection_rules
from modetable.settled import frozen

__all__ = [
    "MISSING",
    "PendingModel",
    "field_names",
    "model_agent",
    "settled_hint",
    "waiting_fields",
    "waits_on",
]


@frozen
class PendingModel:
    """A model OME's model agent has yet to fill in, as an outcome shows it:
    the fields it lacks (as the model writes them), what OME answers until
    they are filled in (its webhook's denial or warnings; None: nothing), and
    the runtimes that could be picked then."""

    model: Manifest
    fields: tuple[str, ...]
    answer: str | None
    # No runtime named: the runtimes that pass every check decided now, one
    # of which is picked once the model is filled in.
    runtimes: tuple[str, ...] = ()


# Whether a model's facts lack each field the agent fills in (OME fills the
# format in only when its name is empty, the others when they are unset).
MISSING: dict[ModelField, Callable[[ModelFacts], bool]] = {
    ModelField.FORMAT: lambda facts: not facts.format.name,
    ModelField.FRAMEWORK: lambda facts: facts.framework is None,
    ModelField.ARCHITECTURE: lambda facts: facts.architecture is None,
    ModelField.QUANTIZATION: lambda facts: facts.quantization is None,
    ModelField.SIZE: lambda facts: facts.size is None,
}


def model_agent(policy: Policy) -> AgentWait | None:
    """The rules' model agent in the policy, or None (nothing ever waits)."""
    return selection_rules(policy).model_agent


def waiting_fields(policy: Policy, facts: ModelFacts) -> tuple[ModelField, ...]:
    """The fields the model agent always fills in that `facts` lacks, when the
    model still waits for it; () when it does not (none missing, a state the
    agent is done at, or the agent told to skip it)."""
    agent = model_agent(policy)
    model = facts.manifest
    if agent is None or model is None:
        return ()
    missing = _missing(agent, facts)
    if not missing or _state(agent, model) in agent.done or _skipped(agent, model):
        return ()
    return missing


def settled_hint(policy: Policy, facts: ModelFacts) -> str | None:
    """What to do about a model that lacks a field the agent fills in and will
    not get it: the agent is done with it (Failed: its state quoted) or skips
    it. None when nothing is missing, or the model still waits."""
    agent = model_agent(policy)
    model = facts.manifest
    if agent is None or model is None:
        return None
    missing = _missing(agent, facts)
    if not missing:
        return None
    fields = ", ".join(field_names(policy, missing))
    state = _state(agent, model)
    if state in agent.failed:
        return policy.message(agent.failed_hint, state=state, fields=fields)
    if state in agent.done:
        return policy.message(agent.done_hint, state=state, fields=fields)
    if _skipped(agent, model):
        return policy.message(agent.skipped_hint, fields=fields)
    return None


def _missing(agent: AgentWait, facts: ModelFacts) -> tuple[str, ...]:
    """The fields the agent always fills in that `facts` lacks (an optional
    one, filled in only when the model's config has it, is read as it is)."""
    return tuple(f.field for f in agent.fields if not f.optional and MISSING[f.field](facts))


def _state(agent: AgentWait, model: Manifest) -> str | None:
    return read(model.body, agent.state, str, model.location)


def _skipped(agent: AgentWait, model: Manifest) -> bool:
    skip = read(model.body, agent.skip_annotation, str, model.location)
    return skip is not None and skip.lower() == agent.skip_value


def waits_on(policy: Policy, check: SelectionCheck, waiting: tuple[str, ...]) -> list[str]:
    """The missing fields `check` reads (as the model writes them): the check
    is pending while any is missing."""
    agent = model_agent(policy)
    if agent is None or not waiting:
        return []
    read_by = [f.field for f in agent.fields if f.field in waiting and check.id in f.checks]
    return field_names(policy, tuple(read_by))


def field_names(policy: Policy, fields: tuple[str, ...]) -> list[str]:
    """The fields as a model writes them (the last part of `selection.model`'s paths)."""
    paths = selection_rules(policy).model
    return [split(getattr(paths, str(field)))[-1] for field in fields]
