"""Shared fixtures: the rules, the spec and catalog from ../shared, and an in-process CLI."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from modetable.cli import main
from modetable.rules import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SPEC_DIR = SHARED / "spec"
CATALOG = SHARED / "ome-catalog"
EXAMPLES = ROOT / "examples"
RULES = ROOT / "rules" / "modes.yaml"
# The admission checks of the shipped rules in force in v1.3, in the order they run.
ADMISSION_V13 = (
    "crd-schema",
    "decoder-requires-engine",
    "leader-worker-pairing",
    "lean-multi-pod-runner",
    "engine-decoder-agree",
    "scale-to-zero",
    "replica-bounds",
    "rollout-policy-refs",
    "rollout-plan-size",
    "rollout-canary",
    "rollout-coordination",
    "rollout-budgets",
    "rollout-ratio-tolerance",
    "rollout-zero-budget",
    "rollout-soak",
    "rollout-ratio-tolerance-high",
    "deployment-strategy-ignored",
    "model-or-runtime-required",
    "runtime-pin",
    "model-exists",
    "runtime-resolution",
    "rollout-ordering",
)


def need(path: Path) -> Path:
    """`path`, or skip the test with the reason when ../shared does not have it."""
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared spec and catalog live beside this checkout)")
    return path


def built_once(tmp_path_factory, name: str, build: Callable[[Path], None]) -> Path:
    """The folder `name`, made by `build(folder)` once per test run and shared by
    every worker of the run (pytest-xdist's): the first worker to ask builds it
    under a lock, the others wait and use it. A build that raises leaves nothing
    built: the next to ask builds it again."""
    from filelock import FileLock

    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent  # each worker's folder lies in the run's
    folder = run / name
    with FileLock(str(run / f"{name}.lock")):
        if not (folder / ".built").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            build(folder)
            (folder / ".built").touch()
    return folder


def pytest_configure(config: pytest.Config) -> None:
    _collect_garbage_less_often()
    _share_bytecode_cache(config)


# The cyclic collector's thresholds in a test process (Python's are 700, 10, 10).
GARBAGE_THRESHOLDS = (50_000, 20, 20)


def _collect_garbage_less_often() -> None:
    """A test process holds large long-lived values (the catalog's corpora, their
    outcomes in every version), and with Python's thresholds each full collection
    walked them again: about 60 full collections a worker, 0.45 s each, some 15 %
    of the suite's CPU. Cycles are still collected, just in larger batches; the
    modetable processes the tests start keep Python's thresholds."""
    import gc

    gc.set_threshold(*GARBAGE_THRESHOLDS)


def _share_bytecode_cache(config: pytest.Config) -> None:
    """The Python processes a test run starts (pytest-xdist's workers, and the
    `python -m modetable` and other interpreters the tests start) share one
    bytecode cache of the run's, outside the checkout: each module is compiled
    once per run, not once per process. A machine that sets
    PYTHONDONTWRITEBYTECODE (as this one does) otherwise compiles modetable's
    hundred modules anew in every process: about 0.45 s of CPU each. The
    controller makes it; a PYTHONPYCACHEPREFIX of the user's is kept."""
    if hasattr(config, "workerinput") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    import tempfile

    folder = tempfile.mkdtemp(prefix="modetable-tests-pycache-")
    _seed_bytecode_cache(folder)
    saved = {name: os.environ.get(name) for name in BYTECODE_CACHE_VARIABLES}
    os.environ["PYTHONPYCACHEPREFIX"] = folder
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

    def restore() -> None:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        shutil.rmtree(folder, ignore_errors=True)

    config.add_cleanup(restore)


def _seed_bytecode_cache(folder: str) -> None:
    """Copy into the run's cache the compiled files of the modules this process
    has loaded (the standard library's, pytest's, the dependencies'): a cache
    prefix hides the `__pycache__` folders beside them, so each worker would
    otherwise compile those 600 modules again at its start (about 2.5 s of CPU
    each here). A copy stays valid: a compiled file names its source's mtime
    and size, not its own place."""
    import sys

    for module in list(sys.modules.values()):
        cached, source = getattr(module, "__cached__", None), getattr(module, "__file__", None)
        if not cached or not source or not os.path.isfile(cached):
            continue
        target = folder + os.path.dirname(os.path.abspath(source))
        os.makedirs(target, exist_ok=True)
        shutil.copyfile(cached, os.path.join(target, os.path.basename(cached)))


# What a test giving a child an environment of its own passes on to share the cache.
BYTECODE_CACHE_VARIABLES = ("PYTHONPYCACHEPREFIX", "PYTHONDONTWRITEBYTECODE")
# For a process run under a file size limit (RLIMIT_FSIZE): it reads the run's
# bytecode cache but writes none, since a file it wrote would be cut at the
# limit and break the import of that module in every later process.
READ_ONLY_BYTECODE = {"PYTHONDONTWRITEBYTECODE": "1"}


@pytest.fixture(scope="session", autouse=True)
def _rules_cache_of_the_session(tmp_path_factory):
    """Loaded rules are cached in a folder of the test session's own, never the
    user's (in-process runs and child processes alike)."""
    from modetable.rules.cache import CACHE_VARIABLE, FOLDER_VARIABLE

    with pytest.MonkeyPatch.context() as patch:
        patch.delenv(CACHE_VARIABLE, raising=False)
        patch.setenv(FOLDER_VARIABLE, str(tmp_path_factory.mktemp("rules-cache")))
        yield


@pytest.fixture(autouse=True)
def _no_lookup_variables(monkeypatch):
    """The machine's MODETABLE_RULES and MODETABLE_OME_VERSION do not reach the tests."""
    from modetable.rules.find import RULES_VARIABLE, VERSION_VARIABLE

    monkeypatch.delenv(RULES_VARIABLE, raising=False)
    monkeypatch.delenv(VERSION_VARIABLE, raising=False)


@pytest.fixture(scope="session")
def ruleset():
    return load_ruleset(RULES)


@pytest.fixture(scope="session")
def v13(ruleset):
    return ruleset.at("v1.3")


@pytest.fixture(scope="session")
def v122(ruleset):
    return ruleset.at("v1.2.2")


@pytest.fixture
def catalog() -> Path:
    return need(CATALOG)


# The catalog as the command line read it, by the rules, version and options it
# was read with (catalog_read_once): one reading per worker.
_CATALOG_READINGS: dict[tuple[Any, ...], tuple[Any, tuple[str, ...], tuple[Any, ...]]] = {}


@pytest.fixture
def catalog_read_once(monkeypatch):
    """Command lines that read the catalog (CATALOG, named alone) get the first
    such reading of the worker with the same rules file, version and options:
    its objects, the warnings it said (said again, in order) and the objects a
    lenient read left out. For the tests about what a command does with the
    catalog, not about reading it: the catalog tests without this fixture read
    it from disk each time."""
    from modetable.inputs import loading

    reference = loading.load_paths

    def load_paths(policy, paths, stdin=None, *, warn=None, rejected=None, **options):
        if [os.fspath(p) for p in paths] != [str(CATALOG)] or options.get("live"):
            return reference(policy, paths, stdin, warn=warn, rejected=rejected, **options)
        schema = options.get("schema_policy")
        key = (
            policy.file,
            policy.version,
            rejected is None,
            options.get("warn_duplicates", True),
            None if schema is None else (schema.file, schema.version),
        )
        if key not in _CATALOG_READINGS:
            said: list[str] = []
            left_out = None if rejected is None else []
            cluster = reference(
                policy, paths, stdin, warn=said.append, rejected=left_out, **options
            )
            _CATALOG_READINGS[key] = (cluster, tuple(said), tuple(left_out or ()))
        cluster, said, left_out = _CATALOG_READINGS[key]
        for text in said if warn is not None else ():
            warn(text)
        if rejected is not None:
            rejected.extend(left_out)
        return cluster

    monkeypatch.setattr(loading, "load_paths", load_paths)


@pytest.fixture
def spec_page() -> str:
    return need(SPEC_DIR / "runtime-deployment-mode-matching.md").read_text()


def rules_used(version: str | None = "v1.3") -> dict[str, Any]:
    """The `"rules"` field of a JSON output of a run from the current directory."""
    from modetable.rules.find import find_rules

    return {"path": str(find_rules().path), "version": version}


# The signals the tests send to the processes they start.
SENT_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def signals_at_their_defaults() -> None:
    """`preexec_fn` for a child the tests send signals to: each of them at its
    default and not blocked, whatever the suite inherited (`nohup` ignores SIGHUP,
    a shell's `&` ignores SIGINT, a wrapper may block any of them), so the child
    meets a signal as a process a terminal started does."""
    for signum in SENT_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, SENT_SIGNALS)


