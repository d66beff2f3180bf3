"""modetable: OME's runtime deployment-mode rules as versioned data."""

__all__: list[str] = []

__all__: list[str] = []

__version__ = "0.1.0"
