"""The cache of loaded rules: used only when it holds exactly what loading the
file would give, rebuilt on any doubt, and invisible in every answer and error."""

from __future__ import annotations

import os
import pickle
import shutil
import stat
import sys
import time
from pathlib import Path

import attrs
import pytest
from conftest import EXAMPLES, ROOT, RULES, Run, run_cli, write
from package_source import import_graph

from modetable.errors import ErrorList
from modetable.parsing import yamlio
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


@pytest.fixture
def small_rules(tmp_path) -> Path:
    """A small complete rules file, for what the cache does with its folder and
    entries whatever the rules hold: parsed in a hundredth of the shipped
    rules' time (0.01 s, not 0.2-0.3 s), and most of these tests parse twice."""
    path = tmp_path / "modes.yaml"
    shutil.copyfile(MINIMAL, path)
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
    graph = import_graph()
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


def test_a_process_unpickles_an_entry_once_and_still_checks_it_each_load(
    folder, small_rules, parses, monkeypatch
):
    """The Python API called in a loop: the entry read again is the one this
    process already made from those bytes (the same objects, no unpickling),
    while the folder, the entry and its header are checked on every load."""
    unpickled: list[int] = []
    real = cache._loads
    monkeypatch.setattr(cache, "_loads", lambda payload: unpickled.append(1) or real(payload))
    cache._entry.cache_clear()
    load_ruleset(small_rules)  # parsed and kept
    second = load_ruleset(small_rules)
    third = load_ruleset(small_rules)
    assert (parses.count, len(unpickled)) == (1, 1)
    assert third.rules is second.rules and third.document is second.document
    # An entry others may write is refused on the next load all the same.
    (entry,) = _entries(folder)
    entry.chmod(0o666)
    said: list[str] = []
    load_ruleset(small_rules, said.append)
    assert said == [f"the rules cache entry {entry} is writable by everyone; not used"]
    assert parses.count == 2


def test_without_the_cache_nothing_is_written_and_every_load_parses(
    folder, small_rules, parses, monkeypatch
):
    monkeypatch.setenv(cache.CACHE_VARIABLE, "0")
    load_ruleset(small_rules)
    load_ruleset(small_rules)
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
    other_version = valid.replace(cache.FORMAT, cache.FORMAT.replace(b" 3\n", b" 2\n"), 1)
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


# A header that matches and a payload that is not rules: not something modetable wrote.
HOLDS_NO_RULES = {
    "truncated in the pickle",
    "valid prefix, not rules",
    "valid prefix, a broken pickle",
}


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
def test_a_damaged_entry_is_ignored_and_rebuilt(folder, small_rules, parses, damage):
    reference = load_ruleset(small_rules)
    (entry,) = _entries(folder)
    valid = entry.read_bytes()
    entry.write_bytes(_damaged(valid)[damage])
    said: list[str] = []
    again = load_ruleset(small_rules, said.append)
    assert parses.count == 2
    assert said == (
        [f"the rules cache entry {entry} does not hold loaded rules; not used"]
        if damage in HOLDS_NO_RULES
        else []
    )
    assert again.rules == reference.rules
    assert entry.read_bytes() == valid  # rewritten whole
    load_ruleset(small_rules)
    assert parses.count == 2


def test_an_entry_of_another_modetable_python_or_model_is_not_read(
    folder, small_rules, parses, monkeypatch
):
    load_ruleset(small_rules)
    for name, value in [
        ("__version__", "0.0.0-other"),
        ("_fingerprint", lambda: b"another model"),
    ]:
        with monkeypatch.context() as patch:
            patch.setattr(cache, name, value)
            load_ruleset(small_rules)
    with monkeypatch.context() as patch:
        patch.setattr(sys, "version", sys.version + " (another build)")
        patch.setattr(cache, "entry_path", lambda folder, file: _entries(folder)[0])
        load_ruleset(small_rules)
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


def test_a_file_under_another_path_gets_its_own_entry(folder, small_rules, tmp_path, parses):
    other = tmp_path / "other" / "modes.yaml"
    other.parent.mkdir()
    shutil.copyfile(small_rules, other)
    first, second = load_ruleset(small_rules), load_ruleset(other)
    assert parses.count == 2
    assert len(_entries(folder)) == 2
    assert second.file == str(other)
    assert second.locate("modes").file == str(other)
    assert first.locate("modes").file == str(small_rules)


