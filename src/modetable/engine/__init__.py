"""The engine of the mode rules: the runtime an InferenceService names and its
inheritance (`runtimes`), the sources read per purpose (`modes`), the matching
table (`matching`, compiled once per version in `compiled`, runtimes indexed
by mode in `index`), and the running mode after merges (`running`)."""

__all__: list[str] = []
