"""The cache of loaded rules: used only when it holds exactly what loading the
file would give, rebuilt on any doubt, and invisible in every answer and error."""

from __future__ import annotations

import os
import pickle
import shutil
import stat
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT, RULES, run_cli
from test_import_circles import _graph

from modetable.errors import ErrorList
from modetable.rules import cache, load_ruleset
from modetable.rules.model import RuleFile

CORPUS = ROOT / "tests" / "rules_corpus"
MINIMAL = CORPUS / "minimal.yaml"


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    """A cache folder of the test's own."""
    place = tmp_path / "cache"
    monkeypatch.setenv(cache.FOLDER_VARIABLE, str(place))
    return place


@pytest.fixture
def rules_copy(tmp_path) -> Path:
    path = tmp_path / "modes.yaml"
    shutil.copyfile(RULES, path)
    return path


class _Parses:
    """Counts the loader's runs (a cache hit runs none)."""

    def __init__(self, monkeypatch) -> None:
        import modetable.rules.load as load

        self.count = 0
        real = load.parse_rules

        def counted(text, file):
            self.count += 1
            return real(text, file)

        monkeypatch.setattr(load, "parse_rules", counted)


@pytest.fixture
def parses(monkeypatch) -> _Parses:
    return _Parses(monkeypatch)


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("rules-*.pickle"))


def test_the_fingerprinted_modules_are_the_loader_and_all_it_imports():
    graph = _graph()
    package = ROOT / "src" / "modetable"
    packages = {
        ".".join(("modetable", *p.parent.relative_to(package).parts))
        for p in package.rglob("__init__.py")
    }
    seen: set[str] = set()
    pending = ["modetable.rules.load"]
    while pending:
        name = pending.pop()
        if name not in seen:
            seen.add(name)
            pending.extend(graph[name])
    as_files = {
        name.removeprefix("modetable.").replace(".", "/")
        + ("/__init__.py" if name in packages else ".py")
        for name in seen
    }
    assert set(cache.MODULES) == as_files


def test_a_second_load_is_read_from_the_cache_and_equals_the_first(folder, rules_copy, parses):
    first = load_ruleset(rules_copy)
    assert parses.count == 1
    assert [p.name for p in _entries(folder)] == [cache.entry_path(folder, str(rules_copy)).name]
    second = load_ruleset(rules_copy)
    assert parses.count == 1
    assert second.rules == first.rules
    assert second.document == first.document
    assert second.file == first.file == str(rules_copy)
    assert second.bundled is first.bundled is True  # the bundled rules, byte for byte
    # Positions survive: a message about the rules names the same place.
    assert second.locate("modes", 1, "name") == first.locate("modes", 1, "name")
    assert second.at("v1.2.2").modes_in_force.keys() == first.at("v1.2.2").modes_in_force.keys()


def test_without_the_cache_nothing_is_written_and_every_load_parses(
    folder, rules_copy, parses, monkeypatch
):
    monkeypatch.setenv(cache.CACHE_VARIABLE, "0")
    load_ruleset(rules_copy)
    load_ruleset(rules_copy)
    assert parses.count == 2
    assert not folder.exists()


def test_a_changed_rules_file_is_reloaded(folder, rules_copy, parses):
    load_ruleset(rules_copy)
    text = rules_copy.read_text()
    old = "no runtime found to support model {format}"
    assert old in text
    rules_copy.write_text(text.replace(old, "NO RUNTIME FOUND {format}", 1))
    changed = load_ruleset(rules_copy)
    assert parses.count == 2
    assert any("NO RUNTIME FOUND" in m.text for m in changed.rules.messages.values())
    # and the entry now holds the new bytes
    load_ruleset(rules_copy)
    assert parses.count == 2


def test_a_file_made_invalid_gives_the_loaders_errors_each_time(folder, rules_copy, parses):
    load_ruleset(rules_copy)
    rules_copy.write_text(rules_copy.read_text().replace("default_version:", "default_versio:", 1))
    errors = []
    for _ in range(2):
        with pytest.raises(ErrorList) as caught:
            load_ruleset(rules_copy)
        errors.append(exc_lines(caught.value))
    assert parses.count == 3
    assert errors[0] == errors[1]
    assert errors[0] == [f"{rules_copy}:{line}" for line in _reference_errors(rules_copy)]


def exc_lines(error: ErrorList) -> list[str]:
    return [str(e.location) + ": " + e.message for e in error.errors]


def _reference_errors(path: Path) -> list[str]:
    """The loader's own errors for `path` (no cache involved), without the file name."""
    from modetable.rules.load import parse_rules, read_rules_text

    try:
        parse_rules(read_rules_text(path), str(path))
    except ErrorList as exc:
        return [line.removeprefix(f"{path}:") for line in exc_lines(exc)]
    raise AssertionError("the file loads")


