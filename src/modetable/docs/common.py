"""What every region renderer shares: the rules' docs words, version notes, mode cells."""

from __future__ import annotations

from typing import TypeVar

from modetable.errors import Location, ModetableError
from modetable.output.markdown import code
from modetable.parsing import paths
from modetable.rules.model.docs import Docs
from modetable.rules.model.modes import Component
from modetable.rules.policy import Policy
from modetable.text.templates import fill
from modetable.versions import describe_range, parse_version

__all__ = [
    "Modes",
    "component_named",
    "display_path",
    "display_values",
    "docs_of",
    "range_note",
    "required",
    "rules_location",
]

_Section = TypeVar("_Section")


def required(policy: Policy, section: _Section | None, missing: str) -> _Section:
    """A section of the rules a region is rendered from; where the rules lack
    it, an error at the rules file that says so (`missing`)."""
    if section is None:
        raise ModetableError(missing, rules_location(policy))
    return section


def docs_of(policy: Policy) -> Docs:
    return required(policy, policy.rules.docs, "the rules file has no docs: section to render from")


def rules_location(policy: Policy) -> Location:
    return Location(policy.file)


def _gate(policy: Policy, since: str | None, until: str | None) -> str | None:
    """`since v1.3` for a gate worth saying; None when it holds in every listed version."""
    oldest = min(policy.rules.versions, key=parse_version)
    if since is not None and parse_version(since) <= parse_version(oldest):
        since = None
    if since is None and until is None:
        return None
    return describe_range(since, until)


class Modes:
    """Mode values as table cells: a status note follows a mode's first mention."""

    def __init__(self, policy: Policy, *, notes: bool = True) -> None:
        self.policy = policy
        self.docs = docs_of(policy)
        self.notes = notes
        self.seen: set[str] = set()

    def __call__(self, name: str | None) -> str:
        if name is None:
            return self.docs.none
        text = fill(self.docs.mode, {"mode": name})
        if self.notes and name not in self.seen:
            self.seen.add(name)
            mode = self.policy.all_modes.get(name)
            note = self.docs.status_notes.get(mode.status) if mode else None
            if note:
                text = f"{text} {note}"
        return text


def display_values(policy: Policy) -> dict[str, str]:
    """Placeholders as the docs write them when speaking of any component."""
    return {**docs_of(policy).placeholders, "annotation_key": policy.rules.annotation_key}


def display_path(policy: Policy, template: str) -> str:
    return code(paths.render(paths.split(fill(template, display_values(policy)))))


def range_note(policy: Policy, since: str | None, until: str | None) -> str:
    said = _gate(policy, since, until)
    return f" {fill(docs_of(policy).range_note, {'range': said})}" if said else ""


def component_named(policy: Policy, name: str) -> Component:
    try:
        return policy.components_by_name[name]
    except KeyError:
        raise ModetableError(
            f"docs names the component {name!r}, which the rules do not define",
            rules_location(policy),
        ) from None
