"""A rule set, and the policy it gives narrowed to one product version.

`RuleSet.at(version)` answers "which rules are in force", once, and compiles
each source's path for each component, so deciding never re-reads the data.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Any

import attrs

from modetable.errors import Location, ModetableError
from modetable.parsing import paths
from modetable.rules import positions
from modetable.rules.cache import Deferred, load_cached
from modetable.rules.find import (
    VERSION_VARIABLE,
    asked_version,
    find_rules,
    holds_bundled_rules,
    named_by,
    read_rules_bytes,
)
from modetable.rules.model import RuleFile
from modetable.rules.model.admission import AdmissionRule
from modetable.rules.model.matching import Row
from modetable.rules.model.modes import Component, Mode
from modetable.rules.model.runtimes import RunFailure
from modetable.rules.model.sources import Source
from modetable.rules.words import SourceObject
from modetable.settled import frozen, settled
from modetable.text.templates import fill, go_quoted_inner
from modetable.versions import Placement, in_force, parse_version, place

__all__ = ["PURPOSES", "Policy", "RuleSet", "SourcePlan", "load_ruleset"]

PURPOSES = ("requested", "declared", "running")


@frozen
class SourcePlan:
    """A source as it applies to one component: its paths already expanded."""

    source: Source
    in_force: bool
    path: paths.Segments | None
    present: tuple[paths.Segments, ...]
    # For a source of the merged InferenceService: where the runtime writes what
    # is merged into `path` (running_merge), so a value it gives has its place.
    runtime_path: paths.Segments | None = None
    # The source's `words` filled for the component, when it has them.
    said: str | None = None

    # Where it reads, as a trace shows it: made once, not at each of the
    # readings a fleet's audit records (several per InferenceService).
    where_text: str = attrs.field(init=False, eq=False, repr=False)

    @where_text.default
    def _where_text(self) -> str:
        if self.path is not None:
            return paths.render(self.path)
        if self.present:
            return " or ".join(paths.render(p) for p in self.present)
        return "(constant)"

    @property
    def words(self) -> str:
        """Where a mode read here is, in an operator's words: the source's
        `words`, else the name OME gives it, else where it reads."""
        return self.said or self.source.name or self.where_text


@frozen(eq=False)
@settled  # shared across threads: nothing filled on first use
class Policy:
    """The rules in force in one version.

    `version` is the rules line (a listed version) whose rules are in force;
    `release` the OME release asked for (`v1.3.1`), which that line holds.
    `warning` says when the release is newer than the rules describe.
    """

    version: str
    rules: RuleFile
    file: str
    release: str = attrs.field(default=attrs.Factory(lambda self: self.version, takes_self=True))
    warning: str | None = None
    # The file holds the bundled rules (the copy itself, or its bytes elsewhere).
    bundled: bool = False

    @cached_property
    def modes_in_force(self) -> dict[str, Mode]:
        """Valid mode values in this version, in the file's order, each with its
        status in this version."""
        return {
            name: mode
            for name, mode in self.all_modes.items()
            if in_force(mode.since, mode.until, self.version)
        }

    @cached_property
    def all_modes(self) -> dict[str, Mode]:
        """Every mode the file names, in any version (the compiled table's domain),
        each with its status in this version (`statuses` resolved)."""
        return {m.name: self._as_of(m) for m in self.rules.modes}

    def _as_of(self, mode: Mode) -> Mode:
        for change in mode.statuses:
            if in_force(change.since, change.until, self.version):
                return attrs.evolve(
                    mode, status=change.status, replacement=change.replacement, statuses=()
                )
        return attrs.evolve(mode, statuses=()) if mode.statuses else mode

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
        path = paths.expand(source.path, values) if source.path is not None else None
        runtime_path = None
        if source.object == SourceObject.MERGED and path is not None:
            merge = self.rules.running_merge
            into = paths.expand(merge.into, values)
            if path[: len(into)] == into:
                runtime_path = paths.expand(merge.source, values) + path[len(into) :]
        return SourcePlan(
            source=source,
            in_force=in_force(source.since, source.until, self.version),
            path=path,
            present=tuple(paths.expand(p, values) for p in source.present),
            runtime_path=runtime_path,
            said=fill(source.words, values) if source.words is not None else None,
        )

    def placeholder_values(self, component: Component) -> dict[str, str]:
        return {
            "component": component.name,
            "isvc_field": component.isvc_field,
            "runtime_field": component.runtime_field,
            "annotation_key": self.rules.annotation_key,
        }

    def source_words(self, purpose: str, component: str, source: str) -> str:
        """Where `source` (its id, or the name JSON shows) reads a mode of
        `purpose` for `component`, in an operator's words (`SourcePlan.words`)."""
        for plan in self.plans(purpose, component):
            if source in (plan.source.id, plan.source.label):
                return plan.words
        return source

    def row_words(self, row: str) -> str:
        """The matching row `row` in an operator's words (its `words`), else
        named by its id."""
        found = next((r for r in self.rules.matching.rows if r.id == row), None)
        return found.words if found is not None and found.words else f"row {row}"

    def component_path(self, component: Component, template: str) -> paths.Segments:
        return paths.expand(template, self.placeholder_values(component))

    @cached_property
    def merge_paths(self) -> dict[str, tuple[paths.Segments, paths.Segments]]:
        """Component name -> (where the InferenceService declares it, where the
        runtime holds its config): `running_merge`'s `into` and `source`,
        asked several times per InferenceService."""
        merge = self.rules.running_merge
        return {
            c.name: (self.component_path(c, merge.into), self.component_path(c, merge.source))
            for c in self.components
        }

    def message(self, key: str, **values: object) -> str:
        """Message `key` filled; it must be given every one of its `params`."""
        message = self.rules.messages.get(key)
        if message is None:
            raise ModetableError(f"the rules have no message {key!r}", Location(self.file))
        for name in message.params:  # a fleet's audit fills some 200,000: no list made
            if name not in values:
                missing = [n for n in message.params if n not in values]
                raise ModetableError(
                    f"message {key!r} has params {', '.join(missing)}, "
                    "which modetable does not pass it here",
                    Location(self.file),
                )
        if message.quoted:
            values = {
                k: go_quoted_inner(v) if k in message.quoted else v for k, v in values.items()
            }
        return fill(message.text, values)

    def explanation(self, key: str, **values: object) -> str:
        return fill(self.rules.explanations[key], values)

    def stage_message(self, stage: str, **values: object) -> str:
        return fill(self.rules.admission_stages[stage], values)

    def is_mode(self, value: Any) -> bool:
        return isinstance(value, str) and value in self.modes_in_force


@frozen(eq=False)
class RuleSet:
    """A loaded rules file, for every version it knows."""

    rules: RuleFile
    file: str
    # The YAML tree the rules were read from, every position kept (`locate`);
    # from the rules cache, a `Deferred` read when first asked for.
    _document: Any = attrs.field(repr=False, alias="document")
    # The file holds the bundled rules (the copy itself, or its bytes elsewhere).
    bundled: bool = False

    @property
    def document(self) -> Any:
        """The YAML tree the rules were read from (positions: `locate`)."""
        found = self._document
        return found.read() if isinstance(found, Deferred) else found

    @property
    def versions(self) -> tuple[str, ...]:
        """The rules lines, as listed."""
        return self.rules.versions

    @property
    def newest(self) -> str:
        return max(self.rules.versions, key=parse_version)

    @property
    def default_version(self) -> str:
        """The line commands answer for when no version is asked: the file's
        `default_version` (its newest released line), else its newest line."""
        return self.rules.default_version or self.newest

    def place(self, version: str | None = None) -> Placement:
        """Where an OME release stands among the lines (`v1.3.1` → `v1.3`); None
        asks for $MODETABLE_OME_VERSION, else the default version."""
        if version is None:
            asked = asked_version()
            if asked is None:
                return Placement(self.default_version, self.default_version)
            with named_by(VERSION_VARIABLE):
                return place(asked, self.rules.versions)
        return place(version, self.rules.versions)

    def resolve_version(self, version: str | None) -> str:
        """The rules line that holds `version` (see `place`)."""
        return self.place(version).line

    def at(self, version: str | None = None) -> Policy:
        """The rules in force in OME release `version` (any release string)."""
        placement = self.place(version)
        return Policy(
            version=placement.line,
            rules=self.rules,
            file=self.file,
            release=placement.asked,
            warning=placement.warning,
            bundled=self.bundled,
        )

    def locate(self, *path: str | int) -> Location:
        """The position of a node in the rules file, for messages about it."""
        return positions.locate(self.document, path, self.file)


def load_ruleset(
    path: str | Path | None = None, warn: Callable[[str], None] | None = None
) -> RuleSet:
    """The rules file at `path`, else the one the lookup finds (`rules/find.py`);
    from the cache of loaded rules when it holds this file's bytes (`rules/cache.py`).
    A cache folder or entry refused, or a ./rules/modes.yaml the lookup skips, is
    said to `warn`, when given."""
    found = find_rules(path, warn)
    file = str(found.path)
    with named_by(found.variable):
        data = read_rules_bytes(found.path)

    def parse() -> tuple[RuleFile, Any]:
        # The loader (cattrs, validation) is imported only when the cache misses.
        from modetable.parsing.yamlio import decode
        from modetable.rules.load import parse_rules

        return parse_rules(decode(data, file), file)

    rules, document = load_cached(file, data, parse, warn)
    bundled = found.bundled or holds_bundled_rules(data)
    return RuleSet(rules=rules, file=file, document=document, bundled=bundled)