def _damaged(valid: bytes) -> dict[str, bytes]:
    """Entries that must not be used: each is rebuilt."""
    other_version = valid.replace(cache.FORMAT, cache.FORMAT.replace(b"1\n", b"0\n"), 1)
    prefix_end = len(valid) - len(pickle.dumps(None))  # the payload is at least this long
    return {
        "empty": b"",
        "garbage": b"\x00\xffnot a cache entry" * 10,
        "truncated in the header": valid[:20],
        "truncated in the pickle": valid[: prefix_end - 30],
        "another format": other_version,
        "valid prefix, not rules": _with_payload(valid, pickle.dumps({"rules": 1})),
        "valid prefix, a broken pickle": _with_payload(valid, b"\x80\x05garbage"),
    }


def _with_payload(valid: bytes, payload: bytes) -> bytes:
    loaded = pickle.loads(valid[_prefix_length(valid) :])
    assert isinstance(loaded[0], RuleFile)
    return valid[: _prefix_length(valid)] + payload


def _prefix_length(valid: bytes) -> int:
    """Seven length-prefixed parts, then the pickle."""
    at = 0
    for _ in range(7):
        at += 8 + int.from_bytes(valid[at : at + 8], "big")
    return at


@pytest.mark.parametrize(
    "damage",
    [
        "empty",
        "garbage",
        "truncated in the header",
        "truncated in the pickle",
        "another format",
        "valid prefix, not rules",
        "valid prefix, a broken pickle",
    ],
)
def test_a_damaged_entry_is_ignored_and_rebuilt(folder, rules_copy, parses, damage):
    reference = load_ruleset(rules_copy)
    (entry,) = _entries(folder)
    valid = entry.read_bytes()
    entry.write_bytes(_damaged(valid)[damage])
    again = load_ruleset(rules_copy)
    assert parses.count == 2
    assert again.rules == reference.rules
    assert entry.read_bytes() == valid  # rewritten whole
    load_ruleset(rules_copy)
    assert parses.count == 2


def test_an_entry_of_another_modetable_python_or_model_is_not_read(
    folder, rules_copy, parses, monkeypatch
):
    load_ruleset(rules_copy)
    for name, value in [
        ("__version__", "0.0.0-other"),
        ("_fingerprint", lambda: b"another model"),
    ]:
        with monkeypatch.context() as patch:
            patch.setattr(cache, name, value)
            load_ruleset(rules_copy)
    with monkeypatch.context() as patch:
        patch.setattr(sys, "version", sys.version + " (another build)")
        patch.setattr(cache, "entry_path", lambda folder, file: _entries(folder)[0])
        load_ruleset(rules_copy)
    assert parses.count == 4


def test_the_fingerprint_follows_the_loading_modules_source(tmp_path, monkeypatch):
    package = tmp_path / "modetable"
    shutil.copytree(Path(cache.__file__).parents[1], package)
    copy = package / "rules" / "cache.py"
    monkeypatch.setattr(cache, "__file__", str(copy))
    before = cache._fingerprint()
    model = package / "rules" / "model" / "selection.py"
    model.write_text(model.read_text() + "\n# a change without a release\n")
    assert cache._fingerprint() != before


def test_a_file_under_another_path_gets_its_own_entry(folder, rules_copy, tmp_path, parses):
    other = tmp_path / "other" / "modes.yaml"
    other.parent.mkdir()
    shutil.copyfile(rules_copy, other)
    first, second = load_ruleset(rules_copy), load_ruleset(other)
    assert parses.count == 2
    assert len(_entries(folder)) == 2
    assert second.file == str(other)
    assert second.locate("modes").file == str(other)
    assert first.locate("modes").file == str(rules_copy)


def test_a_folder_everyone_may_write_is_not_used(folder, rules_copy, parses):
    folder.mkdir()
    folder.chmod(0o777)
    load_ruleset(rules_copy)
    load_ruleset(rules_copy)
    assert parses.count == 2
    assert _entries(folder) == []


def test_an_entry_everyone_may_write_is_not_read(folder, rules_copy, parses):
    load_ruleset(rules_copy)
    (entry,) = _entries(folder)
    entry.chmod(0o666)
    load_ruleset(rules_copy)
    assert parses.count == 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_an_entry_that_is_a_fifo_is_not_waited_on_and_is_replaced(folder, rules_copy, parses):
    """Opened without waiting: a FIFO there blocked every command."""
    reference = load_ruleset(rules_copy)
    (entry,) = _entries(folder)
    entry.unlink()
    os.mkfifo(entry)
    again = load_ruleset(rules_copy)
    assert parses.count == 2
    assert again.rules == reference.rules
    assert entry.is_file()  # rewritten as an entry


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to chown")
def test_an_entry_or_folder_owned_by_someone_else_is_not_read(folder, rules_copy, parses):
    load_ruleset(rules_copy)
    (entry,) = _entries(folder)
    os.chown(entry, 12345, 12345)
    load_ruleset(rules_copy)
    assert parses.count == 2
    os.chown(folder, 12345, 12345)
    load_ruleset(rules_copy)
    load_ruleset(rules_copy)
    assert parses.count == 4


