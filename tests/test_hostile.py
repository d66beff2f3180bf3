"""Hostile and broken input beyond the corpus: unreadable files, the last-resort
handler, and inputs that must read exactly like their plain equivalent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, isvc_doc, run_cli, runtime_doc, write

ISVC = ROOT / "tests" / "broken" / "isvc.yaml"


def _dump(*documents: dict) -> str:
    return yaml.safe_dump_all(documents, sort_keys=False)


def test_an_unreadable_file_is_one_line_naming_it(tmp_path, monkeypatch):
    path = write(tmp_path, "locked.yaml", _dump(isvc_doc("svc")))
    real_open = os.open

    def refuse(name, *args, **kwargs):
        if os.fspath(name) == str(path):
            raise PermissionError(13, "Permission denied", str(name))
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    run = run_cli("match", "--isvc", "svc", str(path))
    assert (run.code, run.out, run.err) == (
        2,
        "",
        f"modetable: error: {path}: cannot read: Permission denied\n",
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_a_file_without_read_permission_is_one_line_naming_it(tmp_path):
    path = write(tmp_path, "locked.yaml", _dump(isvc_doc("svc")))
    path.chmod(0)
    run = run_cli("match", "--isvc", "svc", str(path))
    assert (run.code, run.err) == (2, f"modetable: error: {path}: cannot read: Permission denied\n")


def test_a_broken_symbolic_link_says_so(tmp_path):
    link = tmp_path / "gone.yaml"
    link.symlink_to(tmp_path / "nowhere.yaml")
    run = run_cli("match", "--isvc", "svc", str(ISVC), str(link))
    assert (run.code, run.err) == (2, f"modetable: error: {link}: a broken symbolic link\n")


def test_a_folder_skips_empty_files_but_reads_the_rest(tmp_path):
    write(tmp_path, "a/empty.yaml", "")
    write(tmp_path, "a/isvc.yaml", _dump(isvc_doc("svc")))
    run = run_cli("match", "--isvc", "svc", str(tmp_path / "a"))
    assert (run.code, run.err) == (1, "")


def test_a_file_reached_twice_through_a_folder_and_by_name_is_read_once(tmp_path):
    write(tmp_path, "all/isvc.yaml", _dump(isvc_doc("svc")))
    write(tmp_path, "all/rt.yaml", _dump(runtime_doc("rt")))
    run = run_cli(
        "match", "--isvc", "svc", str(tmp_path / "all"), str(tmp_path / "all" / "rt.yaml")
    )
    assert (run.code, run.err) == (0, "")


def test_standard_input_named_twice_is_read_once():
    text = _dump(isvc_doc("svc"), runtime_doc("rt"))
    once = run_cli("audit", "-", "-o", "json", stdin=text)
    twice = run_cli("audit", "-", "-", "-o", "json", stdin=text)
    assert (twice.code, twice.out, twice.err) == (once.code, once.out, once.err)
    assert once.code == 1 and once.err == ""


def test_a_typed_list_is_unwrapped_like_kind_list(tmp_path):
    """`kubectl get` prints `kind: List`; the API itself answers `ServingRuntimeList`."""
    listed = {
        "apiVersion": "ome.io/v1beta1",
        "kind": "ClusterServingRuntimeList",
        "items": [runtime_doc("rt")],
    }
    typed = run_cli("match", "--isvc", "svc", str(ISVC), "-", stdin=_dump(listed))
    plain = run_cli("match", "--isvc", "svc", str(ISVC), "-", stdin=_dump(runtime_doc("rt")))
    assert (typed.code, typed.out, typed.err) == (plain.code, plain.out, plain.err)
    assert "rt " in typed.out


def test_an_unexpected_exception_is_one_line_exit_3(monkeypatch):
    from modetable.cli import match

    def broken(args, io):
        raise KeyError("surprise")

    monkeypatch.delenv("MODETABLE_DEBUG", raising=False)
    monkeypatch.setattr(match, "run", broken)
    run = run_cli("match", "--isvc", "svc", str(ISVC))
    assert (run.code, run.out, run.err) == (
        3,
        "",
        "modetable: internal error: KeyError: 'surprise' "
        "(a bug in modetable; MODETABLE_DEBUG=1 shows the traceback)\n",
    )


def test_modetable_debug_lets_the_exception_through(monkeypatch):
    from modetable.cli import match

    def broken(args, io):
        raise KeyError("surprise")

    monkeypatch.setenv("MODETABLE_DEBUG", "1")
    monkeypatch.setattr(match, "run", broken)
    with pytest.raises(KeyError, match="surprise"):
        run_cli("match", "--isvc", "svc", str(ISVC))


def test_running_out_of_memory_is_one_line(monkeypatch):
    from modetable.cli import match

    def exhausted(args, io):
        raise MemoryError

    monkeypatch.setattr(match, "run", exhausted)
    run = run_cli("match", "--isvc", "svc", str(ISVC))
    assert (run.code, run.err) == (
        2,
        "modetable: error: out of memory (docs/limits.md lists the limits)\n",
    )


def test_the_rules_file_is_never_evaluated(tmp_path):
    """A Python tag in a rules file is refused like any other tag, and never run."""
    marker = tmp_path / "ran"
    rules = write(
        tmp_path,
        "rules.yaml",
        f"format: !!python/object/apply:os.system ['touch {marker}']\n",
    )
    run = run_cli("--rules", str(rules), "match", "--isvc", "svc", str(ISVC))
    assert (run.code, run.err) == (
        2,
        f"modetable: error: {rules}:1:9: the YAML tag !!python/object/apply:os.system is not "
        "supported: modetable reads only mappings, lists, strings, numbers, booleans and null\n",
    )
    assert not marker.exists()


def _tree(root: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file under `root`: its bytes, modification time and mode."""
    return {
        str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mtime_ns, p.stat().st_mode)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_docs_check_touches_no_file_even_when_pages_are_stale(tmp_path):
    import shutil

    from conftest import rules_copy

    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    old = "  - name: VirtualDeployment\n    status: legacy\n"
    rules = rules_copy(
        tmp_path / "rules" / "modes.yaml", (old, old.replace("legacy", "deprecated"))
    )
    before = _tree(tmp_path)
    common = ["docs", "--docs-dir", str(tmp_path / "docs"), "--rules", str(rules), "--check"]
    assert run_cli(*common).code == 1
    out = tmp_path / "v1.2.2"
    assert run_cli(*common, "--ome-version", "v1.2.2", "--out", str(out)).code == 1
    assert _tree(tmp_path) == before
    assert not out.exists()


