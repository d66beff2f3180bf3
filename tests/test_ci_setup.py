"""The CI setups of docs/commands.md ("In CI") run as written: the pre-commit
hooks with the real `pre-commit` (the page's config, and each hook on its own),
and the composite action's steps (action.yml) with the page's workflow inputs,
on a temporary git repository of manifests. The action's steps run against a
stand-in of the runner: a fresh GITHUB_OUTPUT and GITHUB_STEP_SUMMARY per step
(the runner's own files), a fake RUNNER_TEMP, `${{ }}` expressions filled and
`if:` evaluated; then the steps of the page's workflow that read its outputs.
Each installs modetable from this repository into an environment of its own,
as a user's machine would: once per test run (pre-commit's hook environment in
one store, the action's install step in one environment, its result shared by
every run of the action), shared by the tests and by pytest-xdist's workers."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, RULES, built_once
from test_audit import fleet_documents

PAGE = ROOT / "docs" / "commands.md"
GITHUB_COMMAND = re.compile(r"^::(error|warning|notice) file=([^,]*),line=(\d+),")

pytestmark = pytest.mark.skipif(
    not (ROOT / ".git").exists() or shutil.which("git") is None,
    reason="the hooks install modetable from this repository, which must be a git checkout",
)


def _section_yaml(heading: str) -> dict:
    text = PAGE.read_text()
    start = text.index(f"\n{heading}\n")
    end = text.find("\n### ", start + 1)
    [block] = re.findall(r"^```yaml\n(.*?)^```$", text[start:end], re.M | re.S)
    return yaml.safe_load(block)


def _git(cwd: Path, *argv: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        ["git", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
        env={
            **os.environ,
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.com",
            **(env or {}),
        },
    )
    return done.stdout


def _manifests(folder: Path, *, good: bool) -> Path:
    """A git repository with the audit's fleet under deploy/: whole (errors), or
    the runtimes and the one healthy InferenceService; and, as any repository
    has, YAML that holds no Kubernetes object: the page's workflow and a
    hidden file of settings."""
    documents = fleet_documents()
    isvcs = documents[4:] if not good else [documents[5]]
    for name, part in (("deploy/runtimes.yaml", documents[:4]), ("deploy/apps/isvcs.yaml", isvcs)):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump_all(part, sort_keys=False))
    workflow = folder / ".github" / "workflows" / "modetable.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(yaml.safe_dump(_section_yaml("### GitHub Actions"), sort_keys=False))
    (folder / ".yamllint.yaml").write_text("extends: default\n")
    _git(folder, "init", "-q")
    _git(folder, "add", "-A")
    _git(folder, "commit", "-qm", "manifests")
    return folder


@pytest.fixture(scope="session")
def hooks_repo(tmp_path_factory) -> tuple[str, str]:
    """This checkout as a config names it: its path and HEAD; or, when its tracked
    files have changes, a clone of it with the changes committed (what `pre-commit
    try-repo` makes), so that the hooks tested are the work tree's."""
    head = _git(ROOT, "rev-parse", "HEAD").strip()
    if not _git(ROOT, "status", "--porcelain", "--untracked-files=no"):
        return str(ROOT), head

    def commit_the_work_tree(folder: Path) -> None:
        _git(folder, "clone", "-q", "--no-checkout", str(ROOT), "repo")
        git = folder / "repo" / ".git"
        _git(folder / "repo", "read-tree", head)
        # Git's own index and objects of the clone, filled from this work tree.
        into = {"GIT_INDEX_FILE": str(git / "index"), "GIT_OBJECT_DIRECTORY": str(git / "objects")}
        staged = _git(ROOT, "diff", "--cached", "--name-only", "-z", "--diff-filter=A")
        for name in filter(None, staged.split("\0")):
            _git(ROOT, "add", "--", name, env=into)
        _git(ROOT, "add", "-u", env=into)
        _git(folder / "repo", "commit", "-qm", "the work tree")

    folder = built_once(tmp_path_factory, "hooks-repo", commit_the_work_tree) / "repo"
    return str(folder), _git(folder, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory) -> Path:
    """One store of hook environments for the test run: modetable is installed
    into it once (pre-commit locks its store while it installs)."""
    return built_once(tmp_path_factory, "pre-commit-home", lambda folder: None)