GROUP = "is writable by its group"
EVERYONE = "is writable by everyone"


def _mode_id(value: int | str) -> str:
    return oct(value) if isinstance(value, int) else value.rsplit(" ", 1)[-1]


@pytest.mark.parametrize(
    ("mode", "why"),
    [
        (0o770, GROUP),
        (0o775, GROUP),
        (0o730, GROUP),
        (0o1770, GROUP),
        (0o2770, GROUP),
        (0o777, EVERYONE),
        (0o1777, EVERYONE),
        (0o703, EVERYONE),
    ],
    ids=_mode_id,
)
def test_a_folder_others_may_write_is_not_used(folder, small_rules, parses, mode, why):
    folder.mkdir()
    folder.chmod(mode)
    said: list[str] = []
    for _ in range(2):
        load_ruleset(small_rules, said.append)
    assert parses.count == 2
    # One warning a load (a run), each time; the folder is the user's to fix.
    assert said == [f"the rules cache folder {folder} {why}; not used"] * 2
    assert list(folder.iterdir()) == []
    assert stat.S_IMODE(folder.stat().st_mode) == mode


@pytest.mark.parametrize("mode", [0o700, 0o711, 0o750, 0o755], ids=oct)
def test_a_folder_only_its_owner_may_write_is_used(folder, small_rules, parses, mode):
    folder.mkdir()
    folder.chmod(mode)
    said: list[str] = []
    load_ruleset(small_rules, said.append)
    load_ruleset(small_rules, said.append)
    assert (parses.count, said) == (1, [])


@pytest.mark.parametrize(
    ("mode", "why"),
    [(0o660, GROUP), (0o664, GROUP), (0o620, GROUP), (0o666, EVERYONE), (0o602, EVERYONE)],
    ids=_mode_id,
)
def test_an_entry_others_may_write_is_not_read_and_is_rebuilt_private(
    folder, small_rules, parses, mode, why
):
    reference = load_ruleset(small_rules)
    (entry,) = _entries(folder)
    entry.chmod(mode)
    said: list[str] = []
    again = load_ruleset(small_rules, said.append)
    assert said == [f"the rules cache entry {entry} {why}; not used"]
    assert parses.count == 2
    assert again.rules == reference.rules
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    load_ruleset(small_rules, said.append)
    assert (parses.count, len(said)) == (2, 1)


@pytest.mark.parametrize("umask", [0o000, 0o002, 0o022, 0o077, 0o277], ids=oct)
def test_a_new_folder_and_entry_are_private_whatever_the_umask(folder, small_rules, umask):
    previous = os.umask(umask)
    try:
        load_ruleset(small_rules)
    finally:
        os.umask(previous)
    (entry,) = _entries(folder)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600


@pytest.mark.skipif(
    not hasattr(os, "getuid") or os.getuid() != 0,
    reason="giving a file to another user needs root",
)
def test_an_entry_or_folder_of_another_user_is_not_read(folder, small_rules, parses):
    load_ruleset(small_rules)
    (entry,) = _entries(folder)
    os.chown(entry, 12345, 12345)
    said: list[str] = []
    load_ruleset(small_rules, said.append)
    assert said == [f"the rules cache entry {entry} belongs to another user (uid 12345); not used"]
    assert parses.count == 2
    assert entry.stat().st_uid == os.getuid()  # rebuilt as the user's own
    said.clear()
    os.chown(folder, 12345, 12345)
    load_ruleset(small_rules, said.append)
    load_ruleset(small_rules, said.append)
    warned = f"the rules cache folder {folder} belongs to another user (uid 12345); not used"
    assert said == [warned] * 2
    assert parses.count == 4


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_an_entry_that_is_a_fifo_is_not_waited_on_and_is_replaced(folder, small_rules, parses):
    """Looked at before it is opened: a FIFO there blocked every command."""
    reference = load_ruleset(small_rules)
    (entry,) = _entries(folder)
    entry.unlink()
    os.mkfifo(entry, 0o600)
    said: list[str] = []
    again = load_ruleset(small_rules, said.append)
    assert said == [f"the rules cache entry {entry} is not a regular file; not used"]
    assert parses.count == 2
    assert again.rules == reference.rules
    assert entry.is_file()  # rewritten as an entry


