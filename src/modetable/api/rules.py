"""`load_rules`, `Rules` and `Policy`: the rules file, and the rules in force in
one OME release, as the Python API gives them."""

from __future__ import annotations

import os
import warnings

import attrs

from modetable.api.arguments import made_by, typed, wrong_type
from modetable.api.arguments import path as path_argument
from modetable.errors import ModetableWarning
from modetable.rules import policy as rules_policy
from modetable.settled import frozen

__all__ = ["Policy", "Rules", "engine_policy", "engine_ruleset", "load_rules"]


@frozen(eq=False)
class Policy:
    """The rules in force in one OME release: what every decision is made with.

    Made by `Rules.at`. Immutable, and safe to share across threads: one
    Policy may serve every request of a long-running program.
    """

    _policy: rules_policy.Policy = attrs.field(
        alias="policy",
        repr=False,
        validator=made_by(rules_policy.Policy, "Rules.at()"),
    )

    @property
    def version(self) -> str:
        """The rules line in force (`v1.3` for OME v1.3.1)."""
        return self._policy.version

    @property
    def release(self) -> str:
        """The OME release asked for, as modetable shows it (`v1.3.1`)."""
        return self._policy.release

    @property
    def file(self) -> str:
        """The rules file read."""
        return self._policy.file

    @property
    def bundled(self) -> bool:
        """Whether that file holds the rules bundled with modetable (the copy
        itself, or a file of the same bytes)."""
        return self._policy.bundled

    @property
    def warning(self) -> str | None:
        """Set when the release is newer than the rules describe (the text of the
        `ModetableWarning` given when the policy was made)."""
        return self._policy.warning

    def __repr__(self) -> str:
        return f"<modetable.Policy {self.release} ({self.version} rules of {self.file})>"


@frozen(eq=False)
class Rules:
    """A rules file, loaded: OME's deployment-mode rules for every release it
    describes. Made by `load_rules`; immutable."""

    _ruleset: rules_policy.RuleSet = attrs.field(
        alias="ruleset",
        repr=False,
        validator=made_by(rules_policy.RuleSet, "load_rules()"),
    )

    @property
    def file(self) -> str:
        """The rules file read."""
        return self._ruleset.file

    @property
    def bundled(self) -> bool:
        """Whether it holds the rules bundled with modetable (the copy itself,
        or a file of the same bytes)."""
        return self._ruleset.bundled

    @property
    def versions(self) -> tuple[str, ...]:
        """The rules lines the file lists (each holds until the next one)."""
        return tuple(self._ruleset.versions)

    @property
    def default_version(self) -> str:
        """The line used when no release is asked for."""
        return self._ruleset.default_version

    def at(self, version: str | None = None) -> Policy:
        """The rules in force in OME release `version`: any release, as the
        command line's `--ome-version` takes it (`v1.3.1`, `1.3`, `v1.3.0-rc.1`);
        None asks for `$MODETABLE_OME_VERSION`, else the file's default.

        A release newer than the rules describe gets the newest rules and a
        `ModetableWarning` (the text the command line prints as a warning);
        one older than every line, or not a version, is a `ModetableError`.
        """
        if version is not None:
            typed("version", version, str, "a str or None")
        found = self._ruleset.at(version)
        if found.warning:
            warnings.warn(found.warning, ModetableWarning, stacklevel=2)
        return Policy(policy=found)

    def __repr__(self) -> str:
        return f"<modetable.Rules {self.file} ({', '.join(self.versions)})>"


def load_rules(path: str | os.PathLike[str] | None = None) -> Rules:
    """The rules file at `path`; without one, the file every command reads:
    `$MODETABLE_RULES`, else `./rules/modes.yaml` when it exists, else the copy
    bundled with modetable. A file that does not load is a `ModetableError`
    naming its place (every problem found, one per line, in `ErrorList.errors`).
    A rules cache folder or entry refused (`docs/limits.md`) is a `ModetableWarning`."""
    given = None if path is None else path_argument("path", path)
    said: list[str] = []
    try:
        return Rules(ruleset=rules_policy.load_ruleset(given, said.append))
    finally:
        for text in said:
            warnings.warn(text, ModetableWarning, stacklevel=2)


def engine_policy(policy: Policy) -> rules_policy.Policy:
    """The engine's policy behind a public one (for the API's own modules)."""
    if not isinstance(policy, Policy):
        raise wrong_type("policy", "a modetable.Policy (from load_rules().at())", policy)
    return policy._policy


def engine_ruleset(rules: Rules) -> rules_policy.RuleSet:
    """The engine's rule set behind a public `Rules` (for the API's own modules)."""
    return rules._ruleset
