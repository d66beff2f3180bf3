"""modetable.atomic: a write either happens whole or not at all."""

from __future__ import annotations

import os
import stat

import pytest

from modetable import atomic
from modetable.errors import ModetableError


def leftovers(directory) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_write_replaces_the_content_and_leaves_no_temporary_file(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("old\n")
    atomic.write_text(page, "new\r\nline\n")
    assert page.read_bytes() == b"new\r\nline\n"
    assert leftovers(tmp_path) == []


def test_write_creates_a_missing_file_with_the_umask_applied(tmp_path):
    previous = os.umask(0o027)
    try:
        atomic.write_bytes(tmp_path / "new.md", b"x")
    finally:
        os.umask(previous)
    assert (tmp_path / "new.md").read_bytes() == b"x"
    assert stat.S_IMODE((tmp_path / "new.md").stat().st_mode) == 0o640


def test_write_keeps_the_permissions_of_the_file_it_replaces(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("old")
    page.chmod(0o604)
    atomic.write_text(page, "new")
    assert stat.S_IMODE(page.stat().st_mode) == 0o604


def test_write_through_a_symlink_replaces_the_target_and_keeps_the_link(tmp_path):
    real = tmp_path / "real.md"
    real.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    atomic.write_text(link, "new")
    assert link.is_symlink()
    assert real.read_text() == "new"


@pytest.mark.parametrize(
    "interruption", [OSError(28, "No space left on device"), KeyboardInterrupt]
)
def test_an_interrupted_write_leaves_the_original_intact(tmp_path, monkeypatch, interruption):
    page = tmp_path / "page.md"
    page.write_bytes(b"original\n")

    def interrupted(source, destination):
        assert os.path.exists(source)  # the new content was written in full first
        raise interruption

    monkeypatch.setattr(atomic.os, "replace", interrupted)
    expected = ModetableError if isinstance(interruption, OSError) else KeyboardInterrupt
    with pytest.raises(expected) as raised:
        atomic.write_bytes(page, b"replacement that must not appear\n")
    assert page.read_bytes() == b"original\n"
    assert leftovers(tmp_path) == []
    if expected is ModetableError:
        assert str(raised.value) == f"{page}: cannot write: No space left on device"


def test_a_failed_fsync_leaves_the_original_intact(tmp_path, monkeypatch):
    page = tmp_path / "page.md"
    page.write_bytes(b"original\n")

    def failing(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(atomic.os, "fsync", failing)
    with pytest.raises(ModetableError, match="cannot write: Input/output error"):
        atomic.write_bytes(page, b"new\n")
    assert page.read_bytes() == b"original\n"
    assert leftovers(tmp_path) == []


def test_an_unwritable_directory_is_a_one_line_error(tmp_path):
    missing = tmp_path / "no-such-dir" / "page.md"
    with pytest.raises(ModetableError) as raised:
        atomic.write_text(missing, "x")
    assert str(raised.value) == f"{missing}: cannot write: No such file or directory"
