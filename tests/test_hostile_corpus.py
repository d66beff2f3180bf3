"""The broken-input corpus (tests/broken/cases.yaml): each case's whole answer."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import READ_ONLY_BYTECODE, ROOT, Run, run_cli

from modetable.rules.load import parse_rules as _LOADER_PARSE

BROKEN = ROOT / "tests" / "broken"
BROKEN_ARG = "tests/broken"
# Read at collection, in every worker: by libyaml where installed (the same safe
# loader, in C).
CASES = yaml.load(
    (BROKEN / "cases.yaml").read_text(encoding="utf-8"),
    Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader),
)["cases"]
# The folder a case's generated inputs are made in, relative to the repository root.
MADE = "made"


def _expand(text: str) -> str:
    return text.replace("{broken}", BROKEN_ARG).replace("{made}", MADE)


def _expand_all(value):
    """`value` with {broken} and {made} expanded in every string it holds."""
    if isinstance(value, str):
        return _expand(value)
    if isinstance(value, dict):
        return {key: _expand_all(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_expand_all(item) for item in value]
    return value


def _name(text: str) -> str:
    """A generated file's name: each character one byte (`\\xff` is the byte 0xff,
    not UTF-8), so a case can name a file that is not UTF-8."""
    return os.fsdecode(_expand(text).encode("latin-1"))


def _make(entries: list[dict]) -> None:
    """The inputs a case needs that a repository cannot hold: names that are not
    UTF-8, links, FIFOs, folders; made under MADE in the current directory."""
    for entry in entries:
        path = Path(_name(entry["path"]))
        path.parent.mkdir(parents=True, exist_ok=True)
        if "copy" in entry:
            shutil.copyfile(_expand(entry["copy"]), path)
        elif "text" in entry:
            path.write_text(entry["text"], encoding="utf-8")
        elif "link" in entry:
            path.symlink_to(_name(entry["link"]))
        elif entry.get("fifo"):
            os.mkfifo(path)
        else:
            path.mkdir()


def _in_a_process(
    argv: list[str], redirect: str, stdin: str, file_size_limit: int | None, *, unbuffered: bool
) -> Run:
    """modetable as a real process, its streams redirected by the shell (`>&-`,
    `> /dev/full`, `<&-`), with a limit on the files it writes when given: what
    a closed stream does cannot be faked in-process. `unbuffered`: Python's
    standard streams without their buffer (PYTHONUNBUFFERED=1, as CI often sets)."""
    import resource

    def limited() -> None:
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    if file_size_limit is not None:
        env.update(READ_ONLY_BYTECODE)
    env.pop("PYTHONUNBUFFERED", None)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    script = f'exec "$0" -m modetable "$@" {redirect}'
    done = subprocess.run(
        ["bash", "-c", script, sys.executable, *argv],
        input=stdin.encode(),
        capture_output=True,
        timeout=60,
        env=env,
        preexec_fn=limited,
    )
    return Run(done.returncode, done.stdout.decode(), done.stderr.decode())


def _run(
    argv: list[str],
    stdin: str = "",
    redirect: str | None = None,
    file_size_limit: int | None = None,
    *,
    both_buffers: bool = True,
) -> Run:
    """The case's answer: in-process, or, with `redirect`, a real process run
    buffered and (`both_buffers`) unbuffered, which must answer alike."""
    arguments = [_name(a) for a in argv]
    if redirect is not None:
        if not both_buffers:
            return _in_a_process(arguments, redirect, stdin, file_size_limit, unbuffered=False)
        # A stream's failure shows at a different write with and without the
        # buffer (a full one at the last flush, or a short write mid-way): one answer.
        buffered, unbuffered = (
            _in_a_process(arguments, redirect, stdin, file_size_limit, unbuffered=choice)
            for choice in (False, True)
        )
        assert unbuffered == buffered, "PYTHONUNBUFFERED=1 changes the answer"
        return buffered
    return run_cli(*arguments, stdin=stdin)


def _codes(monkeypatch) -> list[str]:
    """The codes of the errors the in-process runs report (cli.report_error)."""
    import modetable.cli

    codes: list[str] = []
    report = modetable.cli.report_error

    def recording(exc, io):
        codes.extend(str(e.code) for e in getattr(exc, "errors", [exc]))
        report(exc, io)

    monkeypatch.setattr(modetable.cli, "report_error", recording)
    return codes


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_broken_input_gets_its_whole_answer(case, monkeypatch, tmp_path):
    codes = _codes(monkeypatch)
    if "make" in case or "shell" in case:
        # Generated inputs, and a real process, run in a copy of the corpus.
        shutil.copytree(BROKEN, tmp_path / BROKEN_ARG)
        monkeypatch.chdir(tmp_path)
        _make(case.get("make", []))
    else:
        monkeypatch.chdir(ROOT)
    run = _run(case["argv"], case.get("stdin", ""), case.get("shell"), case.get("file_size_limit"))
    assert (run.code, run.err) == (case["exit"], _expand(case["stderr"]))
    if "code" in case and "shell" not in case:
        assert codes == [case["code"]]
    if case["exit"] == 2:
        assert run.out == "", "bad input must leave standard output empty"
        # One line; only warnings (a skipped object, a duplicate) may come before it.
        *warnings, error = run.err.splitlines()
        assert error.startswith("modetable: error: "), "bad input is one line"
        assert all(w.startswith("modetable: warning: ") for w in warnings), run.err
    if "stdout" in case:
        assert run.out == _expand(case["stdout"])
    if "same_as" in case:
        twin = _run(case["same_as"])
        assert (run.code, run.out) == (twin.code, twin.out)
    if "json" in case:
        output = yaml.safe_load(run.out) if "yaml" in case["argv"] else json.loads(run.out)
        assert {key: output[key] for key in case["json"]} == _expand_all(case["json"])


def _rules_of_its_own(case: dict) -> bool:
    """Whether the case's run loads other rules than the checkout's
    rules/modes.yaml found from the repository root: a rules file it names
    (`--rules`, `rules check`), or a run in a folder of its own (generated
    inputs, a real process)."""
    argv = case["argv"]
    return "--rules" in argv or argv[0] == "rules" or "make" in case or "shell" in case


# What the loader made of a rules file's text (and what it charged to the run's
# alias budget), by (text, file): the cache-off runs parse each rules file once
# per worker, not once per case.
_PARSED: dict[tuple[str, str], tuple[Any, tuple[Any, ...]]] = {}


def _parse_once(text: str, file: str) -> Any:
    """modetable.rules.load.parse_rules, once for each text and file. A later
    call spends the first one's alias charges on its run's budget, as a parse
    would (past the budget, the same error at the same place); a text the
    loader refuses is parsed each time."""
    from modetable.parsing.yamlio import charge_again, charges_recorded

    if (text, file) in _PARSED:
        loaded, charges = _PARSED[text, file]
        charge_again(charges)
        return loaded
    with charges_recorded() as recorded:
        loaded = _LOADER_PARSE(text, file)
    _PARSED[text, file] = (loaded, tuple(recorded))
    return loaded


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_rules_cache_changes_no_answer(case, monkeypatch, tmp_path, warm_rules_cache):
    """Each case with the rules cache off, cold (an empty folder) and warm (the
    same folder again): the same stdout, stderr, exit code and error codes. A
    case run as a real process runs buffered only: PYTHONUNBUFFERED=1 changes
    how the standard streams are written, not how the cache is, and that the
    unbuffered process answers alike is test_broken_input_gets_its_whole_answer's
    to show. A case without rules of its own runs off and warm only: cold, it
    would parse the same bytes of the same file as off does and write the same
    entry into an empty folder whatever the case (the entry warm_rules_cache
    holds); what the cache can change in a case's answer is the rules served
    from an entry, the warm run. Off, in-process, the loader's work for a rules
    file is done once per worker (_parse_once): it gives the same rules from
    the same text each time, while the answer is computed again for each case."""
    import modetable.rules.load
    from modetable.rules.cache import CACHE_VARIABLE, FOLDER_VARIABLE

    codes = _codes(monkeypatch)
    if "make" in case or "shell" in case:
        shutil.copytree(BROKEN, tmp_path / BROKEN_ARG)
        monkeypatch.chdir(tmp_path)
        _make(case.get("make", []))
    else:
        monkeypatch.chdir(ROOT)
    own = tmp_path / "rules-cache"
    settings = {"off": ("0", own), "cold": ("1", own), "warm": ("1", own)}
    if not _rules_of_its_own(case):
        settings = {"off": ("0", warm_rules_cache), "warm": ("1", warm_rules_cache)}
    answers = {}
    for name, (setting, folder) in settings.items():
        monkeypatch.setenv(CACHE_VARIABLE, setting)
        monkeypatch.setenv(FOLDER_VARIABLE, str(folder))
        with pytest.MonkeyPatch.context() as patch:
            if name == "off":
                patch.setattr(modetable.rules.load, "parse_rules", _parse_once)
            run = _run(case["argv"], case.get("stdin", ""), case.get("shell"), both_buffers=False)
        answers[name] = (run, list(codes))
        codes.clear()
    for name, answer in answers.items():
        assert answer == answers["off"], name
    if not _rules_of_its_own(case):
        assert len(list(warm_rules_cache.iterdir())) == 1, "a warm run wrote to the cache"


def test_every_case_has_a_unique_id_and_every_field_is_known():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    known = {"id", "why", "argv", "stdin", "exit", "stderr", "stdout", "same_as", "json"}
    known |= {"make", "shell", "code", "file_size_limit"}
    for case in CASES:
        assert set(case) <= known, case["id"]
        assert "shell" in case or "file_size_limit" not in case, case["id"]
        assert {"id", "why", "argv", "exit", "stderr"} <= set(case), case["id"]
        # Bad input asserts its error's kind as well as its words (a real
        # process, `shell`, reports no code the test can see).
        if case["exit"] == 2 and "shell" not in case:
            assert "code" in case, case["id"]


def test_every_file_of_the_corpus_is_used_by_a_case():
    """A broken file nobody runs proves nothing."""
    used = set()
    for case in CASES:
        copies = [entry["copy"] for entry in case.get("make", []) if "copy" in entry]
        for argument in [*case["argv"], *case.get("same_as", []), *copies]:
            if argument.startswith("{broken}/"):
                used.add(argument.removeprefix("{broken}/").split("/")[0])
    present = {p.name for p in BROKEN.iterdir() if p.name != "cases.yaml"}
    assert present - used == set()
    assert {u for u in used if not Path(BROKEN, u).exists()} == {"missing.yaml"}


LIMITS_PAGE = ROOT / "docs" / "limits.md"
# A place before the message: FILE, FILE:LINE or FILE:LINE:COL.
PLACE = re.compile(r"^[^\s:]+(?::\d+){0,2}: ")


def documented_messages() -> list[re.Pattern[str]]:
    """The messages of the table in docs/limits.md, `<...>` standing for anything."""
    text = LIMITS_PAGE.read_text(encoding="utf-8")
    table = text.split("## Error messages", 1)[1]
    patterns = []
    for line in table.splitlines():
        if not line.startswith("| `"):
            continue
        first_cell = line.split(" | ")[0]
        for message in re.findall(r"`([^`]+)`", first_cell):
            parts = re.split(r"<[^>]+>", message)
            patterns.append(re.compile(".+".join(re.escape(p) for p in parts)))
    return patterns


def test_every_error_of_the_corpus_is_documented_in_the_limits_page():
    patterns = documented_messages()
    assert len(patterns) > 30
    undocumented = []
    for case in CASES:
        if case["exit"] != 2:
            continue
        message = case["stderr"].strip().split("\n")[-1].removeprefix("modetable: error: ")
        message = PLACE.sub("", _expand(message), count=1)
        if not any(p.fullmatch(message) for p in patterns):
            undocumented.append((case["id"], message))
    assert undocumented == []
