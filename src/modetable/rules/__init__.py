"""The rules file: its classes, loading, and narrowing to one version."""

from modetable.rules.policy import Policy, RuleSet, load_ruleset

__all__ = ["Policy", "RuleSet", "load_ruleset"]
