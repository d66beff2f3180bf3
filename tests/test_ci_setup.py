"""The CI setups of docs/commands.md ("In CI") run as written: the pre-commit
hooks with the real `pre-commit` (the page's config, and each hook on its own),
and the composite action's steps (action.yml) with the page's workflow inputs,
on a temporary git repository of manifests. Each installs modetable from this
repository into an environment of its own, as a user's machine would: once per
test run (pre-commit's hook environment in one store, the action's step in one
environment), shared by the tests and by pytest-xdist's workers."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
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
        '    lost.yaml:1:1: error: admission webhook "inferenceservice.ome-webhook-server.'
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


ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
INSTALL = "Install modetable"


def _step_env(step: dict, inputs: dict) -> dict[str, str]:
    """The step's env, with `${{ inputs.X }}` (the action's defaults where not
    given) and `${{ github.action_path }}` filled."""
    values = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    values.update({k: str(v) for k, v in inputs.items()})

    def fill(text: str) -> str:
        text = text.replace("${{ github.action_path }}", str(ROOT))
        return re.sub(r"\$\{\{ inputs\.([\w-]+) \}\}", lambda m: values[m.group(1)], text)

    return {k: fill(str(v)) for k, v in step.get("env", {}).items()}


def _run_step(step: dict, inputs: dict, cwd: Path, venv: Path) -> subprocess.CompletedProcess:
    """One `run:` step of the composite action, as the runner runs it: bash, the
    step's env filled, the environment setup-python gave first on the PATH."""
    assert step["shell"] == "bash"
    path = f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"
    return subprocess.run(
        ["bash", "-e", "-c", step["run"]],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, **_step_env(step, inputs), "PATH": path, "VIRTUAL_ENV": str(venv)},
    )


@pytest.fixture(scope="session")
def action_python(tmp_path_factory) -> Path:
    """The environment the action's setup-python step would give (a fresh one,
    with pip: virtualenv's, which seeds it from its cache, several times faster
    than `python -m venv`), with the action's install step run in it: once per
    test run, since that step reads no input (only the action's own path)."""
    [install] = [step for step in ACTION["runs"]["steps"] if step.get("name") == INSTALL]
    assert "inputs." not in str(install)

    def install_modetable(folder: Path) -> None:
        subprocess.run(
            [sys.executable, "-m", "virtualenv", "-q", str(folder)], check=True, timeout=300
        )
        done = _run_step(install, {}, folder, folder)
        assert done.returncode == 0, done.stdout + done.stderr

    return built_once(tmp_path_factory, "action-python", install_modetable)


def _run_action(inputs: dict, cwd: Path, venv: Path) -> list[subprocess.CompletedProcess]:
    """The composite action's steps after setup-python and the install step
    (action_python ran those), up to the first that fails."""
    steps = ACTION["runs"]["steps"]
    assert steps[0]["uses"].startswith("actions/setup-python@")
    assert steps[1]["name"] == INSTALL
    runs = []
    for step in steps[2:]:
        runs.append(_run_step(step, inputs, cwd, venv))
        if runs[-1].returncode != 0:
            break
    return runs


@pytest.mark.install
def test_the_action_refuses_to_run_without_manifests(tmp_path, action_python):
    """Without the required input it would audit nothing; the whole repository
    would read its workflows as manifests: a one-line error, exit 2."""
    assert ACTION["inputs"]["manifests"]["required"] is True
    assert "default" not in ACTION["inputs"]["manifests"]
    repo = _manifests(tmp_path, good=True)
    [audit] = _run_action({}, repo, action_python)
    assert audit.returncode == 2
    assert audit.stdout == (
        "::error title=modetable::the action's manifests input is required: the files or "
        "folders of your manifests, such as deploy/\n"
    )


@pytest.mark.install
def test_the_action_reads_manifests_named_like_options_as_files(tmp_path, action_python):
    """The manifests input names files called like options: each is a file to
    audit (the input is split into words after `--`), and the denial fails the step."""
    repo = _denied_beside_option_like_files(tmp_path, OPTION_LIKE_FILES)
    manifests = " ".join([*OPTION_LIKE_FILES, "lost.yaml", "runtimes.yaml"])
    [audit] = _run_action({"manifests": manifests}, repo, action_python)
    assert (audit.returncode, audit.stderr) == (1, "")
    assert audit.stdout == (
        "::error file=lost.yaml,line=1,col=1,title=modetable admission/model-exists "
        "(InferenceService b/lost)::admission webhook "
        '"inferenceservice.ome-webhook-server.validator" denied the request: referenced model '
        '"absent" not found in namespace "b": ensure a BaseModel exists in this namespace or a '
        "ClusterBaseModel exists cluster-wide with this name\n"
        "4 InferenceServices (v1.3): 3 ok, 1 with errors, 0 with warnings, 0 with info; "
        "findings: 1 error, 0 warnings, 0 info\n"
    )


@pytest.mark.install
def test_the_pages_workflow_runs_the_action(tmp_path, action_python):
    workflow = _section_yaml("### GitHub Actions")
    [job] = workflow["jobs"].values()
    [step] = [s for s in job["steps"] if "/modetable@" in s.get("uses", "")]
    assert ACTION["runs"]["using"] == "composite"
    assert set(step["with"]) <= set(ACTION["inputs"])
    for good in (True, False):
        repo = _manifests(tmp_path / ("good" if good else "bad"), good=good)
        [audit] = _run_action(step["with"], repo, action_python)
        assert audit.returncode == (0 if good else 1), audit.stdout + audit.stderr
        commands = [GITHUB_COMMAND.match(line) for line in audit.stdout.splitlines()]
        found = [m.groups() for m in commands if m]
        if good:
            assert found == []
        else:
            assert ("error", "deploy/apps/isvcs.yaml", "37") in found
            for _level, file, line in found:
                assert int(line) <= len((repo / file).read_text().splitlines())