def _pre_commit(cwd: Path, home: Path, *argv: str) -> subprocess.CompletedProcess:
    executable = Path(sys.executable).with_name("pre-commit")
    command = [str(executable)] if executable.exists() else [sys.executable, "-m", "pre_commit"]
    return subprocess.run(
        [*command, *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"},
    )


def _run_hook(repo: Path, hooks_repo: tuple[str, str], home: Path, hook: str):
    """`pre-commit run --all-files` of the one hook, from this checkout, with a
    config kept outside the repository (as `pre-commit try-repo` keeps its own)."""
    url, rev = hooks_repo
    config = repo.parent / f"{repo.name}-{hook}.yaml"
    config.write_text(
        yaml.safe_dump({"repos": [{"repo": url, "rev": rev, "hooks": [{"id": hook}]}]})
    )
    return _pre_commit(repo, home, "run", "--config", str(config), "--all-files")


def test_the_hooks_file_offers_the_three_hooks():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert {h["id"]: h["entry"] for h in hooks} == {
        "modetable-audit": "modetable audit --require-double-dash",
        "modetable-rules-check": "modetable rules check --strict",
        "modetable-docs-check": "modetable docs --check",
    }
    assert all(h["language"] == "python" for h in hooks)
    # The files pre-commit appends follow `--`; the hooks without files pass none.
    passing = {h["id"]: h.get("args", []) for h in hooks if h.get("pass_filenames", True)}
    assert passing == {"modetable-audit": ["--within", ".", "--"]}


# Files a commit can hold whose names read as options without `--`: `-n zz.yaml`
# and `--namespace=x.yaml` audit only an empty namespace (the hook passed on a
# denied InferenceService), `-o .yaml` is a bad format.
OPTION_LIKE_FILES = ["-nzz.yaml", "--namespace=x.yaml", "-o.yaml"]


def _denied_beside_option_like_files(folder: Path, names: list[str]) -> Path:
    """A git repository whose InferenceService b/lost the webhook denies (its
    model is absent), with the runtimes and model, and at its root each file of
    `names` holding a healthy InferenceService a/native-I."""
    documents = fleet_documents()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "runtimes.yaml").write_text(yaml.safe_dump_all(documents[:4], sort_keys=False))
    (folder / "lost.yaml").write_text(yaml.safe_dump(documents[7], sort_keys=False))
    native = documents[5]
    for index, name in enumerate(names):
        named = {**native, "metadata": {"name": f"native-{index}", "namespace": "a"}}
        (folder / name).write_text(yaml.safe_dump(named, sort_keys=False))
    _git(folder, "init", "-q")
    _git(folder, "add", "-A")
    _git(folder, "commit", "-qm", "manifests")
    return folder


def _denied_audit(names: list[str]) -> str:
    """What the audit of that repository prints: the denial, each file's native-I ok."""
    rows = "".join(
        f"a            native-{i}  plain      OMENative (ServiceSpec)  -\n"
        for i in range(len(names))
    )
    count = len(names) + 1
    return (
        "NAMESPACE    NAME      RUNTIME    ENGINE                   FINDINGS\n"
        f"{rows}"
        "b            lost      -          RawDeployment (Default)  1 error\n"
        "\n"
        "Findings:\n"
        "  b/lost:\n"
        '    lost.yaml:9:11: error: admission webhook "inferenceservice.ome-webhook-server.'
        'validator" denied the request: referenced model "absent" not found in namespace "b": '
        "ensure a BaseModel exists in this namespace or a ClusterBaseModel exists cluster-wide "
        "with this name [admission/model-exists]\n"
        "\n"
        f"{count} InferenceServices (v1.3): {count - 1} ok, 1 with errors, 0 with warnings, "
        "0 with info; findings: 1 error, 0 warnings, 0 info\n"
    )


def _hook_report(stdout: str, hook: str = "modetable audit") -> str:
    """pre-commit's report of one hook: its status line (dots stripped) and what follows."""
    # `pre-commit run` starts with it; `try-repo` prints its config first.
    start = 0 if stdout.startswith(f"{hook}.") else stdout.index(f"\n{hook}.") + 1
    return re.sub(r"^(.*?)\.{3,}", r"\1 ", stdout[start:], count=1)


@pytest.mark.install
@pytest.mark.parametrize(
    "names", [OPTION_LIKE_FILES, *([name] for name in OPTION_LIKE_FILES)], ids=" ".join
)
def test_the_hook_reads_files_named_like_options_as_files(
    tmp_path, hooks_repo, pre_commit_home, names
):
    """The real hook on a repository holding a denied InferenceService and files
    named like options: it fails on the denial (`-nzz.yaml` alone made it pass,
    auditing the namespace zz.yaml)."""
    repo = _denied_beside_option_like_files(tmp_path, names)
    run = _run_hook(repo, hooks_repo, pre_commit_home, "modetable-audit")
    assert run.returncode == 1, run.stdout + run.stderr
    assert _hook_report(run.stdout) == (
        "modetable audit Failed\n- hook id: modetable-audit\n- exit code: 1\n\n"
        f"{_denied_audit(names)}\n"
    )


