"""The one converter from views to JSON documents (dicts, lists, scalars),
which `-o json`, `-o yaml` and the Python API's `to_json()` write.

cattrs is imported here alone, and this module only when a document is made:
a table never pays for it. A view's fields are its document's keys, in order;
a field whose metadata says `omit_if_none` is left out when None (`note` of a
check that ran); a field's metadata `key` renames it (a key that is a Python
word). Tuples become lists, as JSON and YAML write them.
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
        omitted = [f.metadata.get("key", f.name) for f in fields if f.metadata.get("omit_if_none")]
        if not omitted:
            return whole

        # Left out after the fact, not by cattrs' omit_if_default, which would
        # move the keys it may omit to the end of the document.
        def some(view: Any) -> dict[str, Any]:
            document = whole(view)
            for key in omitted:
                if document[key] is None:
                    del document[key]
            return document

        return some

    converter.register_unstructure_hook_factory(attrs.has, document)
    return converter
