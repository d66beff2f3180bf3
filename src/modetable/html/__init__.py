"""Pages for people who would rather look than read: the audit as one
self-contained HTML file, the matching table as a matrix (`matrix`), and
`rules diff` with its changed cells marked. Every page is a pure function of
data modetable already gives (the audit's JSON, a policy's decisions)."""

__all__: list[str] = []
