"""A model and a runtime's supportedModelFormats entries: what each holds,
whether an entry matches, and every difference as the reason spells it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from modetable.errors import ErrorCode, Location, ModetableError
from modetable.inputs.manifests import Manifest
from modetable.parsing.paths import split, value_location
from modetable.parsing.yamlio import where as where_in
from modetable.rules.model import Selection, SpecFields
from modetable.rules.policy import Policy
from modetable.selection import model_versions
from modetable.selection.fields import read
from modetable.selection.rules import selection_rules

__all__ = [
    "DIFFERENCES",
    "LABEL_PARTS",
    "Entry",
    "ModelFacts",
    "Spec",
    "differences",
    "entries_of",
    "label",
    "model_facts",
    "sides_match",
]


@attrs.frozen
class Spec:
    """A modelFormat or a modelFramework. An empty version still counts as set."""

    name: str
    version: str | None = None
    operator: str | None = None
    weight: int | None = None


@attrs.frozen
class ModelFacts:
    """What selection reads from a model (BaseModel or ClusterBaseModel)."""

    manifest: Manifest | None
    format: Spec
    framework: Spec | None
    architecture: str | None
    quantization: str | None
    pipeline: dict[str, Any] | None
    size: str | None
    disabled: bool
    distribution: str | None = None

    @property
    def format_name(self) -> str:
        return self.format.name


@attrs.frozen
class Entry:
    """One supportedModelFormats entry."""

    index: int
    format: Spec
    framework: Spec
    architecture: str | None
    quantization: str | None
    pipeline: dict[str, Any] | None
    auto_select: bool | None
    priority: int | None


def _spec(
    node: Any, path: str, fields: SpecFields, where: Location, *, entry: bool, prefix: str = ""
) -> Spec | None:
    value = read(node, path, dict, where, prefix)
    if value is None:
        return None
    here = value_location(node, split(path), where) or where
    inner = f"{prefix}{path}."
    name = read(value, fields.name, str, here, inner)
    if name is None:
        if entry:
            raise ModetableError(f"{inner}{fields.name} is required", here)
        name = ""
    return Spec(
        name=name,
        version=read(value, fields.version, str, here, inner),
        operator=read(value, fields.operator, str, here, inner),
        weight=read(value, fields.weight, int, here, inner),
    )


def _pipeline(
    selection: Selection, node: Any, path: str, where: Location, prefix: str = ""
) -> dict[str, Any] | None:
    """A diffusionPipeline, its fields checked for type (it is compared field by field)."""
    pipeline = read(node, path, dict, where, prefix)
    if pipeline is None:
        return None
    rule = selection.formats.pipeline
    here = value_location(node, split(path), where) or where
    inner = f"{prefix}{path}."
    read(pipeline, rule.class_name, str, here, inner)
    components = [(name, inner) for name in rule.components]
    additional = read(pipeline, rule.additional, dict, here, inner) or {}
    components += [(name, f"{inner}{rule.additional}.") for name in additional]
    for name, owner in components:
        holder = additional if owner != inner else pipeline
        component = read(holder, name, dict, here, owner)
        for field in rule.component_fields if component is not None else ():
            read(component, field, str, here, f"{owner}{name}.")
    return pipeline


def model_facts(selection: Selection, model: Manifest) -> ModelFacts:
    fields, where = selection.model, model.location
    body = model.body
    return ModelFacts(
        manifest=model,
        # OME's model always has a format; an unset one has an empty name.
        format=_spec(body, fields.format, selection.spec_fields, where, entry=False)
        or Spec(name=""),
        framework=_spec(body, fields.framework, selection.spec_fields, where, entry=False),
        architecture=read(body, fields.architecture, str, where),
        quantization=read(body, fields.quantization, str, where),
        pipeline=_pipeline(selection, body, fields.pipeline, where),
        size=read(body, fields.size, str, where),
        disabled=bool(read(body, fields.disabled, bool, where)),
        distribution=read(body, fields.distribution, str, where) if fields.distribution else None,
    )


def entries_of(
    selection: Selection, spec_holder: dict[str, Any], where: Location
) -> tuple[Entry, ...]:
    """The runtime's entries; `spec_holder` is `{"spec": <the spec read>}`."""
    fields = selection.entry
    path = selection.runtime.entries
    items = read(spec_holder, path, list, where) or []
    list_where = value_location(spec_holder, split(path), where) or where
    entries = []
    for index, item in enumerate(items):
        here = where_in(items, index, list_where)
        prefix = f"{path}[{index}]."
        if not isinstance(item, dict):
            raise ModetableError(
                f"{path}[{index}] must be a mapping", here, code=ErrorCode.WRONG_TYPE
            )
        sides = {}
        for side in (fields.format, fields.framework):
            sides[side] = _spec(item, side, selection.spec_fields, here, entry=True, prefix=prefix)
            if sides[side] is None:
                raise ModetableError(
                    f"{prefix}{side} is required (the API server refuses an entry without it)",
                    here,
                )
        format_spec, framework = sides[fields.format], sides[fields.framework]
        assert format_spec is not None and framework is not None
        entries.append(
            Entry(
                index=index,
                format=format_spec,
                framework=framework,
                architecture=read(item, fields.architecture, str, here, prefix),
                quantization=read(item, fields.quantization, str, here, prefix),
                pipeline=_pipeline(selection, item, fields.pipeline, here, prefix),
                auto_select=read(item, fields.auto_select, bool, here, prefix),
                priority=read(item, fields.priority, int, here, prefix),
            )
        )
    return tuple(entries)


# The parts a format label may name (rules.model.LabelPart), each read off the model.
LABEL_PARTS: dict[str, Callable[[ModelFacts], str | None]] = {
    "format_name": lambda model: model.format_name,
    "format_version": lambda model: model.format.version,
    "architecture": lambda model: model.architecture,
    "quantization": lambda model: model.quantization,
    "framework_name": lambda model: model.framework.name if model.framework else None,
    "framework_version": lambda model: model.framework.version if model.framework else None,
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


# The differences the rules may list (rules.model.Difference), each with how an
# entry and a model are compared on it: the reason's text, or None when alike.
DIFFERENCES: dict[str, Callable[[Policy, Entry, ModelFacts], str | None]] = {
    "pipeline": lambda policy, entry, model: _pipeline_difference(
        policy, entry.pipeline, model.pipeline
    ),
    "architecture": lambda policy, entry, model: _attribute_difference(
        policy, "architecture", entry.architecture, model.architecture
    ),
    "quantization": lambda policy, entry, model: _attribute_difference(
        policy, "quantization", entry.quantization, model.quantization
    ),
    "format": lambda policy, entry, model: _side_difference(
        policy, "format", entry.format, model.format
    ),
    "framework": lambda policy, entry, model: _side_difference(
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
