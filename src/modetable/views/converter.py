"""The one converter from views to JSON documents (dicts, lists, scalars),
which `-o json`, `-o yaml` and the Python API's `to_json()` write.

cattrs is imported here alone, and this module only when a document is made:
a table never pays for it. A view's fields are its document's keys, in order;
a field whose metadata says `omit_if_none` is left out when None (`note` of a
check that ran); `flatten`, a field whose document's keys stand in its place
(an audit item: the InferenceService's identity, then its outcome's keys); a
field's metadata `key` renames it (a key that is a Python word: `from`).
Tuples become lists, as JSON and YAML write them.
"""

from __future__ import annotations

import functools
import typing
from typing import Any

import attrs
import cattrs
from cattrs.gen import make_dict_unstructure_fn, override

__all__ = ["structure", "unstructure"]


def unstructure(view: Any) -> Any:
    """The document a view (or a tuple or dict of views) is."""
    return _converter().unstructure(view)


def structure(document: Any, view: type) -> Any:
    """The view a document is (`unstructure`'s inverse): a page drawn from a
    JSON document read back, as from the command's own view."""
    return _converter().structure(document, view)


def _keys_of(cls: type) -> set[str]:
    """The keys a view's document holds by field (a flattened view's included)."""
    keys = set()
    for field in attrs.fields(cls):
        if field.metadata.get("flatten"):
            inner = typing.get_type_hints(cls)[field.name]
            keys |= _keys_of(inner) if attrs.has(inner) else set()
        else:
            keys.add(field.metadata.get("key", field.name))
    return keys


@functools.cache
def _converter() -> cattrs.Converter:
    converter = cattrs.Converter(unstruct_collection_overrides={tuple: list})

    def document(cls: type) -> Any:
        fields = attrs.fields(cls)
        renamed = {
            f.name: override(rename=f.metadata["key"]) for f in fields if "key" in f.metadata
        }
        whole = make_dict_unstructure_fn(cls, converter, **renamed)
        keys = {f.name: f.metadata.get("key", f.name) for f in fields}
        omitted = [keys[f.name] for f in fields if f.metadata.get("omit_if_none")]
        spliced = {keys[f.name] for f in fields if f.metadata.get("flatten")}
        if not omitted and not spliced:
            return whole

        # Left out and spliced after the fact, not by cattrs' omit_if_default,
        # which would move the keys it may omit to the end of the document.
        def shaped(view: Any) -> dict[str, Any]:
            document = whole(view)
            if spliced:
                flat: dict[str, Any] = {}
                for key, value in document.items():
                    if key in spliced:
                        flat.update(value)
                    else:
                        flat[key] = value
                document = flat
            for key in omitted:
                if document[key] is None:
                    del document[key]
            return document

        return shaped

    converter.register_unstructure_hook_factory(attrs.has, document)

    def view(cls: type) -> Any:
        types = typing.get_type_hints(cls)
        fields = attrs.fields(cls)
        known = _keys_of(cls)

        def read(document: dict[str, Any], _: Any) -> Any:
            values = {}
            for field in fields:
                kind = types[field.name]
                if field.metadata.get("flatten"):
                    spliced = attrs.has(kind)
                    value = (
                        document
                        if spliced
                        else {k: v for k, v in document.items() if k not in known}
                    )
                else:
                    value = document.get(field.metadata.get("key", field.name))
                values[field.name] = converter.structure(value, kind)
            return cls(**values)

        return read

    converter.register_structure_hook_factory(attrs.has, view)
    return converter
