"""Fleet audit: every InferenceService's outcome, deprecations, and upgrade impact."""
