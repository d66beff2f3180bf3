"""Objects as the cluster holds them (`--live`), joined to the manifests.

An object both in the manifests and in the live dump is the manifest's (what
will be applied) with the fields the cluster writes taken from the live copy:
the rules' `manifests.live_fields` (its status), and for a model the fields
OME's model agent fills in (`model_agent.fills`). An object only in the dump
is part of the cluster the manifests land in, as it is. Each value keeps the
place it was read at, in the manifest or in the dump.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from modetable.errors import Location, ModetableError
from modetable.inputs.manifests import Manifest, kind_roles
from modetable.parsing.paths import split
from modetable.parsing.yamlio import YamlMap
from modetable.rules.model import RuleFile
from modetable.rules.words import ReadFrom

__all__ = ["JoinedMap", "join_live", "live_paths", "one_stdin"]


class JoinedMap(YamlMap):
    """A manifest's mapping with some values taken from the live copy: each
    key's place is where its value was read (`taken` names the live mapping a
    value came from); a mapping made for live values alone stands at `base`."""

    __slots__ = ("_base", "_taken")

    def where(self, key: Any = None) -> Location:
        if key is not None and key in self._taken:
            return self._taken[key].where(key)
        return self._base.where(key) if isinstance(self._base, YamlMap) else self._at

    def key_where(self, key: Any) -> Location:
        if key in self._taken:
            return self._taken[key].key_where(key)
        return self._base.key_where(key) if isinstance(self._base, YamlMap) else self._at

    @property
    def _at(self) -> Location:
        return Location(self.file, self.line, self.col)


def _joined(base: Any, at: YamlMap) -> JoinedMap:
    """A copy of the mapping `base` (a dict, or None for none) to take live values
    into; with no mapping of its own it stands where `at` does."""
    made = JoinedMap(base if isinstance(base, dict) else {})
    made._base = base if isinstance(base, YamlMap) else None
    made._taken = {}
    place = base.where() if isinstance(base, YamlMap) else at.where()
    made.file, made.line, made.col = place.file, place.line or 0, place.col or 0
    return made


_MISSING = object()


def _at_path(node: Any, segments: tuple[str, ...]) -> tuple[Any, Any]:
    """(the mapping holding the last segment, its value) in `node`; the value is
    `_MISSING` where a segment is absent."""
    parent = node
    for segment in segments[:-1]:
        parent = parent.get(segment) if isinstance(parent, dict) else None
    if not isinstance(parent, dict) or segments[-1] not in parent:
        return parent, _MISSING
    return parent, parent[segments[-1]]


def _take(body: JoinedMap, live: YamlMap, segments: tuple[str, ...], absence: bool) -> None:
    """The live object's value at `segments` into `body`; with `absence`, its
    absence too (a status: the cluster's word is the last)."""
    holder, value = _at_path(live, segments)
    node: JoinedMap = body
    live_node: Any = live
    for segment in segments[:-1]:
        child = node.get(segment)
        live_node = live_node.get(segment) if isinstance(live_node, dict) else None
        if value is _MISSING and not (absence and isinstance(child, dict)):
            return  # nothing to take (or to remove)
        if not isinstance(child, JoinedMap):
            child = _joined(child, live_node if isinstance(live_node, YamlMap) else node)
            node[segment] = child
        node = child
    last = segments[-1]
    if value is _MISSING:
        if not absence:
            return
        node.pop(last, None)
        node._taken.pop(last, None)
        return
    node[last] = value
    if isinstance(holder, YamlMap):
        node._taken[last] = holder


def live_paths(rules: RuleFile, kind: str) -> tuple[tuple[tuple[str, ...], bool], ...]:
    """The paths of an object of `kind` that a live copy brings (as segments),
    each with whether the live copy's absence counts: the cluster's own fields
    (`live_fields`) are the live copy's whatever it holds; a field the model
    agent fills in is the manifest's where the live copy has none (a value
    the manifest adds since is what will be applied)."""
    paths = [(split(path), True) for path in rules.manifests.live_fields]
    if kind_roles(rules.manifests).get(kind, ("", ""))[0] == "model" and rules.model_agent:
        paths.extend((split(path), False) for path in rules.model_agent.fills)
    return tuple(paths)


def _joined_manifest(rules: RuleFile, manifest: Manifest, live: Manifest) -> Manifest:
    body = _joined(manifest.body, manifest.body)
    for segments, absence in live_paths(rules, manifest.kind):
        _take(body, live.body, segments, absence)
    return attrs.evolve(manifest, body=body, read_from=ReadFrom.BOTH, live_location=live.location)


def join_live(
    rules: RuleFile, manifests: Iterable[Manifest], live: Iterable[Manifest]
) -> list[Manifest]:
    """The manifests, each joined to its live copy (same kind, namespace and
    name), then the live objects no manifest names, in the dump's order."""
    copies: dict[tuple[str, str | None, str], Manifest] = {}
    for obj in live:
        copies[(obj.kind, obj.namespace, obj.name)] = attrs.evolve(obj, read_from=ReadFrom.LIVE)
    joined: list[Manifest] = []
    named: set[tuple[str, str | None, str]] = set()
    for manifest in manifests:
        key = (manifest.kind, manifest.namespace, manifest.name)
        copy = copies.get(key)
        joined.append(manifest if copy is None else _joined_manifest(rules, manifest, copy))
        named.add(key)
    joined.extend(obj for key, obj in copies.items() if key not in named)
    return joined


def one_stdin(manifests: Iterable[str], live: Iterable[str]) -> None:
    """`-` (standard input) may stand for the manifests or the live dump, not both."""
    if "-" in manifests and "-" in live:
        raise ModetableError(
            "- (standard input) may be given for the manifests or for --live, not both"
        )
