"""A rule set, and the policy it gives narrowed to one product version.

`RuleSet.at(version)` answers "which rules are in force", once, and compiles
each source's path for each component, so deciding never re-reads the data.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any

import attrs

from modetable import paths
from modetable.errors import ErrorCode, Location, ModetableError
from modetable.rules import positions
from modetable.rules.load import bundled_rules_path, parse_rules, read_rules_text
from modetable.rules.model import (
    AdmissionRule,
    Component,
    Mode,
    Row,
    RuleFile,
    RunFailure,
    Source,
)
from modetable.templates import fill
from modetable.versions import in_force, parse_version

PURPOSES = ("requested", "declared", "running")


@attrs.frozen
class SourcePlan:
    """A source as it applies to one component: its paths already expanded."""

    source: Source
    in_force: bool
    path: paths.Segments | None
    present: tuple[paths.Segments, ...]

    @property
    def where_text(self) -> str:
        if self.path is not None:
            return paths.render(self.path)
        if self.present:
            return " or ".join(paths.render(p) for p in self.present)
        return "(constant)"


@attrs.frozen(eq=False)
class Policy:
    """The rules in force in one version."""

    version: str
    rules: RuleFile
    file: str

    @cached_property
    def modes_in_force(self) -> dict[str, Mode]:
        """Valid mode values in this version, in the file's order."""
        return {m.name: m for m in self.rules.modes if in_force(m.since, m.until, self.version)}

    @cached_property
    def all_modes(self) -> dict[str, Mode]:
        """Every mode the file names, in any version (the compiled table's domain)."""
        return {m.name: m for m in self.rules.modes}

    @property
    def components(self) -> tuple[Component, ...]:
        """The components in the rules' order (engine, decoder, router)."""
        return self.rules.components

    @cached_property
    def components_by_name(self) -> dict[str, Component]:
        return {c.name: c for c in self.rules.components}

    @cached_property
    def rows(self) -> tuple[Row, ...]:
        return tuple(
            r for r in self.rules.matching.rows if in_force(r.since, r.until, self.version)
        )

    @cached_property
    def admission(self) -> tuple[AdmissionRule, ...]:
        return tuple(r for r in self.rules.admission if in_force(r.since, r.until, self.version))

    @cached_property
    def inheritance_in_force(self) -> bool:
        rule = self.rules.inheritance
        return in_force(rule.since, rule.until, self.version)

    @cached_property
    def run_failures(self) -> tuple[RunFailure, ...]:
        return self.rules.run_failures

    @cached_property
    def sources_by_id(self) -> dict[str, Source]:
        found: dict[str, Source] = {}
        for purpose in PURPOSES:
            for source in getattr(self.rules.sources, purpose):
                found[source.id] = source
        return found

    @cached_property
    def _plans(self) -> dict[tuple[str, str], tuple[SourcePlan, ...]]:
        plans = {}
        for purpose in PURPOSES:
            for component in self.components:
                plans[purpose, component.name] = tuple(
                    self._plan(source, component)
                    for source in getattr(self.rules.sources, purpose)
                    if source.components is None or component.name in source.components
                )
        return plans

    def plans(self, purpose: str, component: str) -> tuple[SourcePlan, ...]:
        """The sources of `purpose` for `component`, in precedence order."""
        return self._plans[purpose, component]

    def _plan(self, source: Source, component: Component) -> SourcePlan:
        values = self.placeholder_values(component)
        return SourcePlan(
            source=source,
            in_force=in_force(source.since, source.until, self.version),
            path=paths.expand(source.path, values) if source.path is not None else None,
            present=tuple(paths.expand(p, values) for p in source.present),
        )

    def placeholder_values(self, component: Component) -> dict[str, str]:
        return {
            "component": component.name,
            "isvc_field": component.isvc_field,
            "runtime_field": component.runtime_field,
            "annotation_key": self.rules.annotation_key,
        }

    def component_path(self, component: Component, template: str) -> paths.Segments:
        return paths.expand(template, self.placeholder_values(component))

    def message(self, key: str, **values: object) -> str:
        """Message `key` filled; it must be given every one of its `params`."""
        message = self.rules.messages.get(key)
        if message is None:
            raise ModetableError(f"the rules have no message {key!r}", Location(self.file))
        missing = [name for name in message.params if name not in values]
        if missing:
            raise ModetableError(
                f"message {key!r} has params {', '.join(missing)}, "
                "which modetable does not pass it here",
                Location(self.file),
            )
        return fill(message.text, values)

    def explanation(self, key: str, **values: object) -> str:
        return fill(self.rules.explanations[key], values)

    def stage_message(self, stage: str, **values: object) -> str:
        return fill(self.rules.admission_stages[stage], values)

    def is_mode(self, value: Any) -> bool:
        return isinstance(value, str) and value in self.modes_in_force


@attrs.frozen(eq=False)
class RuleSet:
    """A loaded rules file, for every version it knows."""

    rules: RuleFile
    file: str
    document: Any = attrs.field(repr=False)

    @property
    def versions(self) -> tuple[str, ...]:
        return self.rules.versions

    @property
    def newest(self) -> str:
        return max(self.rules.versions, key=parse_version)

    def resolve_version(self, version: str | None) -> str:
        """The listed version equal to `version` (`1.3` finds `v1.3`), or the newest."""
        if version is None:
            return self.newest
        try:
            wanted = parse_version(version)
        except ValueError:
            wanted = None
        for known in self.rules.versions:
            if wanted is not None and parse_version(known) == wanted:
                return known
        listed = ", ".join(self.rules.versions)
        raise ModetableError(
            f"unknown OME version {version!r}; the rules know: {listed}",
            code=ErrorCode.UNKNOWN_VERSION,
        )

    def at(self, version: str | None = None) -> Policy:
        return Policy(version=self.resolve_version(version), rules=self.rules, file=self.file)

    def locate(self, *path: str | int) -> Location:
        """The position of a node in the rules file, for messages about it."""
        return positions.locate(self.document, path, self.file)


def load_ruleset(path: str | Path | None = None) -> RuleSet:
    """The rules file at `path`, or the bundled one."""
    file = Path(path) if path is not None else bundled_rules_path()
    rules, document = parse_rules(read_rules_text(file), str(file))
    return RuleSet(rules=rules, file=str(file), document=document)
