"""The results as values: every command's answer as a frozen class, the one
place its JSON is shaped.

A view holds exactly what the command's JSON shows, field by field in the
document's order (docs/json.md is the contract; `tests/test_docs_json.py`
holds the two together). The table, the pages, the CI formats, the command
line and the Python API read a view's attributes; `views.converter` (cattrs,
imported only when a document is written) makes its JSON and YAML.

- `common`: what several answers share (the rules read, a runtime, an object
  to fix, a mode and its sources, the admission verdict, a candidate);
- `select`, `match`, `effective`, `admit`, `explain`: each command's answer;
- `audit`, `findings`, `upgrade`: the audit's and the upgrade's;
- `rules`: `rules check`'s and `rules diff`'s;
- `converter`: the one converter, `unstructure(view)` and `structure`.
"""

__all__: list[str] = []
