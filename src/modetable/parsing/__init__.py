"""Trees read with their positions: YAML (`yamlio`, the loader and its
limits), JSON read to the same trees (`jsonio`), and paths into them and where
a path's value is written (`paths`)."""

__all__: list[str] = []
