"""Text as modetable prints it: what the inputs hold escaped for the terminal
(`shown`), and the `{name}` message templates (`templates`)."""

__all__: list[str] = []
