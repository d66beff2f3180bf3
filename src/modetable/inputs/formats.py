"""A model's and a runtime's format facts read typed and located: the model's
format, framework and attributes (`model_facts`), and a runtime's
supportedModelFormats entries (`entries_of`), every field of the type OME's
API gives it (bad input otherwise). Selection compares them; the loader and
the ServingRuntime webhook read them too."""

from __future__ import annotations

from typing import Any

from modetable.errors import ErrorCode, Location, ModetableError
from modetable.inputs.fields import read
from modetable.inputs.manifests import Manifest
from modetable.parsing.paths import split, value_location
from modetable.parsing.yamlio import where as where_in
from modetable.rules.model.selection import Selection, SpecFields
from modetable.settled import frozen

__all__ = ["Entry", "ModelFacts", "Spec", "entries_of", "model_facts"]


@frozen
class Spec:
    """A modelFormat or a modelFramework. An empty version still counts as set."""

    name: str
    version: str | None = None
    operator: str | None = None
    weight: int | None = None


@frozen
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
    # The fields OME's model agent has yet to fill in (selection/pending.py):
    # the checks that read them are pending. Empty: every check is decided.
    waiting: tuple[str, ...] = ()

    @property
    def format_name(self) -> str:
        return self.format.name


@frozen
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
