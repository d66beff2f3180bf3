"""The audit's config file, `.modetable.yaml`: the exceptions a repository
accepts (each with its reason) and its default options, found from the working
directory up to the repository's root, as kube-linter finds `.kube-linter.yaml`
and ruff its `pyproject.toml`.

    ome-version: v1.3          # --ome-version's default
    fail-on: warning           # --fail-on's
    rules: policy/modes.yaml   # --rules' (relative to this file)
    docs-url: https://example.com/modetable/findings.html   # --docs-url's
    ignore:
      - id: mode/MultiNode     # finding ids, a glob (`*` any characters)
        object: llama-demo/*   # optional: NAMESPACE/NAME (NAME if cluster-scoped), a glob
        kind: InferenceService # optional: the object's kind, a glob
        reason: moves to OMENative in Q3   # required

Read strictly: an unknown key, a value of the wrong type or an ignore without
its reason is one `FILE:LINE:COL` error."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from modetable.errors import Location, ModetableError
from modetable.parsing.yamlio import decode, describe, load_documents, read_file, where
from modetable.settled import frozen

__all__ = ["NAMES", "Config", "ConfigIgnore", "docs_url_problem", "find_config", "read_config"]

# The names looked for in each folder, the first preferred (kube-linter's two).
NAMES = (".modetable.yaml", ".modetable.yml")
# What marks a repository's root: looking up stops there.
_REPOSITORY = ".git"
_SETTINGS = ("ome-version", "fail-on", "rules", "docs-url", "ignore")
_IGNORE_KEYS = ("id", "object", "kind", "reason")


@frozen
class ConfigIgnore:
    """One entry of `ignore`, where it is written."""

    id: str
    reason: str
    at: Location
    object: str | None = None
    kind: str | None = None


@frozen
class Config:
    file: str
    ome_version: str | None = None
    fail_on: str | None = None
    rules: str | None = None  # as a path from the working directory
    ignores: tuple[ConfigIgnore, ...] = ()
    docs_url: str | None = None


def docs_url_problem(url: str) -> str | None:
    """What makes `url` no link to the page of finding ids (docs/findings.md as
    the user hosts it), or None: an absolute http or https URL with a host, no
    fragment (each id's anchor is added) and no space."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return f"the docs URL is an absolute http or https URL, not {url!r}"
    if parts.fragment or "#" in url:
        return f"the docs URL is the page's, without a #fragment (each id's is added): {url!r}"
    if any(c.isspace() or not c.isprintable() for c in url):
        return f"the docs URL holds no space or control character: {url!r}"
    return None


def find_config(start: Path | None = None) -> Path | None:
    """The config file of the working directory (`start`), or of the nearest
    folder above it up to the repository's root (the folder holding `.git`);
    outside a repository, only the working directory's."""
    here = Path(os.path.abspath(start if start is not None else Path.cwd()))
    folders = [here, *here.parents]
    root = next((i for i, f in enumerate(folders) if (f / _REPOSITORY).exists()), None)
    for folder in folders[: 1 if root is None else root + 1]:
        found = [folder / name for name in NAMES if (folder / name).is_file()]
        if len(found) > 1:
            raise ModetableError(
                f"{found[0].name} and {found[1].name} are both here: keep one",
                Location(os.path.relpath(found[1])),
            )
        if found:
            # Named from the working directory (`../.modetable.yaml`), as the
            # manifests are: the same in every checkout.
            return Path(os.path.relpath(found[0]))
    return None


def read_config(path: str | os.PathLike[str], fail_on: Sequence[str]) -> Config:
    """The config file at `path`, checked whole (`fail_on`: the words `fail-on` takes)."""
    name = str(path)
    documents = load_documents(decode(read_file(path, name), name), name)
    if not documents:
        return Config(name)
    if len(documents) > 1:
        raise ModetableError("a config file holds one YAML document", documents[1][1])
    root, start = documents[0]
    _check_keys(
        root, start, _SETTINGS, "a config file", "unknown setting {key} (the settings: {keys})"
    )
    text = {key: _string(root, key) for key in ("ome-version", "fail-on", "rules", "docs-url")}
    if text["fail-on"] is not None and text["fail-on"] not in fail_on:
        raise ModetableError(
            f"fail-on is one of {', '.join(fail_on)}, not {describe(text['fail-on'])}",
            root.where("fail-on"),
        )
    docs_url = text["docs-url"]
    problem = docs_url_problem(docs_url) if docs_url is not None else None
    if problem is not None:
        raise ModetableError(problem, where(root, "docs-url"))
    rules = text["rules"]
    if rules is not None:
        rules = os.path.join(os.path.dirname(name), rules) if not os.path.isabs(rules) else rules
    return Config(
        name,
        ome_version=text["ome-version"],
        fail_on=text["fail-on"],
        rules=rules,
        ignores=_ignores(root),
        docs_url=docs_url,
    )


def _check_keys(value: Any, at: Location, keys: tuple[str, ...], what: str, unknown: str) -> None:
    """`value` (`what` it is, written at `at`) is a mapping of some of `keys`;
    `unknown`: the error for another key, with `{key}` and `{keys}` filled in."""
    listed = ", ".join(keys)
    if not isinstance(value, dict):
        raise ModetableError(f"{what} is a mapping of {listed}, not {describe(value)}", at)
    for key in value:
        if key not in keys:
            raise ModetableError(unknown.format(key=_shown(key), keys=listed), value.key_where(key))


def _shown(key: Any) -> str:
    return repr(key) if isinstance(key, str) else describe(key)


def _string(mapping: Any, key: str, *, required: bool = False, what: str = "") -> str | None:
    if key not in mapping:
        if required:
            raise ModetableError(f"{what} has no {key}", mapping.where())
        return None
    value = mapping[key]
    if not isinstance(value, str) or not value.strip():
        named = f"{what}'s {key}" if what else key
        raise ModetableError(
            f"{named} is a non-empty string, not {describe(value)}", where(mapping, key)
        )
    return value


def _ignores(root: Any) -> tuple[ConfigIgnore, ...]:
    if "ignore" not in root:
        return ()
    listed = root["ignore"]
    if not isinstance(listed, list):
        raise ModetableError(
            f"ignore is a list of exceptions ({', '.join(_IGNORE_KEYS)}), not {describe(listed)}",
            root.where("ignore"),
        )
    found = []
    for index, entry in enumerate(listed):
        at = where(listed, index)
        unknown = "unknown key {key} in an ignore (its keys: {keys})"
        _check_keys(entry, at, _IGNORE_KEYS, "an ignore", unknown)
        if "reason" not in entry:
            raise ModetableError("an ignore has no reason: every exception says why", at)
        what = "an ignore"
        found.append(
            ConfigIgnore(
                id=_string(entry, "id", required=True, what=what) or "",
                reason=(_string(entry, "reason", required=True, what=what) or "").strip(),
                at=at,
                object=_string(entry, "object", what=what),
                kind=_string(entry, "kind", what=what),
            )
        )
    return tuple(found)
