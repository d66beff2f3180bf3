"""A runtime's supportedModelFormats entries against a model: whether an entry
matches, every difference as the reason spells it, and the `mt:` label (the
entries and the model are read, typed, in inputs/formats.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from modetable.inputs.formats import Entry, ModelFacts, Spec
from modetable.rules.policy import Policy
from modetable.rules.words import Difference, LabelPart
from modetable.selection import model_versions
from modetable.selection.rules import selection_rules

__all__ = [
    "DIFFERENCES",
    "LABEL_PARTS",
    "comparisons",
    "differences",
    "label",
    "sides_match",
]


# The parts a format label may name, each read off the model.
LABEL_PARTS: dict[LabelPart, Callable[[ModelFacts], str | None]] = {
    LabelPart.FORMAT_NAME: lambda model: model.format_name,
    LabelPart.FORMAT_VERSION: lambda model: model.format.version,
    LabelPart.ARCHITECTURE: lambda model: model.architecture,
    LabelPart.QUANTIZATION: lambda model: model.quantization,
    LabelPart.FRAMEWORK_NAME: lambda model: model.framework.name if model.framework else None,
    LabelPart.FRAMEWORK_VERSION: (
        lambda model: model.framework.version if model.framework else None
    ),
}


def label(policy: Policy, model: ModelFacts) -> str:
    """`mt:safetensors:1.0.0:Qwen2ForCausalLM:transformers:4.40.1`; unset parts left out."""
    rule = selection_rules(policy).formats.label
    parts = [LABEL_PARTS[part](model) for part in rule.parts]
    return rule.prefix + rule.separator.join(p for p in parts if p is not None)


# --- one side (format or framework): names, then versions -------------------


def _side_difference(policy: Policy, side: str, entry: Spec, model: Spec | None) -> str | None:
    """Why the entry's format (or framework) does not match the model's, or None."""
    word = selection_rules(policy).formats.sides[side]
    if model is None:
        return policy.message("side_missing", side=word, runtime=entry.name)
    if entry.name != model.name:
        return policy.message("name_mismatch", side=word, model=model.name, runtime=entry.name)
    if entry.version is not None and model.version is not None:
        versions = selection_rules(policy).versions
        if model_versions.accepts(entry.version, model.version, entry.operator, versions):
            return None
        return policy.message(
            "version_mismatch", side=word, model=model.version, runtime=entry.version
        )
    if entry.version is not None:
        return policy.message("version_missing", side=word, runtime=entry.version)
    if model.version is not None:
        return policy.message("version_unrequired", side=word)
    return None


def _side_comparison(policy: Policy, entry: Spec, model: Spec | None) -> str | None:
    """The comparison an ordering operator made when it refused the model's
    version (`4.33.1 >= 4.46.0 is false: ...`), in modetable's words; else None."""
    if model is None or entry.name != model.name:
        return None
    if entry.version is None or model.version is None:
        return None
    versions = selection_rules(policy).versions
    symbol = model_versions.refused_by_order(entry.version, model.version, entry.operator, versions)
    if symbol is None:
        return None
    return policy.message(
        "version_comparison", runtime=entry.version, symbol=symbol, model=model.version
    )


def comparisons(policy: Policy, entry: Entry, model: ModelFacts) -> list[str]:
    """The comparisons ordering operators refused, format first then framework,
    to say beside OME's `version mismatch` texts."""
    found = (
        _side_comparison(policy, entry.format, model.format),
        _side_comparison(policy, entry.framework, model.framework),
    )
    return [text for text in found if text is not None]


def sides_match(policy: Policy, entry: Entry, model: ModelFacts) -> bool:
    """Format and framework agree, names and versions (what the score counts)."""
    return (
        _side_difference(policy, "format", entry.format, model.format) is None
        and _side_difference(policy, "framework", entry.framework, model.framework) is None
    )


def _attribute_difference(
    policy: Policy, attribute: str, entry: str | None, model: str | None
) -> str | None:
    """Architecture or quantization: a value on one side only is a mismatch."""
    word = selection_rules(policy).formats.attributes[attribute]
    if entry is None and model is None:
        return None
    if entry is None:
        return policy.message("attribute_unrequired", attribute=word, model=model)
    if model is None:
        return policy.message("attribute_missing", attribute=word, runtime=entry)
    if entry != model:
        return policy.message("attribute_mismatch", attribute=word, model=model, runtime=entry)
    return None


# --- the diffusion pipeline: only its first mismatch ----------------------


def _pipeline_difference(
    policy: Policy, entry: dict[str, Any] | None, model: dict[str, Any] | None
) -> str | None:
    rule = selection_rules(policy).formats.pipeline
    if entry is None:
        return None
    if model is None:
        return policy.message("pipeline_missing")
    wanted = entry.get(rule.class_name)
    if wanted is not None and model.get(rule.class_name) != wanted:
        have = model.get(rule.class_name)
        return policy.message(
            "pipeline_class_mismatch", model=rule.absent if have is None else have, runtime=wanted
        )
    for component in rule.components:
        found = _component_difference(policy, component, entry.get(component), model.get(component))
        if found:
            return found
    required = entry.get(rule.additional) or {}
    if required:
        present = model.get(rule.additional) or {}
        if not present:
            return policy.message("pipeline_additional_missing")
        for key in sorted(required):
            if key not in present:
                return policy.message("pipeline_additional_component_missing", component=key)
            found = _component_difference(policy, key, required[key], present[key])
            if found:
                return found
    return None


def _component_difference(policy: Policy, name: str, entry: Any, model: Any) -> str | None:
    rule = selection_rules(policy).formats.pipeline
    if entry is None:
        return None
    if model is None:
        return policy.message("pipeline_component_missing", component=name)
    for field in rule.component_fields:
        wanted = _text(entry, field)
        have = _text(model, field)
        if wanted and wanted != have:
            return policy.message(
                "pipeline_field_mismatch", component=name, field=field, model=have, runtime=wanted
            )
    return None


def _text(node: dict[str, Any], key: str) -> str:
    value = node.get(key)
    return "" if value is None else value


# --- a whole entry --------------------------------------------------------


# The differences the rules may list, each with how an entry and a model are
# compared on it: the reason's text, or None when alike.
DIFFERENCES: dict[Difference, Callable[[Policy, Entry, ModelFacts], str | None]] = {
    Difference.PIPELINE: lambda policy, entry, model: _pipeline_difference(
        policy, entry.pipeline, model.pipeline
    ),
    Difference.ARCHITECTURE: lambda policy, entry, model: _attribute_difference(
        policy, "architecture", entry.architecture, model.architecture
    ),
    Difference.QUANTIZATION: lambda policy, entry, model: _attribute_difference(
        policy, "quantization", entry.quantization, model.quantization
    ),
    Difference.FORMAT: lambda policy, entry, model: _side_difference(
        policy, "format", entry.format, model.format
    ),
    Difference.FRAMEWORK: lambda policy, entry, model: _side_difference(
        policy, "framework", entry.framework, model.framework
    ),
}


def differences(policy: Policy, entry: Entry, model: ModelFacts) -> list[str]:
    """Every way `entry` differs from `model`, in the rules' order."""
    found = (
        DIFFERENCES[difference](policy, entry, model)
        for difference in selection_rules(policy).formats.differences
    )
    return [text for text in found if text is not None]