def test_an_entry_that_is_a_folder_is_refused_each_run(folder, small_rules, parses):
    folder.mkdir(mode=0o700)
    entry = cache.entry_path(folder, str(small_rules))
    entry.mkdir(mode=0o700)
    said: list[str] = []
    load_ruleset(small_rules, said.append)
    load_ruleset(small_rules, said.append)
    assert said == [f"the rules cache entry {entry} is not a regular file; not used"] * 2
    assert parses.count == 2
    assert entry.is_dir()
    assert sorted(p.name for p in folder.iterdir()) == [entry.name]  # no temporary file left


def test_a_cache_folder_that_is_a_file_is_not_used(folder, small_rules, parses):
    folder.write_text("the user's own file\n")
    said: list[str] = []
    load_ruleset(small_rules, said.append)
    assert said == [f"the rules cache folder {folder} is not a folder; not used"]
    assert folder.read_text() == "the user's own file\n"


def test_a_link_at_the_entry_is_replaced_and_its_target_kept(folder, small_rules, parses, tmp_path):
    """Reading refused the link and writing followed it: the target was overwritten
    (run as root with a link to /dev/zero, the device itself was replaced)."""
    reference = load_ruleset(small_rules)
    (entry,) = _entries(folder)
    target = tmp_path / "precious.txt"
    target.write_text("the user's own file\n")
    target.chmod(0o644)
    entry.unlink()
    entry.symlink_to(target)
    said: list[str] = []
    again = load_ruleset(small_rules, said.append)
    assert said == [f"the rules cache entry {entry} is a symbolic link; not used"]
    assert target.read_text() == "the user's own file\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert not entry.is_symlink()
    assert stat.S_IMODE(entry.lstat().st_mode) == 0o600
    assert again.rules == reference.rules
    load_ruleset(small_rules)
    assert parses.count == 2


def test_a_dangling_link_at_the_entry_creates_nothing(folder, small_rules, tmp_path):
    folder.mkdir(mode=0o700)
    entry = cache.entry_path(folder, str(small_rules))
    target = tmp_path / "not-there"
    entry.symlink_to(target)
    said: list[str] = []
    load_ruleset(small_rules, said.append)
    assert said == [f"the rules cache entry {entry} is a symbolic link; not used"]
    assert not os.path.lexists(target)
    assert entry.is_file() and not entry.is_symlink()


def test_a_link_at_the_temporary_name_is_never_written_through(
    folder, small_rules, tmp_path, monkeypatch
):
    """The temporary file is created exclusively: a name taken (by a link too) is
    passed over, never opened."""
    folder.mkdir(mode=0o700)
    entry = cache.entry_path(folder, str(small_rules))
    monkeypatch.setattr(cache, "_token", lambda: "00000000")
    target = tmp_path / "not-there"
    (folder / f".{entry.name}.00000000.tmp").symlink_to(target)
    assert load_ruleset(small_rules).file == str(small_rules)
    assert not os.path.lexists(target)
    assert not os.path.lexists(entry)  # no free name: no entry


def test_pruning_removes_links_not_what_they_point_at(folder, small_rules, tmp_path):
    folder.mkdir(mode=0o700)
    target = tmp_path / "precious.txt"
    target.write_text("the user's own file\n")
    month_ago = time.time() - 31 * 24 * 3600
    os.utime(target, (month_ago, month_ago))
    old_link, new_link = folder / "rules-0.pickle", folder / "rules-1.pickle"
    for link in (old_link, new_link):
        link.symlink_to(target)
    os.utime(old_link, (month_ago, month_ago), follow_symlinks=False)
    load_ruleset(small_rules)
    # Each link judged by its own age (the target's is a month), removed as a link.
    assert not os.path.lexists(old_link)
    assert new_link.is_symlink()
    assert target.read_text() == "the user's own file\n"


