"""A view's document (dicts, lists, scalars) made by walking its fields, without
cattrs: what `views.converter.unstructure` gives, for the commands about one
InferenceService (`select`, `match`, `effective`, `admit` with `-o json` or
`-o yaml`), whose cold start cannot spare cattrs' import and the functions it
generates and compiles per view class (docs/performance.md).

The converter stays the one definition of a document: this walk follows its
metadata the same way (a field's `key`, `omit_if_none` after the document is
made, `flatten` spliced in place), and `tests/test_views_document.py` holds
the two to the same JSON and YAML over the catalog's answers. Tuples and lists
become lists, mappings plain dicts; any other value is kept as it is.
"""

from __future__ import annotations

import functools
from typing import Any

import attrs

__all__ = ["document"]


def document(value: Any) -> Any:
    """The document a view (or a tuple, list or dict of them, or a scalar) is."""
    plan = _plan(type(value))
    if plan is not None:
        fields, omitted = plan
        whole: dict[Any, Any] = {}
        for name, key, flatten in fields:
            inner = document(getattr(value, name))
            if flatten:
                whole.update(inner)
            else:
                whole[key] = inner
        for key in omitted:
            if whole[key] is None:
                del whole[key]
        return whole
    if isinstance(value, (tuple, list)):
        return [document(item) for item in value]
    if isinstance(value, dict):
        return {document(k): document(v) for k, v in value.items()}
    return value


# A view class's fields as its document holds them, (name, key, flattened) in
# order, and the keys left out when None.
_Plan = tuple[tuple[tuple[str, str, bool], ...], tuple[str, ...]]


@functools.cache
def _plan(cls: type) -> _Plan | None:
    if not attrs.has(cls):
        return None
    fields = attrs.fields(cls)
    keyed = tuple(
        (f.name, f.metadata.get("key", f.name), bool(f.metadata.get("flatten"))) for f in fields
    )
    omitted = tuple(f.metadata.get("key", f.name) for f in fields if f.metadata.get("omit_if_none"))
    return keyed, omitted