@pytest.mark.install
def test_a_config_whose_args_leave_out_the_double_dash_fails(tmp_path, hooks_repo, pre_commit_home):
    """A config that overrides the hook's args without `--` (as configs written
    before it was needed do): the entry's --require-double-dash fails the hook
    with what to write, rather than let a file be read as an option."""
    repo = _denied_beside_option_like_files(tmp_path, ["-nzz.yaml"])
    url, rev = hooks_repo
    config = {
        "repos": [
            {
                "repo": url,
                "rev": rev,
                "hooks": [{"id": "modetable-audit", "args": ["--within", "."]}],
            }
        ]
    }
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "config")
    run = _pre_commit(repo, pre_commit_home, "run", "--all-files")
    assert run.returncode == 1, run.stdout + run.stderr
    assert _hook_report(run.stdout) == (
        "modetable audit Failed\n- hook id: modetable-audit\n- exit code: 2\n\n"
        "modetable: error: no -- ends the options (--require-double-dash), so a file named "
        "like one (-nzz.yaml) would be read as an option; end them with -- (in "
        ".pre-commit-config.yaml: args: [--within, deploy/, --])\n\n"
    )


@pytest.mark.install
@pytest.mark.parametrize("good", [True, False], ids=["good", "bad"])
def test_the_audit_hook_passes_good_manifests_and_fails_bad(
    tmp_path, hooks_repo, pre_commit_home, good
):
    repo = _manifests(tmp_path / "repo", good=good)
    run = _run_hook(repo, hooks_repo, pre_commit_home, "modetable-audit")
    assert run.returncode == (0 if good else 1), run.stdout + run.stderr
    assert "modetable audit" in run.stdout
    if not good:
        assert "[admission/model-exists]" in run.stdout
        assert "[run_failure/router-invalid-mode]" in run.stdout


@pytest.mark.install
def test_the_pages_pre_commit_config_runs(tmp_path, hooks_repo, pre_commit_home):
    """The page's config, with its repo pointed at this checkout."""
    config = _section_yaml("### pre-commit")
    [repo_entry] = config["repos"]
    repo_entry["repo"], repo_entry["rev"] = hooks_repo
    for good in (True, False):
        folder = tmp_path / ("good" if good else "bad")
        repo = _manifests(folder, good=good)
        (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
        _git(repo, "add", "-A")
        _git(repo, "commit", "-qm", "config")
        run = _pre_commit(repo, pre_commit_home, "run", "--all-files")
        assert run.returncode == (0 if good else 1), run.stdout + run.stderr


@pytest.mark.install
def test_the_rules_and_docs_hooks(tmp_path, hooks_repo, pre_commit_home):
    """A repository keeping its own rules file and docs: passes as shipped,
    fails once the rules gain a gap and the docs fall behind."""
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "rules", repo / "rules")
    shutil.copytree(ROOT / "docs", repo / "docs")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "rules")
    for hook in ("modetable-rules-check", "modetable-docs-check"):
        run = _run_hook(repo, hooks_repo, pre_commit_home, hook)
        assert run.returncode == 0, run.stdout + run.stderr
    rules = repo / "rules" / "modes.yaml"
    text = RULES.read_text()
    rules.write_text(
        text.replace(
            "    - id: declared-none\n      requested: mode\n",
            "    - id: declared-none\n      requested: [OMENative]\n",
            1,
        )
    )
    _git(repo, "commit", "-qam", "a gap")
    outputs = {}
    for hook in ("modetable-rules-check", "modetable-docs-check"):
        run = _run_hook(repo, hooks_repo, pre_commit_home, hook)
        assert run.returncode == 1, run.stdout + run.stderr
        outputs[hook] = run.stdout
    assert "error: GAP" in outputs["modetable-rules-check"]
    assert (
        "out of date" in outputs["modetable-docs-check"] or "---" in outputs["modetable-docs-check"]
    )


# --- GitHub Actions ---------------------------------------------------------------------


ACTION = ROOT / "action.yml"
README = ROOT / "README.md"
INSTALL = "Install modetable"
# `${{ EXPRESSION }}` in a step's env or with; the expressions the runner stand-in knows.
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_CONTEXT = re.compile(r"^(inputs|github|steps)\.([\w-]+)(?:\.outputs\.([\w-]+))?$")
_EQUALS = re.compile(r"^(.+?)\s*(==|!=)\s*'([^']*)'$")


@dataclass
class ActionRun:
    """What running the composite action gave: each `run:` step that ran (by
    name), the GITHUB_OUTPUT each wrote (as written), the job summary, the `with`
    of each `uses:` step that ran (setup-python aside), and the action's outputs."""

    runs: dict[str, subprocess.CompletedProcess] = field(default_factory=dict)
    written: dict[str, str] = field(default_factory=dict)
    summary: str = ""
    used: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    outputs: dict[str, str] = field(default_factory=dict)
    failed: bool = False


