"""modetable.output.atomic: a write either happens whole or not at all."""

from __future__ import annotations

import os
import stat

import pytest

from modetable.errors import ModetableError
from modetable.output import atomic


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


def test_a_file_where_a_folder_must_go_is_a_one_line_error(tmp_path):
    (tmp_path / "blocked").write_text("a file")
    with pytest.raises(ModetableError) as raised:
        atomic.write_text(tmp_path / "blocked" / "sub" / "page.md", "x")
    assert str(raised.value) == (
        f"{tmp_path / 'blocked'}: cannot create the folder: a file of that name is in the way"
    )
    assert raised.value.code == "cannot-write"


def test_missing_folders_are_made(tmp_path):
    atomic.write_text(tmp_path / "a" / "b" / "page.md", "x")
    assert (tmp_path / "a" / "b" / "page.md").read_text() == "x"


def _tree(root) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under `root`."""
    return {
        str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(root.rglob("*"))
    }


def test_a_set_of_files_is_written_all_or_none_when_one_cannot_be(tmp_path):
    """The second file's folder is blocked: the first is not written either, and
    neither the folders made for it nor a temporary file stays."""
    (tmp_path / "old.md").write_text("old")
    (tmp_path / "blocked").write_text("a file")
    before = _tree(tmp_path)
    with pytest.raises(ModetableError):
        atomic.write_files(
            [
                (tmp_path / "old.md", b"new"),
                (tmp_path / "new" / "deep" / "page.md", b"new"),
                (tmp_path / "blocked" / "page.md", b"new"),
            ]
        )
    assert _tree(tmp_path) == before


def test_a_rename_that_fails_puts_back_the_ones_before_it(tmp_path, monkeypatch):
    for name in ("a.md", "b.md"):
        (tmp_path / name).write_text(f"old {name}")
    before = _tree(tmp_path)
    real = os.replace
    calls = []

    def second_fails(source, destination):
        calls.append(destination)
        if len(calls) == 2:
            raise OSError(5, "Input/output error")
        return real(source, destination)

    monkeypatch.setattr(atomic.os, "replace", second_fails)
    with pytest.raises(ModetableError) as raised:
        atomic.write_files([(tmp_path / "a.md", b"new a"), (tmp_path / "b.md", b"new b")])
    assert str(raised.value) == f"{tmp_path / 'b.md'}: cannot write: Input/output error"
    assert _tree(tmp_path) == before


def test_an_interruption_while_staging_leaves_everything_as_it_was(tmp_path, monkeypatch):
    (tmp_path / "a.md").write_text("old")
    before = _tree(tmp_path)
    real = os.fsync
    synced = []

    def interrupted(fd):
        synced.append(fd)
        if len(synced) == 2:
            raise KeyboardInterrupt
        return real(fd)

    monkeypatch.setattr(atomic.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic.write_files([(tmp_path / "a.md", b"new"), (tmp_path / "n" / "b.md", b"new")])
    assert _tree(tmp_path) == before


def test_sigterm_during_the_renames_waits_until_they_are_done(tmp_path, monkeypatch):
    """A real SIGTERM sent while the first file is renamed is held: both files are
    new when it arrives (the test's own handler, and SIGTERM unblocked whatever
    mask the suite inherited). It is sent to the thread that writes: a command's
    process has that one thread, which a SIGTERM sent to the process reaches; a
    test runner's worker (pytest-xdist's) has others, which would take it instead."""
    import signal
    import threading

    class Stopped(BaseException):
        pass

    def stop(signum, frame):
        raise Stopped

    previous = signal.signal(signal.SIGTERM, stop)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    real = os.replace

    def signalled(source, destination):
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)
        return real(source, destination)

    monkeypatch.setattr(atomic.os, "replace", signalled)
    try:
        with pytest.raises(Stopped):
            atomic.write_files([(tmp_path / "a.md", b"new a"), (tmp_path / "b.md", b"new b")])
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGTERM, previous)
    assert _tree(tmp_path) == {"a.md": b"new a", "b.md": b"new b"}
