"""modetable: OME's runtime deployment-mode rules as versioned data."""

__version__ = "0.1.0"
