"""Hostile and broken input beyond the corpus: unreadable files, the last-resort
handler, and inputs that must read exactly like their plain equivalent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from conftest import READ_ONLY_BYTECODE, ROOT, RULES, isvc_doc, run_cli, runtime_doc, write

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
    typed = run_cli("match", "--isvc", "svc", str(ISVC), "-", "--all", stdin=_dump(listed))
    plain = run_cli(
        "match", "--isvc", "svc", str(ISVC), "-", "--all", stdin=_dump(runtime_doc("rt"))
    )
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


# The modules that write files, each its own way of never leaving one half-written.
WRITERS = {
    # the pages `docs` writes: each staged beside its target (through a link, as
    # documented), all renamed into place or none
    "output/atomic.py",
    # rules cache entries: a new file created exclusively in a folder only the
    # user may write, renamed onto the entry, never through a link
    "rules/cache.py",
}


def test_only_the_atomic_module_and_the_rules_cache_write_files():
    """Every writer goes through modetable.output.atomic (a temporary file and a rename),
    but the rules cache, which must not follow a link: no other module opens a
    file for writing or replaces one."""
    import ast

    package = ROOT / "src" / "modetable"
    offenders, writing = [], set()
    for path in sorted(package.rglob("*.py")):
        module = path.relative_to(package).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = ast.unparse(node.func)
            if _opens_for_writing(node, name) or (
                name.endswith(WRITING_CALLS) and not name.startswith("atomic.")
            ):
                writing.add(module)
                if module not in WRITERS:
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert offenders == []
    assert writing == WRITERS


# modetable as a process whose every fsync stalls: a write is caught mid-staging.
_STALLED_WRITES = """
import faulthandler, os, signal, sys, time
faulthandler.register(signal.SIGUSR1)  # where it is, if it outlives the signal sent
real = os.fsync
def stalled(fd):
    real(fd)
    time.sleep(60)
