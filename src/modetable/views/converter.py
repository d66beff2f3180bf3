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
from typing import Any

import attrs
import cattrs
from cattrs.gen import make_dict_unstructure_fn, override

__all__ = ["unstructure"]


def unstructure(view: Any) -> Any:
    """The document a view (or a tuple or dict of views) is."""
    return _converter().unstructure(view)


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
    return converter
