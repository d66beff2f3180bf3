"""What modetable writes: tables, JSON and YAML (`render`), and files written
whole or not at all (`atomic`)."""

__all__: list[str] = []