class _Contexts:
    """The expression contexts a step sees, and the few expressions the action
    and the pages' workflow use: a context value, `A == 'x'`, `A != 'x'`,
    `!cancelled()`, joined by `&&`. Anything else fails the test."""

    def __init__(self, inputs: dict[str, str]) -> None:
        self.inputs = inputs
        self.steps: dict[str, dict[str, str]] = {}

    def value(self, expression: str) -> str:
        match = _CONTEXT.match(expression)
        assert match, f"an expression the runner stand-in does not know: {expression}"
        context, name, output = match.groups()
        if context == "inputs":
            return self.inputs[name]
        if context == "github":
            assert name == "action_path", expression
            return str(ROOT)
        assert output is not None, expression
        return self.steps.get(name, {}).get(output, "")

    def fill(self, text: str) -> str:
        return _EXPRESSION.sub(lambda m: self.value(m.group(1)), text)

    def holds(self, condition: str) -> bool:
        """An `if:` (with or without `${{ }}`), compared as GitHub compares
        strings: ignoring case."""
        whole = _EXPRESSION.fullmatch(condition.strip())
        condition = whole.group(1) if whole else condition
        results = []
        for part in condition.split("&&"):
            part = part.strip()
            if part == "!cancelled()":
                results.append(True)
                continue
            match = _EQUALS.match(part)
            assert match, f"a condition the runner stand-in does not know: {part}"
            left, operator, right = match.groups()
            same = self.value(left.strip()).lower() == right.lower()
            results.append(same if operator == "==" else not same)
        return all(results)


def _output_lines(text: str) -> dict[str, str]:
    """GITHUB_OUTPUT's `name=value` lines (the action writes no multi-line value)."""
    assert "<<" not in text, text
    return dict(line.split("=", 1) for line in text.splitlines())


@dataclass(frozen=True)
class StepRun:
    """What one `run:` step gave: its process, and what it wrote to its
    GITHUB_OUTPUT and its GITHUB_STEP_SUMMARY."""

    done: subprocess.CompletedProcess
    output: str
    summary: str


def _run_step(
    step: dict, number: int, contexts: _Contexts, cwd: Path, venv: Path, runner: Path
) -> StepRun:
    """One `run:` step (the action's step `number`) as the runner runs it: in bash
    with its env filled (`${{ inputs.X }}`, `${{ github.action_path }}`,
    `${{ steps.ID.outputs.X }}`), a GITHUB_OUTPUT and GITHUB_STEP_SUMMARY file of
    its own, RUNNER_TEMP `runner`/temp, the environment setup-python gave first
    on the PATH."""
    assert step["shell"] == "bash"
    files = {
        name: runner / f"{name.lower()}-{number}"
        for name in ("GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY")
    }
    for path in files.values():
        path.write_text("")
    env = {k: contexts.fill(str(v)) for k, v in step.get("env", {}).items()}
    done = subprocess.run(
        # The runner's own command for shell: bash.
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        env={
            **os.environ,
            **env,
            **{name: str(path) for name, path in files.items()},
            "RUNNER_TEMP": str(runner / "temp"),
            "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
            "VIRTUAL_ENV": str(venv),
        },
    )
    return StepRun(
        done, files["GITHUB_OUTPUT"].read_text(), files["GITHUB_STEP_SUMMARY"].read_text()
    )


def _action() -> dict:
    return yaml.safe_load(ACTION.read_text())


def _install_step(action: dict) -> dict:
    """The action's install step: the one after setup-python, its first."""
    steps = action["runs"]["steps"]
    assert steps[0]["uses"].startswith("actions/setup-python@")
    assert steps[1]["name"] == INSTALL
    return steps[1]


@dataclass(frozen=True)
class ActionPython:
    """The environment the action's setup-python step would give, the action's
    install step (`step`) run in it, and what that step gave (`install`)."""

    venv: Path
    step: dict
    install: StepRun


