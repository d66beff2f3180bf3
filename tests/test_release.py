"""The release: its version is a semantic version (`modetable --version` prints it:
test_cli_core), and CHANGELOG.md's newest release is it."""

from __future__ import annotations

import re

from conftest import ROOT

from modetable.__about__ import __version__

CHANGELOG = ROOT / "CHANGELOG.md"


def _releases() -> list[tuple[str, str]]:
    """The changelog's release headings, newest first: (version, date)."""
    return re.findall(
        r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", CHANGELOG.read_text(), re.M
    )


def test_the_version_is_a_semantic_version():
    assert re.fullmatch(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)", __version__)
    assert int(__version__.split(".")[0]) >= 1  # the API is stable from 1.0.0 (docs/api.md)


def test_the_changelog_names_this_release_first():
    text = CHANGELOG.read_text()
    headings = re.findall(r"^## .*$", text, re.M)
    assert headings[0] == "## [Unreleased]"
    assert headings[1].startswith(f"## [{__version__}] - ")
    releases = _releases()
    assert [version for version, _ in releases] == [
        heading[len("## [") :].split("]")[0] for heading in headings[1:]
    ]
    dates = [date for _, date in releases]
    assert dates == sorted(dates, reverse=True)