os.fsync = stalled
from modetable.cli import main
sys.exit(main(sys.argv[1:]))
"""


# Each signal a user or a CI runner sends, with the exit code and line it ends in.
STOPPING_SIGNALS = [
    ("SIGTERM", 143, "modetable: terminated\n"),
    ("SIGINT", 130, "modetable: interrupted\n"),
    ("SIGHUP", 129, "modetable: hung up\n"),  # the terminal closed
]


def _signal_while_docs_writes(
    out: Path, signal_name: str, rules_cache: Path
) -> tuple[int, bytes, bytes]:
    """A real signal to a real process staging the pages of `docs --out` (into
    `out`): its exit code, stdout and stderr. The child meets the signal at its
    default whatever this process inherited (conftest.signals_at_their_defaults).
    `rules_cache`: a warm_rules_cache folder."""
    import signal
    import subprocess
    import sys
    import time

    from conftest import signals_at_their_defaults

    argv = ["docs", "--docs-dir", str(ROOT / "docs"), "--ome-version", "v1.2.2", "--out", str(out)]
    process = subprocess.Popen(
        [sys.executable, "-c", _STALLED_WRITES, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        # The rules served from a warm cache: no entry written (its own atomic
        # write would stall first) and no parse.
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT / "src"),
            "MODETABLE_CACHE": "1",
            "MODETABLE_CACHE_DIR": str(rules_cache),
        },
        preexec_fn=signals_at_their_defaults,
    )
    try:
        deadline = time.monotonic() + 30
        while not any(out.rglob("*.tmp")) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert any(out.rglob("*.tmp")), "the pages never began to be written"
        process.send_signal(getattr(signal, signal_name))
        try:
            stdout, stderr = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            # Seen once in a whole run under load (2026-12-07): say where it stood.
            process.send_signal(signal.SIGUSR1)
            time.sleep(1)
            process.kill()
            stack = process.communicate()[1].decode(errors="replace")
            raise AssertionError(f"still running 30 s after {signal_name}:\n{stack}") from None
    finally:
        process.kill()
    return process.returncode, stdout, stderr


@pytest.mark.parametrize(("signal_name", "code", "line"), STOPPING_SIGNALS)
def test_a_signal_while_docs_writes_leaves_nothing_behind(
    tmp_path, signal_name, code, line, warm_rules_cache
):
    """The process removes its temporary file and the folder it made, and says why it stopped."""
    out = tmp_path / "out"
    run = _signal_while_docs_writes(out, signal_name, warm_rules_cache)
    assert run == (code, b"", line.encode())
    assert not out.exists()


@pytest.mark.parametrize(("signal_name", "code", "line"), STOPPING_SIGNALS)
def test_the_signal_tests_hold_under_a_parent_that_ignores_and_blocks_signals(
    tmp_path, signal_name, code, line, warm_rules_cache
):
    """The suite run under `nohup` (SIGHUP ignored), from a shell's `&` (SIGINT
    ignored) or by a wrapper that blocks signals: the child is still stopped,
    because the test sets what it relies on instead of inheriting it."""
    import signal

    from conftest import SENT_SIGNALS

    previous = {signum: signal.signal(signum, signal.SIG_IGN) for signum in SENT_SIGNALS}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, SENT_SIGNALS)
    try:
        run = _signal_while_docs_writes(tmp_path / "out", signal_name, warm_rules_cache)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    assert run == (code, b"", line.encode())
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("signal_name", "code", "line"), STOPPING_SIGNALS)
def test_a_stop_a_finalizer_swallowed_still_stops_the_write(
    tmp_path, monkeypatch, signal_name, code, line
):
    """A signal that lands while a finalizer runs (an object's `__del__`, an
    unfinished generator freed): its handler's raise is swallowed there (Python
    prints "Exception ignored" and goes on). The command still stops before the
    first page waits for the disk: no page written, the run ends as for the
    signal."""
    import signal

    from modetable.output import atomic
    from modetable.output.stops import Terminated

    signum = getattr(signal, signal_name)
    swallowed: list[type] = []
    monkeypatch.setattr("sys.unraisablehook", lambda report: swallowed.append(report.exc_type))

    class Finalized:
        def __del__(self) -> None:
            signal.raise_signal(signum)  # the handler runs here, inside the finalizer

    create = atomic._create_temporary

    def create_after_a_finalizer(target, created):
        Finalized()  # freed at once: its finalizer runs
        return create(target, created)

    monkeypatch.setattr(atomic, "_create_temporary", create_after_a_finalizer)
    out = tmp_path / "out"
    argv = ["docs", "--docs-dir", str(ROOT / "docs"), "--ome-version", "v1.2.2", "--out", str(out)]
    # The handler modetable finds when it starts, as under a terminal.
    at_start = signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL
    before = signal.signal(signum, at_start)
    try:
        run = run_cli(*argv)
        assert signal.getsignal(signum) is at_start
    finally:
        signal.signal(signum, before)
    assert (run.code, run.out, run.err) == (code, "", line)
    assert not out.exists()
    assert swallowed == [KeyboardInterrupt if signum == signal.SIGINT else Terminated]


def test_a_stop_is_the_main_threads():
    """A signal's handler runs in the main thread: a command another thread runs
    (through the API) neither raises the stop the main thread has not yet
    reported nor forgets it."""
    import signal
    import threading

    from modetable.output import stops

    seen: list[str] = []

    def in_another_thread() -> None:
        stops.honour()
        stops.forget()
        seen.append("went on")

    with pytest.raises(stops.Terminated):
        stops.ask(signal.SIGTERM)  # the handler, as a signal runs it
    try:
        thread = threading.Thread(target=in_another_thread)
        thread.start()
        thread.join()
        assert seen == ["went on"]
        with pytest.raises(stops.Terminated):
            stops.honour()
    finally:
        stops.forget()
    stops.honour()  # forgotten: nothing raised


def test_a_hangup_ignored_at_the_start_stays_ignored():
    """Under `nohup` a closed terminal must not stop modetable: only a SIGHUP
    that would have killed it unwinds it instead (SIGTERM, at its default here
    whatever the suite inherited, is taken)."""
    import signal

    from modetable.cli import _signals_unwind

    before = {
        signal.SIGHUP: signal.signal(signal.SIGHUP, signal.SIG_IGN),
        signal.SIGTERM: signal.signal(signal.SIGTERM, signal.SIG_DFL),
    }
    try:
        with _signals_unwind():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_IGN, signal.SIG_DFL)
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


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


# A write the system refuses past a file-size limit (`ulimit -f`): the write
# fails with EFBIG (Python ignores SIGXFSZ, which would kill it).
FILE_SIZE_LIMIT = 16 * 1024
TOO_LARGE = "modetable: error: cannot write to standard output: File too large\n"
AUDIT_FORMATS = ["table", "json", "yaml", "html", "sarif", "junit", "markdown", "github"]
# Python's text layer over unbuffered bytes (PYTHONUNBUFFERED=1, `python -u`)
# dropped the rest of a short write; over buffered bytes the error came at once.
BUFFERING = {"buffered": {}, "unbuffered": {"PYTHONUNBUFFERED": "1"}}


def _under_a_file_size_limit(
    argv: list[str], stdout: Path, *, env: dict[str, str] | None = None, script: str | None = None
) -> tuple[int, str]:
    """modetable as a real process, standard output written to the file `stdout`,
    every file it writes limited to FILE_SIZE_LIMIT bytes: its exit code and stderr."""
    import resource
    import subprocess
    import sys

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))

    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src"), **READ_ONLY_BYTECODE}
    environment.pop("PYTHONUNBUFFERED", None)  # buffered unless `env` says otherwise
    environment.update(env or {})
    command = ["-c", script] if script is not None else ["-m", "modetable"]
    with stdout.open("wb") as out:
        done = subprocess.run(
            [sys.executable, *command, *argv],
            stdout=out,
            stderr=subprocess.PIPE,
            preexec_fn=limited,
            cwd=ROOT,
            env=environment,
            timeout=120,
        )
    return done.returncode, done.stderr.decode()


def _fleet(tmp_path: Path, count: int = 100) -> Path:
    """`count` InferenceServices: every format's output of their audit passes the
    limit (16 KiB) more than twice over (github's, the shortest: 36 KB)."""
    documents = [isvc_doc(f"svc-{i}", engine={}) for i in range(count)]
    return write(tmp_path, "fleet.yaml", _dump(*documents))


@pytest.mark.parametrize("buffering", BUFFERING)
@pytest.mark.parametrize("output", AUDIT_FORMATS)
def test_a_file_size_limit_on_standard_output_is_an_error_in_every_format(
    tmp_path, output, buffering
):
    """The output stops where the system refused it and the run says so, exit 2:
    never a verdict (1, or 0 for -o html) on half a document."""
    fleet = _fleet(tmp_path)
    stdout = tmp_path / "stdout"
    run = _under_a_file_size_limit(
        ["audit", "-o", output, str(fleet)], stdout, env=BUFFERING[buffering]
    )
    assert run == (2, TOO_LARGE)
    assert stdout.stat().st_size == FILE_SIZE_LIMIT


@pytest.mark.parametrize("buffering", BUFFERING)
@pytest.mark.parametrize(
    "argv", [["--help"], ["audit", "--help"], ["completion", "bash"]], ids=" ".join
)
def test_help_past_a_file_size_limit_is_an_error(tmp_path, argv, buffering):
    """--help ends in its own exit (SystemExit): its output is flushed and
    checked there too, not left to the flush at exit, which discards errors."""
    stdout = tmp_path / "stdout"
    limit = 1024
    assert len(run_cli(*argv).out) > limit
    script = (
        "import resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"
        "from modetable.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    run = _under_a_file_size_limit(argv, stdout, env=BUFFERING[buffering], script=script)
    assert run == (2, TOO_LARGE)
    assert stdout.stat().st_size == limit


@pytest.mark.parametrize("output", ["json", "yaml"])
def test_a_file_size_limit_on_the_spool_is_an_error(tmp_path, output):
    """JSON and YAML are spooled whole before they reach stdout (a temporary file
    past SPOOL_BYTES): a spool the system refuses is one line naming its folder
    (it was an internal error, exit 3), and stdout stays empty."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    fleet = _fleet(tmp_path)
    stdout = tmp_path / "stdout"
    # The spool rolls over to a file at 1 KiB here, not 8 MiB: the fleet stays small.
    script = (
        "import sys\n"
        "import modetable.cli.audit\n"
        "modetable.cli.audit.SPOOL_BYTES = 1024\n"
        "from modetable.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    run = _under_a_file_size_limit(
        ["audit", "-o", output, str(fleet)], stdout, env={"TMPDIR": str(temporary)}, script=script
    )
    assert run == (
        2,
        f"modetable: error: cannot write to a temporary file in {temporary}: File too large\n",
    )
    assert stdout.read_bytes() == b""
    assert list(temporary.iterdir()) == []


def _first_page_past_the_limit(
    rules: Path, docs: Path, version: str | None, out: Path | None
) -> Path:
    """The first page `docs` writes whose new text passes FILE_SIZE_LIMIT."""
    from modetable.docs import pages
    from modetable.rules import load_ruleset

    ruleset = load_ruleset(rules)
    rendered = pages.render_folder(ruleset, docs, version or ruleset.default_version, out)
    return next(p.target for p in rendered if p.changed and len(p.after.encode()) > FILE_SIZE_LIMIT)


def test_a_file_size_limit_on_docs_out_writes_no_page(tmp_path):
    """`docs --out` past the limit: the page that passes it is named, and no page,
    temporary file or folder is left (atomic.py stages all pages first)."""
    out = tmp_path / "out"
    stdout = tmp_path / "stdout"
    argv = ["docs", "--docs-dir", str(ROOT / "docs"), "--ome-version", "v1.2.2", "--out", str(out)]
    first = _first_page_past_the_limit(RULES, ROOT / "docs", "v1.2.2", out)
    run = _under_a_file_size_limit(argv, stdout)
    assert run == (2, f"modetable: error: {first}: cannot write: File too large\n")
    assert not out.exists()
    assert stdout.read_bytes() == b""


def test_a_file_size_limit_on_docs_in_place_leaves_every_page_as_it_was(tmp_path):
    """`docs` rewriting stale pages in place past the limit: every page, and the
    folder, as they were (no temporary file left)."""
    import shutil

    from conftest import rules_copy

    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    old = "  - name: VirtualDeployment\n    status: legacy\n"
    rules = rules_copy(
        tmp_path / "rules" / "modes.yaml", (old, old.replace("legacy", "deprecated"))
    )
    first = _first_page_past_the_limit(rules, tmp_path / "docs", None, None)
    before = _tree(tmp_path)
    run = _under_a_file_size_limit(
        ["docs", "--docs-dir", str(tmp_path / "docs"), "--rules", str(rules)], tmp_path / "stdout"
    )
    assert run == (2, f"modetable: error: {first}: cannot write: File too large\n")
    (tmp_path / "stdout").unlink()
    assert _tree(tmp_path) == before


def test_standard_output_continues_every_short_write():
    """Bytes below that take a few at a time (a pipe or file near its limit,
    unbuffered): the rest of each write follows, none dropped, none doubled."""
    import io

    from modetable.cli.streams import Output

    class Trickle(io.RawIOBase):
        def __init__(self) -> None:
            self.taken = bytearray()

        def writable(self) -> bool:
            return True

        def write(self, data) -> int:
            self.taken += bytes(data[:3])
            return min(3, len(data))

    raw = Trickle()
    output = Output(io.TextIOWrapper(raw, encoding="utf-8", write_through=True), "standard output")
    assert output.write("héllo\nwörld ✓\n") == len("héllo\nwörld ✓\n")
    output.flush()
    assert bytes(raw.taken) == "héllo\nwörld ✓\n".encode()
