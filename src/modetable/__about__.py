"""modetable's version, in one place: the package's face re-exports it, hatch
reads it for the build, and modules that print or record it import it from
here (never from the package root, which sits above them)."""

# A dunder, public by convention (as `__all__` lists no `_` name).
__all__: list[str] = []

__version__ = "1.0.0"