@attrs.frozen
class Run:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


def run_cli(*argv: str, stdin: str = "") -> Run:
    """The CLI in-process, with its streams captured."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return Run(code, out.getvalue(), err.getvalue())


@pytest.fixture
def cli():
    return run_cli


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def replace_once(path: Path, old: str, new: str) -> None:
    """Edit the file at `path`: `old`, which stands in it exactly once, becomes `new`
    (as bytes, so the rest of the file stays byte for byte)."""
    data = path.read_bytes()
    assert data.count(old.encode()) == 1, old
    path.write_bytes(data.replace(old.encode(), new.encode()))


def rules_copy(path: Path, *edits: tuple[str, str]) -> Path:
    """The shipped rules copied to `path` (its folder made), each (old, new) of
    `edits` made with replace_once; no edit leaves the bundled rules byte for byte."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(RULES.read_bytes())
    for old, new in edits:
        replace_once(path, old, new)
    return path


def cluster_of(policy, *documents: dict, file: str = "test.yaml"):
    """A Cluster from Python dicts, round-tripped through YAML so positions exist."""
    import yaml

    from modetable.inputs.manifests import build_cluster
    from modetable.inputs.sources import parse_objects
    from modetable.parsing.yamlio import load_documents

    text = yaml.safe_dump_all(documents, sort_keys=False)
    objects, skipped = parse_objects(load_documents(text, file), policy.rules.manifests)
    return build_cluster(objects, skipped, policy.rules.manifests)