WRITING_CALLS = ("write_text", "write_bytes", "os.replace", "os.rename", "shutil.copy")


def _opens_for_writing(call, name: str) -> bool:
    """`open(f, "w")`, `os.fdopen(fd, "wb")`, `path.open("a")`: a mode that writes."""
    import ast

    if not name.endswith("open"):
        return False
    positional = call.args[0:1] if name.endswith(".open") else call.args[1:2]
    modes = [*positional, *(k.value for k in call.keywords if k.arg == "mode")]
    return any(
        isinstance(m, ast.Constant) and isinstance(m.value, str) and set(m.value) & set("wax+")
        for m in modes
    )


def test_only_the_atomic_module_writes_files():
    """Every writer goes through modetable.atomic (a temporary file and a rename):
    no other module opens a file for writing or replaces one."""
    import ast

    offenders = []
    for path in sorted((ROOT / "src" / "modetable").rglob("*.py")):
        if path.name == "atomic.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = ast.unparse(node.func)
            if _opens_for_writing(node, name) or (
                name.endswith(WRITING_CALLS) and not name.startswith("atomic.")
            ):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert offenders == []


# modetable as a process whose every fsync stalls: a write is caught mid-staging.
_STALLED_WRITES = """
import os, sys, time
real = os.fsync
def stalled(fd):
    real(fd)
    time.sleep(60)
os.fsync = stalled
from modetable.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _default_signals() -> None:
    import signal

    numbers = (signal.SIGINT, signal.SIGHUP, signal.SIGTERM)
    for number in numbers:
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, numbers)


@pytest.mark.parametrize(
    ("signal_name", "code", "line"),
    [
        ("SIGTERM", 143, "modetable: terminated\n"),
        ("SIGINT", 130, "modetable: interrupted\n"),
        ("SIGHUP", 129, "modetable: hung up\n"),  # the terminal closed
    ],
)
def test_a_signal_while_docs_writes_leaves_nothing_behind(tmp_path, signal_name, code, line):
    """A real signal to a real process staging the pages of `docs --out`: it
    removes its temporary file and the folder it made, and says why it stopped."""
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "out"
    argv = ["docs", "--docs-dir", str(ROOT / "docs"), "--ome-version", "v1.2.2", "--out", str(out)]
    process = subprocess.Popen(
        [sys.executable, "-c", _STALLED_WRITES, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        # The rules cache off: its own atomic write would stall first.
        env={**os.environ, "PYTHONPATH": str(ROOT / "src"), "MODETABLE_CACHE": "0"},
        # As a shell in a terminal starts it: a runner started in the background
        # (or under nohup) passes these signals on ignored, or blocked.
        preexec_fn=_default_signals,
    )
    try:
        deadline = time.monotonic() + 30
        while not any(out.rglob("*.tmp")) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert any(out.rglob("*.tmp")), "the pages never began to be written"
        process.send_signal(getattr(signal, signal_name))
        stdout, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
    assert (process.returncode, stdout, stderr) == (code, b"", line.encode())
    assert not out.exists()


def test_a_hangup_ignored_at_the_start_stays_ignored():
    """Under `nohup` a closed terminal must not stop modetable: only a SIGHUP
    that would have killed it unwinds it instead."""
    import signal

    from modetable.cli import _sigterm_raises

    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with _sigterm_raises():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_IGN, signal.SIG_DFL)
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)


def test_docs_out_writes_no_page_when_one_cannot_be_written(tmp_path):
    """A file where the second page's folder must go: the first page is not
    written either (the corpus case docs-out-with-a-file-where-a-folder-goes)."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "sub").write_text("a file")
    docs = ROOT / "tests" / "broken" / "docs-pages"
    run = run_cli("docs", "--docs-dir", str(docs), "--ome-version", "v1.2.2", "--out", str(out))
    assert run.code == 2
    assert sorted(p.name for p in out.iterdir()) == ["sub"]
    assert (out / "sub").read_text() == "a file"
    fine = tmp_path / "fine"
    run = run_cli("docs", "--docs-dir", str(docs), "--ome-version", "v1.2.2", "--out", str(fine))
    assert (run.code, run.err) == (0, "")
    assert run.out == f"wrote {fine}/index.md\nwrote {fine}/sub/page.md\n"


def test_a_kind_that_is_a_mapping_is_still_one_line_with_api_groups_read():
    """Found by the fuzz: the API-group check met an unhashable kind first."""
    text = "apiVersion: serving.kserve.io/v1beta1\nkind: {a: 1}\nmetadata: {name: x}\n"
    run = run_cli("match", "--isvc", "svc", str(ISVC), "-", stdin=text)
    assert (run.code, run.out, run.err) == (
        2,
        "",
        "modetable: error: <stdin>:2:7: kind must be a string, got a mapping\n",
    )
