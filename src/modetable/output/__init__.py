"""What modetable writes: tables, JSON and YAML (`render`), files written whole
or not at all (`atomic`); and the stop a signal asks for, which a write
honours (`stops`)."""

__all__: list[str] = []
