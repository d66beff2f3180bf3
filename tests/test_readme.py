"""The README's commands run: the main job of its first block on the bundled
example, every `modetable` line of its other blocks (no usage or input error,
no warning), and its Python example. Setting up a fresh clone with its two
commands is for CI (.ci/run) and a person to try: tests do not install."""

from __future__ import annotations

import contextlib
import io
import re
import shlex

import pytest
from conftest import ROOT, run_cli

README = ROOT / "README.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", README.read_text(), re.M | re.S)


def _command_lines() -> list[str]:
    return [line for block in _blocks("sh")[2:] for line in block.splitlines() if line.strip()]


def test_the_two_commands_come_first():
    setup, tests = (block.strip() for block in _blocks("sh")[:2])
    assert setup.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install . && ")
    assert setup.split(" && ")[-1].startswith("modetable ")
    assert tests == (
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' "
        "&& python -m pytest -q"
    )


def test_the_main_job_runs_on_the_bundled_example(monkeypatch):
    monkeypatch.chdir(ROOT)
    setup = _blocks("sh")[0].strip()
    argv = shlex.split(setup.split(" && ")[-1])
    run = run_cli(*argv[1:])
    assert (run.code, run.err) == (0, "")
    # why the page's MultiNode runtime is skipped, then where each side's mode came from
    assert run.out.splitlines() == [
        "InferenceService llama-demo/llama-3-70b asks: engine OMENative "
        "(from the InferenceService's spec.deploymentMode)",
        "RUNTIME                               SCOPE    RESULT    "
        "RULE                                   REASON",
        "srt-llama-3-3-70b-instruct-multinode  Cluster  Rejected  "
        "the runtime declares a different mode  "
        "runtime engine deployment mode MultiNode does not match requested engine "
        "deployment mode OMENative",
        "1 more runtime passes the mode rule; --all lists every runtime.",
        "",
        "InferenceService llama-demo/llama-3-70b:",
        "  engine: OMENative from the InferenceService's spec.deploymentMode",
        "",
        "srt-llama-3-3-70b-instruct-multinode (ClusterServingRuntime):",
        "  engine: Rejected: the runtime declares a different mode",
        "    runtime: MultiNode from the runtime's spec.engineConfig annotation "
        "ome.io/deploymentMode",
        "      passed over spec.engineConfig.leader or spec.engineConfig.worker: "
        "leader: does not count for matching",
    ]


@pytest.mark.parametrize("line", _command_lines())
def test_each_command_shown_runs(monkeypatch, line):
    monkeypatch.chdir(ROOT)
    argv = shlex.split(line)
    assert argv[0] == "modetable"
    if ">" in argv:  # the output goes to a file: here, to the captured stream
        argv = argv[: argv.index(">")]
    run = run_cli(*argv[1:])
    assert run.code in (0, 1), run.err  # an answer, never a usage or input error
    assert run.err == ""
    assert run.out


def test_the_python_example_prints_the_no_runtime_message(monkeypatch):
    monkeypatch.chdir(ROOT)
    [code] = _blocks("python")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(README), "exec"), {})
    assert printed.getvalue() == (
        "no runtime found to support model safetensors with format safetensors in namespace "
        "llama-demo. Checked 2 runtimes (0 namespace-scoped, 2 cluster-scoped). Excluded "
        "runtimes: srt-llama-3-3-70b-instruct-multinode (runtime engine deployment mode "
        "MultiNode does not match requested engine deployment mode OMENative)\n"
    )