def isvc_doc(name: str = "svc", namespace: str = "ns", **spec: Any) -> dict:
    spec.setdefault("model", {"name": "m"})
    return {
        "apiVersion": "ome.io/v1beta1",
        "kind": "InferenceService",
        "metadata": {"name": name, "namespace": namespace},
        "spec": spec,
    }


def runtime_doc(name: str = "rt", kind: str = "ClusterServingRuntime", **spec: Any) -> dict:
    metadata: dict[str, Any] = {"name": name}
    if kind == "ServingRuntime":
        metadata["namespace"] = spec.pop("namespace", "ns")
    annotations = spec.pop("annotations", None)
    if annotations:
        metadata["annotations"] = annotations
    return {"apiVersion": "ome.io/v1beta1", "kind": kind, "metadata": metadata, "spec": spec}


def mode_annotation(mode: str) -> dict:
    return {"annotations": {"ome.io/deploymentMode": mode}}


def model_doc(
    name: str = "m", kind: str = "ClusterBaseModel", namespace: str = "ns", **spec: Any
) -> dict:
    """A BaseModel (in `namespace`) or ClusterBaseModel; spec fields as given,
    with the storage OME's CRD requires unless given (None: none)."""
    spec.setdefault("storage", {"storageUri": f"hf://example/{name}"})
    if spec["storage"] is None:
        del spec["storage"]
    metadata: dict[str, Any] = {"name": name}
    if kind == "BaseModel":
        metadata["namespace"] = namespace
    return {"apiVersion": "ome.io/v1beta1", "kind": kind, "metadata": metadata, "spec": spec}


def llama_model_spec(**overrides: Any) -> dict:
    """The model of the docs' examples: safetensors 1.0.0, transformers
    4.45.0.dev0, LlamaForCausalLM, 3.21B (model-version-matching.md)."""
    spec: dict[str, Any] = {
        "modelArchitecture": "LlamaForCausalLM",
        "modelFormat": {"name": "safetensors", "version": "1.0.0"},
        "modelFramework": {"name": "transformers", "version": "4.45.0.dev0"},
        "modelParameterSize": "3.21B",
    }
    spec.update(overrides)
    return {k: v for k, v in spec.items() if v is not None}


