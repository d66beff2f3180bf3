"""`--help` shows examples that parse, and `modetable completion` gives shell
scripts built from the same parser (bash's run for real)."""

from __future__ import annotations

import shlex
import shutil
import subprocess

import pytest
from conftest import run_cli

from modetable.cli import COMMANDS, build_parser


def _examples(text: str) -> list[list[str]]:
    """The `modetable ...` lines under `examples:`, without comments and redirections."""
    lines = text.split("examples:\n", 1)[1].splitlines()
    found = []
    for line in lines:
        line = line.strip()
        if not line.startswith("modetable "):
            continue
        line = line.split("  (")[0].split(" > ")[0].split(" | ")[0]
        found.append(shlex.split(line)[1:])
    return found


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_shows_examples_that_parse(command):
    run = run_cli(*([command] if command else []), "--help")
    assert run.code == 0
    examples = _examples(run.out)
    assert examples, run.out
    for argv in examples:
        if argv == ["COMMAND", "--help"]:
            continue
        build_parser(argv).parse_args(argv)  # a usage error raises


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts_name_every_command(shell):
    run = run_cli("completion", shell)
    assert run.code == 0
    for command in COMMANDS:
        assert command in run.out
    assert "--fail-on" in run.out and "--within" in run.out


def test_bash_completes_commands_and_options(tmp_path):
    script = tmp_path / "modetable.bash"
    script.write_text(run_cli("completion", "bash").out)

    def complete(*words: str) -> list[str]:
        line = " ".join(words)
        program = (
            f"source {shlex.quote(str(script))}; COMP_WORDS=({line}); "
            f"COMP_CWORD={len(words) - 1}; COMP_LINE={shlex.quote(line)}; "
            f"COMP_POINT={len(line)}; _shtab_modetable; printf '%s\\n' \"${{COMPREPLY[@]}}\""
        )
        done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        return sorted(set(done.stdout.split()))

    assert complete("modetable", "au") == ["audit"]
    assert "--fail-on" in complete("modetable", "audit", "--f")
    assert complete("modetable", "audit", "--fail-on", "") == ["error", "never", "warning"]
    assert complete("modetable", "audit", "-o", "s") == ["sarif"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_other_shells_read_their_script(shell, tmp_path):
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    script = tmp_path / "modetable.script"
    script.write_text(run_cli("completion", shell).out)
    done = subprocess.run([shell, "-n", str(script)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
