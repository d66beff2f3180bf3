"""Tools for whoever writes a rules file, built on the engine: the table's
analysis (`rules check`), the file's examples run, two versions of the rules
compared (`rules diff`), and the made-up inputs they decide."""

__all__: list[str] = []

__all__: list[str] = []