@pytest.fixture(scope="session")
def action_python(tmp_path_factory) -> ActionPython:
    """The environment the action's setup-python step would give (a fresh one,
    with pip: virtualenv's, which seeds it from its cache, several times faster
    than `python -m venv`), with the action's install step run in it by the
    runner stand-in: once per test run, since that step reads no input (only the
    action's own path). What it gave is kept for every worker's runs of the action."""
    install = _install_step(_action())
    assert "inputs." not in str(install)

    def install_modetable(folder: Path) -> None:
        venv, runner = folder / "venv", folder / "runner"
        subprocess.run(
            [sys.executable, "-m", "virtualenv", "-q", str(venv)], check=True, timeout=300
        )
        (runner / "temp").mkdir(parents=True)
        ran = _run_step(install, 1, _Contexts({}), folder, venv, runner)
        assert ran.done.returncode == 0, ran.done.stdout + ran.done.stderr
        done = {k: getattr(ran.done, k) for k in ("args", "returncode", "stdout", "stderr")}
        recorded = {"done": done, "output": ran.output, "summary": ran.summary}
        (folder / "install.json").write_text(json.dumps(recorded))

    folder = built_once(tmp_path_factory, "action-python", install_modetable)
    recorded = json.loads((folder / "install.json").read_text())
    ran = StepRun(
        subprocess.CompletedProcess(**recorded["done"]), recorded["output"], recorded["summary"]
    )
    return ActionPython(folder / "venv", install, ran)


def _run_action(
    action: dict, inputs: dict, cwd: Path, python: ActionPython, runner: Path
) -> ActionRun:
    """The composite action's steps as the runner runs them, each `run:` step as
    _run_step says, RUNNER_TEMP under `runner`; a step whose `if:` is false is
    skipped, and so is every step after one that failed. A `uses:` step is not
    run: its filled `with` is recorded (setup-python's is `python`'s venv). The
    install step is not run again either: what it gave is action_python's, the
    test run's one install (the step reads no input)."""
    values = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    values.update({k: str(v) for k, v in inputs.items()})
    contexts = _Contexts(values)
    install = _install_step(action)
    assert install == python.step
    (runner / "temp").mkdir(parents=True, exist_ok=True)
    result = ActionRun()
    for number, step in enumerate(action["runs"]["steps"]):
        if result.failed or ("if" in step and not contexts.holds(step["if"])):
            continue
        if "run" not in step:
            if step["uses"].startswith("actions/setup-python@"):
                continue
            used = {k: contexts.fill(str(v)) for k, v in step.get("with", {}).items()}
            result.used.append((step["uses"], used))
            continue
        if step is install:
            ran = python.install
        else:
            ran = _run_step(step, number, contexts, cwd, python.venv, runner)
        result.runs[step["name"]] = ran.done
        if "id" in step:
            result.written[step["id"]] = ran.output
            contexts.steps[step["id"]] = _output_lines(ran.output)
        result.summary += ran.summary
        result.failed = ran.done.returncode != 0
    result.outputs = {
        name: contexts.fill(spec["value"]) for name, spec in action["outputs"].items()
    }
    return result


def _denied_and_ok(folder: Path) -> Path:
    """A repository whose deploy/ holds the runtimes and model, the InferenceService
    b/lost, which the webhook denies (its model is absent), and a/native, which is ok."""
    documents = fleet_documents()
    for name, part in (
        ("deploy/runtimes.yaml", documents[:4]),
        ("deploy/lost.yaml", [documents[7]]),
        ("deploy/native.yaml", [documents[5]]),
    ):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump_all(part, sort_keys=False))
    _git(folder, "init", "-q")
    _git(folder, "add", "-A")
    _git(folder, "commit", "-qm", "manifests")
    return folder


DENIAL = (
    'admission webhook "inferenceservice.ome-webhook-server.validator" denied the request: '
    'referenced model "absent" not found in namespace "b": ensure a BaseModel exists in this '
    "namespace or a ClusterBaseModel exists cluster-wide with this name"
)
DENIED_SUMMARY = (
    "2 InferenceServices (v1.3): 1 ok, 1 with errors, 0 with warnings, 0 with info; "
    "findings: 1 error, 0 warnings, 0 info"
)


def _sarif_folder(runner: Path) -> Path:
    """The one folder the action made under RUNNER_TEMP for its files."""
    [folder] = (runner / "temp").iterdir()
    assert re.fullmatch(r"modetable\.\w{6}", folder.name), folder.name
    return folder


