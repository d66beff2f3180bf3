"""Docs generated from the rules: regions of Markdown pages rewritten in place.

`regions` finds the generated regions of a page and splices new content into
them; `markdown` makes tables and cells that stay valid Markdown; `tables`
names every region and its renderer (`matching_tables`, `source_tables`,
`selection_tables`, sharing `common`), each rendering from a `Policy`; `pages`
runs that over a folder, diffs and writes.
"""

__all__: list[str] = []

__all__: list[str] = []
