"""Fleet audit: every InferenceService's outcome, deprecations, and upgrade impact."""

__all__: list[str] = []

__all__: list[str] = []