def test_a_folder_that_cannot_be_made_means_no_cache(tmp_path, rules_copy, parses, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv(cache.FOLDER_VARIABLE, str(blocker / "cache"))
    assert load_ruleset(rules_copy).file == str(rules_copy)
    load_ruleset(rules_copy)
    assert parses.count == 2


def test_a_new_folder_is_private(folder, rules_copy):
    load_ruleset(rules_copy)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_entries_left_for_a_month_are_pruned_when_another_is_written(folder, rules_copy):
    folder.mkdir(mode=0o700)
    old, recent, leftover = (
        folder / n for n in ("rules-0.pickle", "rules-1.pickle", ".rules-x.tmp")
    )
    for path in (old, recent, leftover):
        path.write_bytes(b"x")
    month = 31 * 24 * 3600
    for path in (old, leftover):
        os.utime(path, (path.stat().st_atime - month, path.stat().st_mtime - month))
    unrelated = folder / "notes.txt"
    unrelated.write_text("kept")
    os.utime(unrelated, (0, 0))
    load_ruleset(rules_copy)
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["notes.txt", "rules-1.pickle", cache.entry_path(folder, str(rules_copy)).name]
    )


def test_the_folder_follows_the_platforms_rules(monkeypatch, tmp_path):
    for name in (cache.CACHE_VARIABLE, cache.FOLDER_VARIABLE, "XDG_CACHE_HOME", "LOCALAPPDATA"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(sys, "platform", "linux")
    assert cache.cache_folder() == tmp_path / ".cache" / "modetable"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert cache.cache_folder() == tmp_path / ".cache" / "modetable"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_folder() == tmp_path / "xdg" / "modetable"
    monkeypatch.setattr(sys, "platform", "darwin")
    assert cache.cache_folder() == tmp_path / "Library" / "Caches" / "modetable"
    monkeypatch.setattr(sys, "platform", "win32")
    assert cache.cache_folder() is None
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "local"))
    assert cache.cache_folder() == tmp_path / "local" / "modetable" / "Cache"
    monkeypatch.setenv(cache.FOLDER_VARIABLE, str(tmp_path / "mine"))
    assert cache.cache_folder() == tmp_path / "mine"
    monkeypatch.setenv(cache.CACHE_VARIABLE, "0")
    assert cache.cache_folder() is None


COMMANDS = [
    ("select", "--isvc", str(EXAMPLES / "inference-service.yaml"), str(EXAMPLES)),
    ("match", "--isvc", str(EXAMPLES / "inference-service.yaml"), str(EXAMPLES)),
    ("effective", "--isvc", str(EXAMPLES / "inference-service.yaml"), str(EXAMPLES)),
    ("rules", "diff", "v1.2.2", "v1.3"),
]


@pytest.mark.parametrize("argv", COMMANDS, ids=[c[0] for c in COMMANDS])
@pytest.mark.parametrize("output", ["table", "json"])
def test_every_answer_is_the_same_with_and_without_the_cache(
    folder, monkeypatch, argv, output, rules_copy
):
    runs = []
    for setting in ("0", "1", "1"):  # off, then a miss and a hit
        monkeypatch.setenv(cache.CACHE_VARIABLE, setting)
        runs.append(run_cli("--rules", str(rules_copy), *argv, "-o", output))
    assert runs[0] == runs[1] == runs[2]
    assert runs[0].code in (0, 1)
    assert len(_entries(folder)) == 1


def test_every_error_is_the_same_with_and_without_the_cache(folder, monkeypatch):
    broken = sorted((CORPUS / "broken").glob("*.yaml"))
    assert broken
    for path in broken:
        runs = []
        for setting in ("0", "1", "1"):
            monkeypatch.setenv(cache.CACHE_VARIABLE, setting)
            runs.append(run_cli("--rules", str(path), "match", "--isvc", "x", "-"))
        assert runs[0] == runs[1] == runs[2], path.name
        assert runs[0].code == 2, path.name
    assert _entries(folder) == []


def test_an_unreadable_rules_file_is_the_same_error_as_without_the_cache(
    folder, tmp_path, monkeypatch
):
    absent = tmp_path / "absent.yaml"
    runs = []
    for setting in ("0", "1"):
        monkeypatch.setenv(cache.CACHE_VARIABLE, setting)
        runs.append(run_cli("--rules", str(absent), "match", "--isvc", "x", "-"))
    assert runs[0] == runs[1]
    assert runs[1].code == 2
    assert runs[1].err == f"modetable: error: {absent}: no such file or directory\n"