def test_a_huge_entry_is_refused_by_its_size_unread(folder, small_rules, parses, monkeypatch):
    """A 3 GB entry was read whole (2.9 GB of memory, 32 s) before its header
    was compared: it is refused by its size, never opened."""
    load_ruleset(small_rules)
    (entry,) = _entries(folder)
    valid = entry.read_bytes()
    os.truncate(entry, 3 * 1024**3)  # sparse: its header still the right one
    opened: list[str] = []
    real_open = os.open

    def recording(path, flags, mode=0o777, *, dir_fd=None):
        opened.append(os.fsdecode(path))
        return real_open(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", recording)
    said: list[str] = []
    load_ruleset(small_rules, said.append)
    monkeypatch.undo()
    assert said == [
        f"the rules cache entry {entry} is larger than the limit of 16777216 bytes; not used"
    ]
    assert entry.name not in opened and str(entry) not in opened
    assert any(name.startswith(f".{entry.name}.") for name in opened)  # the new one written
    assert parses.count == 2
    assert entry.read_bytes() == valid


def test_rules_whose_entry_would_be_too_large_are_not_kept(
    folder, small_rules, parses, monkeypatch
):
    load_ruleset(small_rules)
    (entry,) = _entries(folder)
    size = entry.stat().st_size
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", size - 1)
    said: list[str] = []
    load_ruleset(small_rules, said.append)
    load_ruleset(small_rules, said.append)
    # Refused by its size once, then removed, as the rules cannot be kept.
    assert said == [
        f"the rules cache entry {entry} is larger than the limit of {size - 1} bytes; not used"
    ]
    assert parses.count == 3
    assert not os.path.lexists(entry)


class _Runs:
    """An object whose unpickling calls `call(*args)`."""

    def __init__(self, call, *args) -> None:
        self.call, self.args = call, args

    def __reduce__(self):
        return self.call, self.args


def _planted(kind: str, marker: Path) -> bytes:
    """A pickle that, loaded by pickle.loads, touches `marker` (or, for the last
    kind, hands over a module of the rules' own namespace)."""
    if kind == "os.system":
        return pickle.dumps((_Runs(os.system, f"touch '{marker}'"), {}, ()))
    if kind == "builtins.exec":
        return pickle.dumps((_Runs(exec, f"open({str(marker)!r}, 'w').close()"), {}, ()))
    if kind == "a model class's reduce":
        # A class of the rules, reached by name, whose "class" is a function.
        return pickle.dumps((_Runs(Path.touch, marker), {}, ()))
    assert kind == "a module the model imports"
    return b"\x80\x04cmodetable.rules.model\nattrs\n."


PLANTED = ["os.system", "builtins.exec", "a model class's reduce", "a module the model imports"]


@pytest.mark.parametrize("kind", PLANTED)
def test_a_planted_pickle_runs_nothing_and_the_rules_are_rebuilt(
    folder, small_rules, parses, tmp_path, kind
):
    """The second wall: an entry with the right header, in a folder and a file
    that pass every check, still runs no code."""
    reference = load_ruleset(small_rules)
    (entry,) = _entries(folder)
    valid = entry.read_bytes()
    marker = tmp_path / "ran"
    planted = _planted(kind, marker)
    if kind != "a module the model imports":  # the pickle is live: plain pickle runs it
        pickle.loads(planted)
        assert marker.exists()
        marker.unlink()
    entry.write_bytes(valid[: _prefix_length(valid)] + planted)
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    said: list[str] = []
    again = load_ruleset(small_rules, said.append)
    assert not marker.exists()
    assert said == [f"the rules cache entry {entry} does not hold loaded rules; not used"]
    assert parses.count == 2
    assert again.rules == reference.rules
    assert entry.read_bytes() == valid


@pytest.mark.parametrize("place", ["document", "findings"])
@pytest.mark.parametrize("kind", [*PLANTED, "not a document"])
def test_a_planted_document_or_section_runs_nothing_and_is_read_from_the_rules(
    folder, rules_copy, parses, tmp_path, kind, place
):
    """The entry's document, and each section no command about one
    InferenceService reads, is pickled on its own and unpickled when first
    read, by the same unpickler: one planted there runs nothing either, and is
    read from the rules file instead."""
    reference = load_ruleset(rules_copy)
    (entry,) = _entries(folder)
    valid = entry.read_bytes()
    rules, later, document, charges = pickle.loads(valid[_prefix_length(valid) :])
    assert tuple(later) == ("docs", "findings", "suppression")
    assert rules.docs is rules.findings is rules.suppression is None
    assert pickle.loads(document) == reference.document
    assert pickle.loads(later["findings"]) == reference.rules.findings
    marker = tmp_path / "ran"
    planted = pickle.dumps(["a list"]) if kind == "not a document" else _planted(kind, marker)
    if place == "document":
        document = planted
    else:
        later = {**later, place: planted}
    entry.write_bytes(
        valid[: _prefix_length(valid)] + pickle.dumps((rules, later, document, charges))
    )
    said: list[str] = []
    again = load_ruleset(rules_copy, said.append)
    assert (parses.count, said) == (1, [])  # the rules read from the entry
    assert again.rules.components == reference.rules.components
    if place == "document" or kind != "not a document":
        assert again.document == reference.document
        assert again.rules == reference.rules
        assert again.locate("modes", 1, "name") == reference.locate("modes", 1, "name")
        assert not marker.exists()
        assert said == [f"the rules cache entry {entry} does not hold loaded rules; not used"]
        assert parses.count == 2
    else:  # data of the rules' own classes, only not what was kept: held as read
        assert again.rules.findings == ["a list"]


def test_the_header_is_compared_before_the_payload_is_unpickled(
    folder, small_rules, parses, tmp_path, monkeypatch
):
    load_ruleset(small_rules)
    (entry,) = _entries(folder)
    valid = entry.read_bytes()
    another = valid.replace(cache.FORMAT, cache.FORMAT.replace(b" 3\n", b" 2\n"), 1)
    entry.write_bytes(another[: _prefix_length(valid)] + _planted("os.system", tmp_path / "ran"))
    loads: list[bytes] = []

    class Recording(cache._Unpickler):
        def load(self):
            loads.append(b"")
            return super().load()

    monkeypatch.setattr(cache, "_Unpickler", Recording)
    said: list[str] = []
    load_ruleset(small_rules, said.append)
    assert (loads, said, parses.count) == ([], [], 2)  # another format: rebuilt in silence
    load_ruleset(small_rules, said.append)
    assert (len(loads), said, parses.count) == (1, [], 2)


def test_only_the_rules_classes_may_be_made():
    import enum

    from modetable.parsing.yamlio import YamlList, YamlMap
    from modetable.rules import model, words
    from modetable.rules.model.selection import Selection

    modules = [*cache._MODEL, words.__name__, yamlio.__name__]
    allowed = {kind for module in modules for kind in cache._allowed(module).values()}
    assert {RuleFile, Selection, words.SelectionStep} <= allowed and {YamlMap, YamlList} <= allowed
    assert {"modetable.rules.model.docs", "modetable.rules.model.findings"} <= cache._MODEL
    for other in ("os", "builtins", "modetable.rules.cache", "modetable.rules.model.nothing"):
        assert cache._allowed(other) == {}
    containers = (YamlMap, YamlList)
    classes = [k for k in allowed if k not in containers and not issubclass(k, enum.Enum)]
    enums = [k for k in allowed if k not in containers and issubclass(k, enum.Enum)]
    assert all(k.__module__.startswith(model.__name__) and attrs.has(k) for k in classes)
    assert all(k.__module__ == words.__name__ for k in enums)


def _alias_nodes(path: Path) -> int:
    """The nodes loading `path` alone adds through aliases."""
    with yamlio.charges_recorded() as charges:
        yamlio.load_documents(path.read_text(encoding="utf-8"), str(path))
    return sum(count for count, _ in charges)


def _three_ways(monkeypatch, *argv: str) -> list:
    """`argv` run with the cache off, then cold and warm (the test's own folder)."""
    runs = []
    for setting in ("0", "1", "1"):
        monkeypatch.setenv(cache.CACHE_VARIABLE, setting)
        runs.append(run_cli(*argv))
    return runs


def _aliased_config(tmp_path: Path) -> Path:
    items = ", ".join(["x"] * 50)
    references = ", ".join(["*b"] * 40)
    return write(tmp_path, "config.yaml", f"kind: ConfigMap\nb: &b [{items}]\nr: [{references}]\n")


def test_the_rules_aliases_count_in_the_runs_budget_when_cached_too(
    folder, rules_copy, tmp_path, monkeypatch
):
    """Issue 28's case: the rules and the manifests together past the alias
    budget only when the rules' aliases count. Their count was spent only when
    the rules were parsed: exit 2, then 1 with an answer from the cache."""
    config = _aliased_config(tmp_path)
    rules_nodes, config_nodes = _alias_nodes(rules_copy), _alias_nodes(config)
    assert rules_nodes > 0 and config_nodes > 0
    argv = (
        *("--rules", str(rules_copy), "select"),
        *("--isvc", str(EXAMPLES / "inference-service.yaml"), str(EXAMPLES), str(config)),
    )
    limit = rules_nodes + config_nodes - 1
    monkeypatch.setattr(yamlio, "MAX_ALIAS_NODES", limit)
    refused = Run(
        2,
        "",
        f"modetable: error: {config}:1:1: YAML aliases add more than {limit} nodes in all "
        "inputs together (aliases repeated too often)\n",
    )
    assert _three_ways(monkeypatch, *argv) == [refused] * 3
    assert len(_entries(folder)) == 1  # the third run was served from the cache
    # One node more, and all three answer alike.
    monkeypatch.setattr(yamlio, "MAX_ALIAS_NODES", limit + 1)
    answered = _three_ways(monkeypatch, *argv)
    assert answered[0] == answered[1] == answered[2]
    assert (answered[0].code, answered[0].err) == (1, "")


def test_the_rules_past_the_budget_alone_are_the_same_error_from_the_cache(
    folder, rules_copy, monkeypatch
):
    """A budget the rules alone exceed: the error names the place in the rules
    file where loading it passes the budget, whether it is loaded or served."""
    load_ruleset(rules_copy)  # an entry made under the whole budget: both later runs hits
    with yamlio.charges_recorded() as charges:
        yamlio.load_documents(rules_copy.read_text(encoding="utf-8"), str(rules_copy))
    limit = sum(count for count, _ in charges) - 1
    spent, passed_at = 0, None
    for count, where in charges:
        spent += count
        if spent > limit and passed_at is None:
            passed_at = where
    monkeypatch.setattr(yamlio, "MAX_ALIAS_NODES", limit)
    runs = _three_ways(monkeypatch, "--rules", str(rules_copy), "match", "--isvc", "x", "-")
    refused = Run(
        2,
        "",
        f"modetable: error: {passed_at}: YAML aliases add more than {limit} nodes in all "
        "inputs together (aliases repeated too often)\n",
    )
    assert runs == [refused] * 3


def test_the_command_line_warns_once_a_run(folder, rules_copy, tmp_path, monkeypatch):
    folder.mkdir()
    folder.chmod(0o775)
    other = tmp_path / "other.yaml"
    shutil.copyfile(rules_copy, other)
    warned = (
        f"modetable: warning: the rules cache folder {folder} is writable by its group; not used\n"
    )
    select = run_cli("--rules", str(rules_copy), *COMMANDS[0], "-o", "json")
    monkeypatch.setenv(cache.CACHE_VARIABLE, "0")
    quiet = run_cli("--rules", str(rules_copy), *COMMANDS[0], "-o", "json")
    assert (select.code, select.out, select.err) == (quiet.code, quiet.out, warned)
    monkeypatch.delenv(cache.CACHE_VARIABLE)
    # Two rules files loaded in one run: still one warning.
    diff = run_cli("--rules", str(rules_copy), "rules", "diff", "--against", str(other))
    assert diff.err == warned


def test_the_api_gives_a_warning_and_prints_nothing(folder, small_rules, capsys):
    import warnings

    import modetable
    from modetable.errors import ModetableWarning

    folder.mkdir()
    folder.chmod(0o770)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rules = modetable.load_rules(small_rules)
    assert rules.file == str(small_rules)
    assert [(w.category, str(w.message), w.filename) for w in caught] == [
        (
            ModetableWarning,
            f"the rules cache folder {folder} is writable by its group; not used",
            __file__,
        )
    ]
    assert capsys.readouterr() == ("", "")


def test_a_folder_that_cannot_be_made_means_no_cache(tmp_path, small_rules, parses, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv(cache.FOLDER_VARIABLE, str(blocker / "cache"))
    assert load_ruleset(small_rules).file == str(small_rules)
    load_ruleset(small_rules)
    assert parses.count == 2


def test_entries_left_for_a_month_are_pruned_when_another_is_written(folder, small_rules):
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
    load_ruleset(small_rules)
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["notes.txt", "rules-1.pickle", cache.entry_path(folder, str(small_rules)).name]
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
    monkeypatch.setenv(cache.FOLDER_VARIABLE, str(tmp_path / "mine"))
    assert cache.cache_folder() == tmp_path / "mine"
    monkeypatch.setenv(cache.CACHE_VARIABLE, "0")
    assert cache.cache_folder() is None
    monkeypatch.delenv(cache.CACHE_VARIABLE)
    # Where who may write a file cannot be checked (Windows), no cache.
    monkeypatch.setattr(cache, "_CHECKABLE", False)
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