def _valid_sarif(path: Path) -> dict:
    import jsonschema

    document = json.loads(path.read_text())
    schema = json.loads((ROOT / "tests" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(document)
    return document


@pytest.mark.install
def test_the_action_reports_outputs_a_summary_and_sarif_then_fails(tmp_path, action_python):
    """A denied InferenceService and an ok one, with the inputs' defaults
    (fail-on error, upload-sarif false, step-summary true): the annotations,
    the outputs, the summary and the SARIF file from one audit; no upload; the
    last step fails the action as --fail-on says."""
    repo = _denied_and_ok(tmp_path / "repo")
    runner = tmp_path / "runner"
    run = _run_action(_action(), {"manifests": "deploy/"}, repo, action_python, runner)
    assert list(run.runs) == ["Install modetable", "Audit", "Fail on findings"]
    assert run.runs["Install modetable"].returncode == 0, run.runs["Install modetable"].stderr
    audit = run.runs["Audit"]
    assert (audit.returncode, audit.stderr) == (0, "")
    assert audit.stdout == (
        "::error file=deploy/lost.yaml,line=9,col=11,title=modetable admission/model-exists "
        f"(InferenceService b/lost)::{DENIAL}\n{DENIED_SUMMARY}\n"
    )
    folder = _sarif_folder(runner)
    sarif = folder / "modetable.sarif"
    assert run.written == {"audit": f"exit-code=1\nerrors=1\nwarnings=0\ninfos=0\nsarif={sarif}\n"}
    assert run.outputs == {
        "exit-code": "1",
        "errors": "1",
        "warnings": "0",
        "infos": "0",
        "sarif": str(sarif),
    }
    assert run.summary == (
        "### modetable audit (v1.3)\n"
        "\n"
        f"{DENIED_SUMMARY}\n"
        "\n"
        "| Severity   | Finding                  | Subject   | Object to fix           "
        f"| Where                   | {'Message'.ljust(len(DENIAL))} |\n"
        "|------------|--------------------------|-----------|-------------------------"
        f"|-------------------------|{'-' * (len(DENIAL) + 2)}|\n"
        "| error      | `admission/model-exists` | b/lost    | InferenceService b/lost "
        f"| `deploy/lost.yaml:9:11` | {DENIAL} |\n"
    )
    [result] = _valid_sarif(sarif)["runs"][0]["results"]
    assert (result["ruleId"], result["message"]["text"]) == ("admission/model-exists", DENIAL)
    assert sorted(p.name for p in folder.iterdir()) == [
        "modetable.json",
        "modetable.sarif",
        "summary.md",
    ]
    assert run.used == []
    failing = run.runs["Fail on findings"]
    assert (failing.returncode, failing.stdout, failing.stderr) == (
        1,
        "modetable audit found findings as severe as fail-on (the config's, else error) or more: "
        "exit 1\n",
        "",
    )


@pytest.mark.install
def test_the_action_uploads_the_sarif_file_when_asked(tmp_path, action_python):
    """upload-sarif true: the upload step's `if:` reads the input, and it gets
    the file, category modetable; step-summary false: no summary; docs-url:
    each SARIF rule links to its id's entry."""
    action = _action()
    [upload] = [s for s in action["runs"]["steps"] if "upload-sarif" in s.get("uses", "")]
    assert upload == {
        "name": "Upload SARIF",
        "if": "inputs.upload-sarif == 'true'",
        "uses": "github/codeql-action/upload-sarif@v3",
        "with": {"sarif_file": "${{ steps.audit.outputs.sarif }}", "category": "modetable"},
    }
    repo = _denied_and_ok(tmp_path / "repo")
    runner = tmp_path / "runner"
    inputs = {
        "manifests": "deploy/",
        "upload-sarif": "true",
        "step-summary": "false",
        "docs-url": "https://example.org/modetable/findings/",
    }
    run = _run_action(action, inputs, repo, action_python, runner)
    folder = _sarif_folder(runner)
    sarif = folder / "modetable.sarif"
    assert run.used == [
        (
            "github/codeql-action/upload-sarif@v3",
            {"sarif_file": str(sarif), "category": "modetable"},
        )
    ]
    assert run.written == {"audit": f"exit-code=1\nerrors=1\nwarnings=0\ninfos=0\nsarif={sarif}\n"}
    assert run.summary == ""
    assert sorted(p.name for p in folder.iterdir()) == ["modetable.json", "modetable.sarif"]
    rules = {rule["id"]: rule for rule in _valid_sarif(sarif)["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["admission/model-exists"]["helpUri"] == (
        "https://example.org/modetable/findings/#admissionmodel-exists"
    )
    assert run.runs["Fail on findings"].returncode == 1
    # The same condition, false for the inputs' default and for `false` in any case.
    for value in ("false", "False"):
        assert not _Contexts({"upload-sarif": value}).holds(upload["if"])
    assert _Contexts({"upload-sarif": "TRUE"}).holds(upload["if"])


@pytest.mark.install
def test_fail_on_never_passes_and_still_counts(tmp_path, action_python):
    repo = _denied_and_ok(tmp_path / "repo")
    runner = tmp_path / "runner"
    inputs = {"manifests": "deploy/", "fail-on": "never"}
    run = _run_action(_action(), inputs, repo, action_python, runner)
    assert not run.failed
    assert run.outputs == {
        "exit-code": "0",
        "errors": "1",
        "warnings": "0",
        "infos": "0",
        "sarif": str(_sarif_folder(runner) / "modetable.sarif"),
    }
    assert (run.runs["Fail on findings"].returncode, run.runs["Fail on findings"].stdout) == (
        0,
        "",
    )


@pytest.mark.install
def test_the_action_reads_a_baseline_and_a_config(tmp_path, action_python):
    """baseline: the denial the file knows annotates nothing and fails nothing;
    config: its exception suppresses it (with its reason), its fail-on applies."""
    repo = _denied_and_ok(tmp_path / "repo")
    entry = {
        "fingerprint": "a85dc584c6d56d5fba0c29a610bc2f3d",
        "id": "admission/model-exists",
        "severity": "error",
        "subject": "b/lost",
        "object": "InferenceService b/lost",
        "message": DENIAL,
    }
    (repo / "base.json").write_text(json.dumps({"modetable_baseline": 1, "findings": [entry]}))
    runner = tmp_path / "runner"
    run = _run_action(
        _action(), {"manifests": "deploy/", "baseline": "base.json"}, repo, action_python, runner
    )
    known = DENIED_SUMMARY.replace("1 ok, 1 with errors", "2 ok, 0 with errors").replace(
        "1 error,", "0 errors,"
    )
    assert (run.runs["Audit"].stdout, run.outputs["exit-code"], run.outputs["errors"]) == (
        f"{known}; baseline: 1 known, 0 fixed\n",
        "0",
        "0",
    )
    assert not run.failed
    (repo / "ci").mkdir()
    (repo / "ci" / "modetable.yaml").write_text(
        "fail-on: never\nignore:\n  - id: outcome/*\n    reason: never found here\n"
    )
    shutil.rmtree(runner)
    run = _run_action(
        _action(), {"manifests": "deploy/", "config": "ci/modetable.yaml"}, repo, action_python,
        runner,
    )  # fmt: skip
    assert (run.outputs["exit-code"], run.outputs["errors"]) == ("0", "1")
    assert run.runs["Audit"].stderr == (
        "modetable: warning: ci/modetable.yaml:3:5: ignore outcome/*: suppresses no finding\n"
    )
    assert not run.failed


@pytest.mark.install
def test_the_action_refuses_to_run_without_manifests(tmp_path, action_python):
    """Without the required input it would audit nothing; the whole repository
    would read its workflows as manifests: a one-line error, exit 2."""
    action = _action()
    assert action["inputs"]["manifests"]["required"] is True
    assert "default" not in action["inputs"]["manifests"]
    repo = _manifests(tmp_path / "repo", good=True)
    run = _run_action(action, {}, repo, action_python, tmp_path / "runner")
    assert list(run.runs) == ["Install modetable", "Audit"]
    audit = run.runs["Audit"]
    assert audit.returncode == 2
    assert audit.stdout == (
        "::error title=modetable::the action's manifests input is required: the files or "
        "folders of your manifests, such as deploy/\n"
    )
    assert run.written == {"audit": "exit-code=2\n"}
    assert run.outputs == {
        "exit-code": "2",
        "errors": "",
        "warnings": "",
        "infos": "",
        "sarif": "",
    }


@pytest.mark.install
@pytest.mark.parametrize("name", ["upload-sarif", "step-summary"])
def test_a_flag_input_is_true_or_false(tmp_path, action_python, name):
    repo = _denied_and_ok(tmp_path / "repo")
    runner = tmp_path / "runner"
    run = _run_action(_action(), {"manifests": "deploy/", name: "yes"}, repo, action_python, runner)
    audit = run.runs["Audit"]
    assert (audit.returncode, audit.stdout, audit.stderr) == (
        2,
        f"::error title=modetable::the action's {name} input is true or false\n",
        "",
    )
    assert run.written == {"audit": "exit-code=2\n"}
    assert list((runner / "temp").iterdir()) == []


@pytest.mark.install
def test_an_audit_that_cannot_run_fails_the_step_with_its_error(tmp_path, action_python):
    repo = _denied_and_ok(tmp_path / "repo")
    runner = tmp_path / "runner"
    inputs = {"manifests": "deploy/ nosuch/"}
    run = _run_action(_action(), inputs, repo, action_python, runner)
    audit = run.runs["Audit"]
    assert (audit.returncode, audit.stdout, audit.stderr) == (
        2,
        "",
        "modetable: error: nosuch/: no such file or directory\n",
    )
    assert run.written == {"audit": "exit-code=2\n"}
    assert list(run.runs) == ["Install modetable", "Audit"]
    assert sorted(p.name for p in _sarif_folder(runner).iterdir()) == []


@pytest.mark.install
def test_the_action_reads_manifests_named_like_options_as_files(tmp_path, action_python):
    """The manifests input names files called like options: each is a file to
    audit (the input is split into words after `--`), and the denial fails the action."""
    repo = _denied_beside_option_like_files(tmp_path / "repo", OPTION_LIKE_FILES)
    manifests = " ".join([*OPTION_LIKE_FILES, "lost.yaml", "runtimes.yaml"])
    run = _run_action(_action(), {"manifests": manifests}, repo, action_python, tmp_path / "r")
    assert run.runs["Install modetable"].returncode == 0, run.runs["Install modetable"].stderr
    audit = run.runs["Audit"]
    assert (audit.returncode, audit.stderr) == (0, "")
    assert audit.stdout == (
        "::error file=lost.yaml,line=9,col=11,title=modetable admission/model-exists "
        f"(InferenceService b/lost)::{DENIAL}\n"
        "4 InferenceServices (v1.3): 3 ok, 1 with errors, 0 with warnings, 0 with info; "
        "findings: 1 error, 0 warnings, 0 info\n"
    )
    assert run.outputs["exit-code"] == "1"
    assert run.runs["Fail on findings"].returncode == 1


def _workflow_yaml(text: str) -> dict:
    [block] = re.findall(r"^```yaml\n(name: modetable\n.*?)^```$", text, re.M | re.S)
    return yaml.safe_load(block)


def test_the_readme_and_the_page_show_one_workflow_that_fits_the_action():
    """Its modetable step's `with` names inputs of the action, every output it
    reads is one the action has, and uploading SARIF comes with the permission."""
    workflow = _workflow_yaml(README.read_text())
    assert workflow == _section_yaml("### GitHub Actions")
    action = _action()
    [job] = workflow["jobs"].values()
    [step] = [s for s in job["steps"] if "/modetable@" in s.get("uses", "")]
    assert set(step["with"]) <= set(action["inputs"])
    assert step["with"]["upload-sarif"] is True
    assert workflow["permissions"]["security-events"] == "write"
    read = re.findall(rf"steps\.{step['id']}\.outputs\.([\w-]+)", yaml.safe_dump(workflow))
    assert set(read) == set(action["outputs"])


@pytest.mark.install
def test_the_pages_workflow_runs_the_action(tmp_path, action_python):
    """The workflow of the README and docs/commands.md on a repository of good
    manifests and on one of bad: the action's steps, then the workflow's steps
    that read its outputs (the artifact's path, the counts echoed)."""
    workflow = _section_yaml("### GitHub Actions")
    [job] = workflow["jobs"].values()
    index = next(i for i, s in enumerate(job["steps"]) if "/modetable@" in s.get("uses", ""))
    step = job["steps"][index]
    action = _action()
    assert action["runs"]["using"] == "composite"
    assert set(step["with"]) <= set(action["inputs"])
    for good in (True, False):
        repo = _manifests(tmp_path / ("good" if good else "bad") / "repo", good=good)
        runner = tmp_path / ("good" if good else "bad") / "runner"
        run = _run_action(action, step["with"], repo, action_python, runner)
        assert run.runs["Install modetable"].returncode == 0
        audit = run.runs["Audit"]
        assert audit.returncode == 0, audit.stdout + audit.stderr
        assert run.failed is not good
        commands = [GITHUB_COMMAND.match(line) for line in audit.stdout.splitlines()]
        found = [m.groups() for m in commands if m]
        if good:
            assert found == []
        else:
            assert ("error", "deploy/apps/isvcs.yaml", "45") in found
            for _level, file, line in found:
                assert int(line) <= len((repo / file).read_text().splitlines())
        sarif = str(_sarif_folder(runner) / "modetable.sarif")
        assert run.used == [
            ("github/codeql-action/upload-sarif@v3", {"sarif_file": sarif, "category": "modetable"})
        ]
        counts = json.loads((_sarif_folder(runner) / "modetable.json").read_text())["summary"][
            "findings"
        ]
        assert run.outputs == {
            "exit-code": "0" if good else "1",
            "errors": str(counts["error"]),
            "warnings": str(counts["warning"]),
            "infos": str(counts["info"]),
            "sarif": sarif,
        }
        # The workflow's steps after the action, with its outputs.
        contexts = _Contexts({})
        contexts.steps[step["id"]] = run.outputs
        later = job["steps"][index + 1 :]
        assert [s["name"] for s in later if contexts.holds(s["if"])] == [
            "Keep the SARIF file",
            "Say what the audit found",
        ]
        [artifact, say] = later
        assert artifact["uses"] == "actions/upload-artifact@v4"
        assert contexts.fill(artifact["with"]["path"]) == sarif
        env = {k: contexts.fill(v) for k, v in say["env"].items()}
        said = subprocess.run(
            ["bash", "-c", say["run"]], capture_output=True, text=True, env={**os.environ, **env}
        )
        assert said.stdout == (
            f"modetable: exit {run.outputs['exit-code']}; errors: {counts['error']}, "
            f"warnings: {counts['warning']}, info: {counts['info']}\n"
        )
