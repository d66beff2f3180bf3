"""Docs generated from the rules: regions of Markdown pages rewritten in place.

`regions` finds the generated regions of a page and splices new content into
them, `markdown` makes tables and cells that stay valid Markdown, `tables`
renders each region from a `Policy`, and `pages` runs that over a folder.
"""
