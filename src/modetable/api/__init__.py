"""The Python API's implementation; `import modetable` is its surface.

`modetable/__init__.py` re-exports the public names from here, each imported
when first used. What these modules hold beyond those names is internal.
"""

__all__: list[str] = []