def format_entry(**overrides: Any) -> dict:
    """A supportedModelFormats entry matching llama_model_spec()."""
    entry: dict[str, Any] = {
        "modelFramework": {"name": "transformers", "version": "4.45.0.dev0"},
        "modelFormat": {"name": "safetensors", "version": "1.0.0"},
        "modelArchitecture": "LlamaForCausalLM",
        "autoSelect": True,
        "priority": 1,
    }
    entry.update(overrides)
    return {k: v for k, v in entry.items() if v is not None}


# The modules whose tests take the longest, the longest first (seconds summed
# per module, setup included, from `--junitxml` of a whole run: 2026-12-07,
# quiet machine): pytest-xdist hands out modules in the order collected
# (`--no-loadscope-reorder` in pyproject.toml), so these start first and the
# many small modules fill in behind them, rather than a long module starting
# last on one worker while the other is idle.
COSTLIEST_MODULES = (
    "test_html_report.py",
    "test_ci_setup.py",
    "test_hostile_corpus.py",
    "test_api_catalog.py",
    "test_selection_catalog.py",
    "test_hostile.py",
    "test_fuzz_cli.py",
    "test_fuzz_rules.py",
    "test_rules_cache.py",
    "test_authoring_diff.py",
    "test_docs.py",
    "test_views_document.py",
    "test_hostile_limits.py",
    "test_audit_findings.py",
    "test_jsonio.py",
    "test_docs_policy_authors.py",
    "test_admission_planned.py",
    "test_admission_checks.py",
    "test_reports.py",
    "test_fleet_differential.py",
    "test_audit_namespace.py",
    "test_live.py",
    "test_upgrade.py",
    "test_views.py",
    "test_selection_properties.py",
)


@pytest.fixture(scope="module")
def warm_rules_cache(tmp_path_factory) -> Path:
    """A rules cache folder holding the checkout's rules/modes.yaml as the
    command line finds it from the repository root: a run (in-process or a
    process started there) reads the entry instead of parsing the rules, and
    writes none."""
    from modetable.rules import load_ruleset
    from modetable.rules.cache import CACHE_VARIABLE, FOLDER_VARIABLE

    folder = tmp_path_factory.mktemp("warm-rules-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(FOLDER_VARIABLE, str(folder))
        patch.setenv(CACHE_VARIABLE, "1")
        patch.chdir(ROOT)
        load_ruleset()
    assert len(list(folder.iterdir())) == 1
    return folder


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that opens chromium is a browser test: marked so, whichever
    module it is in (`-m "not browser"` leaves it out). The costliest modules
    run first (COSTLIEST_MODULES), each module's tests in their own order."""
    for item in items:
        if "chromium" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
    rank = {name: place for place, name in enumerate(COSTLIEST_MODULES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.fixture(scope="session")
def chromium():
    """Debian's chromium, headless, driven by Playwright (tests/browser_helpers.py);
    the test is skipped, with the reason, when chromium is not installed."""
    from browser_helpers import Chromium, need_chromium

    need_chromium()
    browser = Chromium()
    yield browser
    browser.close()


# The catalog's ClusterBaseModels carry no modelFormat until OME reads their
# files: the webhook refuses a runtime named for such a model. Tests about what
# happens once a model is read give it its format in a later copy (the later
# definition of an object is the one used).
CATALOG_MODEL_FILES = {
    "deepseek-r1": "models/deepseek-ai/DeepSeek-R1.yaml",
    "kimi-k2-instruct": "models/moonshotai/Kimi-K2-Instruct.yaml",
}


def catalog_models_read(folder: Path, *names: str) -> Path:
    """A file redefining these catalog models with a modelFormat, read after the catalog."""
    import yaml

    documents = []
    for name in names:
        for doc in yaml.safe_load_all((need(CATALOG) / CATALOG_MODEL_FILES[name]).read_text()):
            if isinstance(doc, dict) and doc.get("metadata", {}).get("name") == name:
                doc["spec"]["modelFormat"] = {"name": "safetensors"}
                documents.append(doc)
    path = folder / "zz-models-read.yaml"
    path.write_text(yaml.safe_dump_all(documents, sort_keys=False))
    return path
