"""Property-based fuzzing of the command line, in-process.

Hypothesis builds manifests from random mixes of valid and invalid fields (and
raw text, and valid text with a byte changed) and runs every command on them
with the last-resort handler off (MODETABLE_DEBUG=1), so any unexpected
exception fails the test with its traceback. The only outcomes allowed: exit
0 or 1 with an answer that agrees with itself, or exit 2 with one line.

MODETABLE_FUZZ_EXAMPLES=2000 runs a longer, randomised session locally; by
default the examples are few and derandomised, so CI stays fast and stable.
"""

from __future__ import annotations

import copy
import json
import math
import os
import tempfile
from unittest import mock

import pytest
import yaml
from conftest import EXAMPLES, RULES, run_cli
from hostile_yaml import hostile_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from modetable.cli import COMMANDS
from modetable.parsing import yamlio
from modetable.rules import load_ruleset

# Every test here runs whole command lines on dozens of examples: seconds each.
pytestmark = pytest.mark.slow

FUZZ_EXAMPLES = int(os.environ.get("MODETABLE_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize="MODETABLE_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

RULESET = load_ruleset(RULES)
ANNOTATION = RULESET.rules.annotation_key
INHERIT = RULESET.rules.inheritance.annotation
MODES = [m.name for m in RULESET.rules.modes]
VERSIONS = list(RULESET.rules.versions)
ISVC_FIELDS = [c.isvc_field for c in RULESET.rules.components]
RUNTIME_FIELDS = [c.runtime_field for c in RULESET.rules.components]
# What `explain` writes to stderr as kubectl-ome does: the rules' fixed messages.
NOTICES = {m.text for m in RULESET.rules.messages.values() if "{" not in m.text}
RUNTIME_NAMES = ["rt-a", "rt-b", "rt-c"]
NAMESPACES = ["ns", "other"]

# Commands that take an InferenceService, and how; others get MANIFESTS only.
ISVC_COMMANDS = [c for c in ("match", "effective", "admit", "select", "explain") if c in COMMANDS]
MANIFEST_COMMANDS = [c for c in ("audit",) if c in COMMANDS]

# Any JSON value, small: what a hand-edited field can hold instead of the right thing.
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 10**6),
    st.floats(allow_nan=True, allow_infinity=True, width=32),
    st.text(max_size=6),
)
wild = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=2), st.dictionaries(st.text(max_size=4), inner, max_size=2)
    ),
    max_leaves=4,
)

# Text a terminal would act on, or that breaks a line: it must be printed escaped.
SPOOFING = st.lists(
    st.sampled_from(["\x1b[2J", "\x1b]0;x\x07", "\n", "\r", "\0", "\x85", "\u2028",
                     "\u202e", "\x9b", "\t", "OMENative", "m", " "]),
    min_size=1, max_size=4,
).map("".join)  # fmt: skip


class Shapes:
    """The strategies for one level of chaos: `wildness` is how often (1 in n,
    0 for never) a field holds anything at all instead of its valid shape.

    With no chaos every input is well-formed and reaches the engine with
    adversarial values (sizes like `4b`, versions like `1.08.0`, misspelled
    modes, inheritance cycles); with chaos it tests the checks on the way in.
    """

    def __init__(self, wildness: int) -> None:
        self.wildness = wildness
        maybe = self.maybe
        mode_values = maybe(
            st.one_of(st.sampled_from([*MODES, "omenative", "", "Raw Deployment"]), SPOOFING)
        )
        self.names = maybe(st.sampled_from([*RUNTIME_NAMES, "rt-missing", ""]))
        sizes = maybe(
            st.sampled_from(["1B", "4b", "-1B", "0.5B", "500M", "70B", "1.5T", "", "B", "7"])
        )
        versions = maybe(
            st.sampled_from(["1.0.0", "1.08.0", "v1", "V1.0.0", "1.2-beta", "4.45.0.dev0", ""])
        )
        operators = maybe(
            st.sampled_from(["Equal", "GreaterThan", "GreaterThanOrEqual", "LessThan", "equal"])
        )
        self.annotations = maybe(optional(**{ANNOTATION: mode_values, INHERIT: self.names}))
        # Lists an inheritance merge joins by `name`, and one it replaces whole.
        keyed = maybe(
            st.lists(
                optional(name=maybe(st.sampled_from(["a", "b"])), image=maybe(st.just("i"))),
                max_size=2,
            )
        )
        replaced = maybe(st.lists(st.sampled_from(["--x", "1"]), max_size=2))
        components = maybe(
            optional(
                annotations=self.annotations,
                containers=keyed,
                env=keyed,
                command=replaced,
                leader=maybe(st.just({})),
                worker=maybe(st.just({"size": 1})),
                runner=maybe(optional(image=maybe(st.just("img")))),
                acceleratorOverride=maybe(optional(acceleratorClass=maybe(st.just("h100")))),
            )
        )
        self.format_specs = maybe(
            optional(
                name=maybe(st.sampled_from(["safetensors", "safetensors", "gguf"])),
                version=versions,
                operator=operators,
                weight=maybe(st.integers(-2, 3)),
            )
        )
        entries = maybe(
            optional(
                modelFormat=self.format_specs,
                modelFramework=self.format_specs,
                modelArchitecture=maybe(st.just("LlamaForCausalLM")),
                autoSelect=maybe(st.booleans()),
                priority=maybe(st.integers(-1, 3)),
            )
        )
        self.sizes = sizes
        self.runtime_specs = optional(
            supportedModelFormats=maybe(st.lists(entries, max_size=3)),
            modelSizeRange=maybe(optional(min=sizes, max=sizes)),
            disabled=maybe(st.booleans()),
            containers=keyed,
            volumes=keyed,
            args=replaced,
            acceleratorRequirements=maybe(
                optional(acceleratorClasses=maybe(st.lists(st.just("h100"), max_size=2)))
            ),
            **dict.fromkeys(RUNTIME_FIELDS, components),
        )
        self.isvc_specs = optional(
            model=maybe(
                optional(
                    name=maybe(st.just("m")),
                    kind=maybe(st.sampled_from(["ClusterBaseModel", "BaseModel"])),
                )
            ),
            runtime=maybe(
                optional(
                    name=self.names,
                    kind=maybe(st.sampled_from(["ClusterServingRuntime", "ServingRuntime"])),
                    autoSync=maybe(st.booleans()),
                )
            ),
            deploymentMode=mode_values,
            acceleratorSelector=maybe(optional(acceleratorClass=maybe(st.just("h100")))),
            **dict.fromkeys(ISVC_FIELDS, components),
        )

    def maybe(self, valid: st.SearchStrategy) -> st.SearchStrategy:
        if not self.wildness:
            return valid
        return st.one_of(*[valid] * (self.wildness - 1), wild)

    @st.composite
    def runtimes(draw, self) -> dict:
        kind = draw(st.sampled_from(["ClusterServingRuntime", "ServingRuntime"]))
        metadata = {"name": draw(st.sampled_from(RUNTIME_NAMES))}
        if kind == "ServingRuntime":
            metadata["namespace"] = draw(st.sampled_from(NAMESPACES))
        metadata.update(draw(optional(annotations=self.annotations)))
        # Now and then another group's runtime (KServe's): skipped with a warning.
        group = draw(st.sampled_from(["ome.io/v1beta1"] * 5 + ["serving.kserve.io/v1alpha1"]))
        return {"apiVersion": group, "kind": kind, "metadata": metadata,
                "spec": draw(self.runtime_specs)}  # fmt: skip

    @st.composite
    def models(draw, self) -> dict:
        kind = draw(st.sampled_from(["ClusterBaseModel", "ClusterBaseModel", "BaseModel"]))
        metadata = {"name": "m"}
        if kind == "BaseModel":
            metadata["namespace"] = draw(st.sampled_from(NAMESPACES))
        spec = draw(
            optional(
                modelFormat=self.format_specs,
                modelFramework=self.format_specs,
                modelArchitecture=self.maybe(st.just("LlamaForCausalLM")),
                modelParameterSize=self.sizes,
                disabled=self.maybe(st.booleans()),
            )
        )
        return {"apiVersion": "ome.io/v1beta1", "kind": kind, "metadata": metadata, "spec": spec}

    @st.composite
    def isvcs(draw, self) -> dict:
        metadata = {"name": "svc", "namespace": draw(st.sampled_from(["ns", "ns", "other"]))}
        metadata.update(draw(optional(annotations=self.annotations)))
        return {"apiVersion": "ome.io/v1beta1", "kind": "InferenceService", "metadata": metadata,
                "spec": draw(self.isvc_specs)}  # fmt: skip

    @st.composite
    def clusters(draw, self) -> list[dict]:
        documents = [draw(self.isvcs())]
        documents += draw(st.lists(self.runtimes(), max_size=4))
        documents += draw(st.lists(self.models(), max_size=2))
        return draw(st.permutations(documents))


def optional(**fields: st.SearchStrategy) -> st.SearchStrategy:
    return st.fixed_dictionaries({}, optional=fields)


def _example_documents() -> list[dict]:
    """The bundled example (the page's runtimes, InferenceService and model), with
    the InferenceService renamed to the one the command lines ask for."""
    documents = []
    for path in sorted(EXAMPLES.glob("*.yaml")):
        documents += [d for d in yaml.safe_load_all(path.read_text()) if d]
    for document in documents:
        if document["kind"] == "InferenceService":
            document["metadata"].update(name="svc", namespace="ns")
    return documents


EXAMPLE = _example_documents()
# Fields worth setting even where the example has none.
NEW_PATHS = [
    ("spec", "deploymentMode"),
    ("spec", "runtime", "name"),
    ("spec", "runtime", "autoSync"),
    ("spec", "decoder"),
    ("spec", "engine", "annotations", ANNOTATION),
    ("spec", "decoder", "annotations", ANNOTATION),
    ("spec", "router", "annotations", ANNOTATION),
    ("metadata", "annotations", INHERIT),
    ("spec", "disabled"),
    ("spec", "modelSizeRange", "min"),
]
EDIT_VALUES = st.one_of(
    st.sampled_from([*MODES, "omenative", "4b", "-1B", "0.5B", "1.08.0", "v1", "", "DELETE"]),
    SPOOFING,
    st.sampled_from([d["metadata"]["name"] for d in EXAMPLE]),
    wild,
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


def _set(node, path, value):
    """`node` with `value` at `path` (DELETE removes it); missing mappings are made."""
    for part in path[:-1]:
        if isinstance(node, dict):
            node = node.setdefault(part, {})
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            return
        if not isinstance(node, dict | list):
            return
    last = path[-1]
    if isinstance(node, dict):
        if value == "DELETE":
            node.pop(last, None)
        else:
            node[last] = value
    elif isinstance(node, list) and isinstance(last, int) and last < len(node):
        node[last] = value


@st.composite
def edited_examples(draw) -> list[dict]:
    """The example with one to four fields set to hostile values or removed."""
    documents = copy.deepcopy(EXAMPLE)
    for _ in range(draw(st.integers(1, 4))):
        document = draw(st.sampled_from(documents))
        known = [p for p in _paths(document) if len(p) > 1]
        path = draw(st.one_of(st.sampled_from(known), st.sampled_from(NEW_PATHS)))
        _set(document, path, draw(EDIT_VALUES))
    return documents


# The strings modetable prints from the inputs: names the rules do not check
# (the model's, its formats'), modes, sizes, versions, classes.
SHOWN_PATHS = [
    ("spec", "model", "name"),
    ("spec", "deploymentMode"),
    ("spec", "engine", "annotations", ANNOTATION),
    ("spec", "modelFormat", "name"),
    ("spec", "modelFormat", "version"),
    ("spec", "modelFramework", "version"),
    ("spec", "modelArchitecture"),
    ("spec", "modelParameterSize"),
    ("spec", "modelSizeRange", "min"),
    ("spec", "engineConfig", "annotations", ANNOTATION),
    ("spec", "supportedModelFormats", 0, "modelFormat", "version"),
    ("spec", "supportedModelFormats", 0, "modelArchitecture"),
    ("spec", "acceleratorSelector", "acceleratorClass"),
]


@st.composite
def spoofed_examples(draw) -> list[dict]:
    """The example with one to three printed strings holding terminal escapes,
    NUL, newlines and other characters a terminal acts on."""
    documents = copy.deepcopy(EXAMPLE)
    for _ in range(draw(st.integers(1, 3))):
        path, value = draw(st.sampled_from(SHOWN_PATHS)), draw(SPOOFING)
        for document in documents:  # a field the other kinds have not is not read there
            _set(document, path, value)
    return documents


# Well-formed inputs (the engine runs), inputs with a wild field now and then,
# and the page's example with a few fields changed, some to strings that spoof.
clusters = st.one_of(
    Shapes(0).clusters(), Shapes(12).clusters(), edited_examples(), spoofed_examples()
)


@st.composite
def command_lines(draw) -> list[str]:
    argv = []
    if draw(st.booleans()):
        argv += ["--ome-version", draw(st.sampled_from(VERSIONS))]
    command = draw(st.sampled_from(ISVC_COMMANDS + MANIFEST_COMMANDS))
    argv.append(command)
    if command in ISVC_COMMANDS:
        argv += ["--isvc", draw(st.sampled_from(["svc", "svc", "svc", "ns/svc", "other/svc"]))]
    if command == "explain" and draw(st.booleans()):
        argv += ["--why", draw(st.sampled_from(RUNTIME_NAMES))]
    if command == "match" and draw(st.booleans()):
        argv.append("--explain")
    if command == "audit":
        argv += draw(st.sampled_from([[], ["--candidates"], ["--from", "v1.2.2", "--to", "v1.3"]]))
    argv += ["-o", draw(st.sampled_from(["table", "json", "yaml"]))]
    return [*argv, "-"]


def _strict_json(text: str):
    def refuse(constant: str) -> None:
        raise AssertionError(f"JSON output holds {constant}, which JSON does not allow")

    return json.loads(text, parse_constant=refuse)


# The outputs people read, in a terminal or a CI log (JSON and YAML escape their own).
READ_BY_PEOPLE = ("table", "github", "markdown")


def check_printable(argv: list[str], run) -> None:
    """Nothing the inputs hold reaches the terminal raw: every output encodes as
    UTF-8 (a file name that is not UTF-8 is escaped), and messages and tables
    hold no control character but the line ends (JSON and YAML escape their own)."""
    run.out.encode("utf-8")
    run.err.encode("utf-8")
    texts = [run.err]
    if argv[argv.index("-o") + 1] in READ_BY_PEOPLE:
        texts.append(run.out)
    for text in texts:
        raw = {c for c in text if not c.isprintable() and c != "\n"}
        assert not raw, (raw, text)


def check_outcome(argv: list[str], run) -> None:
    """Exit 0/1 with an answer that agrees with itself, or 2 with one line."""
    assert run.code in (0, 1, 2), (run.code, run.err)
    check_printable(argv, run)
    lines = run.err.splitlines()
    if run.code == 2:
        assert run.out == "", "bad input must leave standard output empty"
        # Warnings may come first (a duplicate object); then the one error line.
        assert lines and lines[-1].startswith("modetable: error: "), run.err
        lines = lines[:-1]
    for line in lines:
        assert line.startswith("modetable: warning: ") or line in NOTICES, run.err
    if run.code == 2:
        return
    command = next(a for a in argv if a in COMMANDS)
    fmt = argv[argv.index("-o") + 1]
    if fmt in READ_BY_PEOPLE:
        assert run.out == "" or run.out.endswith("\n")  # no table: `explain` with no runtimes
        return
    data = _strict_json(run.out) if fmt == "json" else yaml.safe_load(run.out)
    if "--from" in argv:
        check_upgrade_agrees(data, run.code)
        return
    check_agrees(command, data, run.code)


def check_upgrade_agrees(data: dict, code: int) -> None:
    """An upgrade's impact does not contradict itself or its exit code."""
    summary = data["summary"]
    items = data["items"]
    assert summary["isvcs"] == len(items)
    assert summary["changed"] == sum(item["changed"] for item in items)
    assert summary["breaking"] == sum(item["breaking"] for item in items)
    assert code == (1 if summary["breaking"] else 0), summary
    for item in items:
        for side in ("from", "to"):
            assert not (item["runtime"][side] and item["message"][side]), item
        assert item["runtime"]["changed"] == (item["runtime"]["from"] != item["runtime"]["to"])
        if not item["changed"]:
            assert not item["breaking"], item
            assert item["problems"]["from"] == item["problems"]["to"], item
        for component in item["components"].values():
            moved = (component["from"] or {}).get("mode") != (component["to"] or {}).get("mode")
            assert component["changed"] == moved, component
            if component["changes"] or component["notes"]:
                assert moved or component["rule_changed"], component


def check_agrees(command: str, data: dict, code: int) -> None:
    """The output does not contradict itself or its exit code."""
    if command != "audit" and data.get("schema_findings"):
        # The API server refuses the InferenceService asked about: whatever the
        # command, its answer is admit's document, a denial (exit 1).
        assert code == 1 and not data["admission"]["allowed"], data
        assert data["admission"]["message"], data
        return
    if command == "select":
        picked = data["runtime"] is not None
        assert code == (0 if picked else 1)
        assert not (picked and data["message"]), "a runtime picked and a no-runtime message"
        if not data["admission"]["allowed"]:
            assert data["admission"]["message"]
    elif command == "match":
        passed = any(r["result"] == "pass" for r in data["runtimes"])
        assert code == (0 if passed else 1)
        for entry in data["runtimes"]:
            assert (entry["result"] == "pass") == (entry["reason"] is None), entry
    elif command == "admit":
        admission = data["admission"]
        assert code == (0 if admission["allowed"] else 1)
        assert admission["allowed"] == (admission["message"] is None)
    elif command == "audit" and "items" in data:
        summary = data["summary"]
        assert summary["isvcs"] == len(data["items"])
        for item in data["items"]:
            assert not (item["runtime"] and item["message"]), item
        every = [f for item in data["items"] for f in item["findings"]]
        every += data["manifest_findings"]
        # What OME refuses or fails at is an error finding; the exit code is
        # --fail-on error's.
        for item in data["items"]:
            if item["problems"]:
                assert "error" in {f["severity"] for f in item["findings"]}, item
        assert summary["findings"] == {
            s: sum(f["severity"] == s for f in every) for s in ("error", "warning", "info")
        }
        assert summary["ok"] + sum(summary["severity"].values()) == summary["isvcs"]
        assert code == (1 if summary["findings"]["error"] else 0), summary
    elif command == "effective":
        assert code == 0
        for name, component in data["components"].items():
            assert component["mode"] in MODES, (name, component)


@pytest.fixture(autouse=True)
def _no_last_resort(monkeypatch):
    monkeypatch.setenv("MODETABLE_DEBUG", "1")


@FUZZ
@given(documents=clusters, argv=command_lines())
def test_any_mix_of_fields_gets_an_answer_or_one_line(documents, argv):
    text = yaml.safe_dump_all(documents, sort_keys=False, allow_unicode=True)
    check_outcome(argv, run_cli(*argv, stdin=text))


@FUZZ
@given(
    documents=clusters,
    argv=command_lines(),
    position=st.floats(0, 1),
    byte=st.sampled_from(["", ":", "-", " ", "\t", "\n", "{", "[", '"', "&a", "*a", "!!", "\x00"]),
)
def test_valid_text_with_one_change_gets_an_answer_or_one_line(documents, argv, position, byte):
    text = yaml.safe_dump_all(documents, sort_keys=False)
    cut = math.floor(position * len(text))
    check_outcome(argv, run_cli(*argv, stdin=text[:cut] + byte + text[cut + 1 :]))


@FUZZ
@given(documents=spoofed_examples(), argv=command_lines(), fmt=st.sampled_from(READ_BY_PEOPLE))
def test_printed_values_that_spoof_are_shown_escaped(documents, argv, fmt):
    """Tables and lines, and the audit's GitHub annotations and Markdown (the
    checks look at them, not at JSON or YAML), print what the inputs hold escaped."""
    text = yaml.safe_dump_all(documents, sort_keys=False, allow_unicode=True)
    audit = "audit" in argv and "--from" not in argv
    argv[argv.index("-o") + 1] = fmt if audit else "table"
    check_outcome(argv, run_cli(*argv, stdin=text))


@FUZZ
@given(text=st.text(max_size=200), argv=command_lines())
def test_any_text_gets_an_answer_or_one_line(text, argv):
    check_outcome(argv, run_cli(*argv, stdin=text))


# A lower alias budget keeps each example quick; the refusal is the same at any size.
FUZZ_ALIAS_BUDGET = 20_000


@FUZZ
@given(documents=clusters, argv=command_lines(), data=st.data())
def test_tags_numbers_and_aliases_on_any_node_get_an_answer_or_one_line(documents, argv, data):
    """Explicit tags on any node (keys and documents too), numbers of any length,
    and aliases that share a node or fan out to width ** depth copies of it."""
    text = data.draw(hostile_text(yaml.safe_dump_all(documents, sort_keys=False)))
    with mock.patch.object(yamlio, "MAX_ALIAS_NODES", FUZZ_ALIAS_BUDGET):
        check_outcome(argv, run_cli(*argv, stdin=text))


@FUZZ
@given(documents=st.lists(clusters, min_size=2, max_size=3), argv=command_lines(), data=st.data())
def test_aliases_in_several_inputs_share_one_budget(documents, argv, data):
    """Each input within the budget may be refused together: one line either way."""
    with (
        tempfile.TemporaryDirectory() as folder,
        mock.patch.object(yamlio, "MAX_ALIAS_NODES", FUZZ_ALIAS_BUDGET),
    ):
        files = []
        for index, cluster in enumerate(documents):
            text = data.draw(hostile_text(yaml.safe_dump_all(cluster, sort_keys=False)))
            path = os.path.join(folder, f"{index}.yaml")
            with open(path, "w", encoding="utf-8") as stream:
                stream.write(text)
            files.append(path)
        check_outcome(argv, run_cli(*argv[:-1], *files))


# Any bytes a file name can hold (not `/`, not NUL): newlines, escapes, not UTF-8.
file_names = st.binary(min_size=1, max_size=12).filter(
    lambda name: b"/" not in name and b"\0" not in name and name not in (b".", b"..")
)


@FUZZ
@given(documents=clusters, argv=command_lines(), names=st.lists(file_names, min_size=2,
       max_size=2, unique=True))  # fmt: skip
def test_file_names_of_any_bytes_are_shown_escaped(documents, argv, names):
    """The same objects in two files whose names hold any bytes: the duplicate
    warnings, the errors and the JSON and YAML places all stay one escaped line."""
    text = yaml.safe_dump_all(documents, sort_keys=False)
    with tempfile.TemporaryDirectory() as folder:
        files = []
        for name in names:
            path = os.fsdecode(os.path.join(os.fsencode(folder), name))
            with open(path, "w", encoding="utf-8") as stream:
                stream.write(text)
            files.append(path)
        check_outcome(argv, run_cli(*argv[:-1], *files))


@FUZZ
@given(documents=clusters, version=st.sampled_from(VERSIONS))
def test_audit_agrees_with_select_on_every_inference_service(documents, version):
    """The audit's fast path and `select` reach the same outcome for each one."""
    if "audit" not in COMMANDS:
        pytest.skip("no audit command")
    text = yaml.safe_dump_all(documents, sort_keys=False)
    audit = run_cli("--ome-version", version, "audit", "-", "-o", "json", stdin=text)
    check_outcome(["--ome-version", version, "audit", "-o", "json", "-"], audit)
    if audit.code == 2:
        return
    document = _strict_json(audit.out)
    if any(f["id"] == "manifest/invalid" for f in document["manifest_findings"]):
        return  # the audit goes on without a malformed object; select refuses the input
    for item in document["items"]:
        ref = f"{item['namespace']}/{item['name']}"
        argv = ["--ome-version", version, "select", "--isvc", ref, "-o", "json", "-"]
        select = run_cli(*argv, stdin=text)
        check_outcome(argv, select)
        chosen = _strict_json(select.out)
        for field in ("runtime", "named", "message", "admission", "components", "reconcile"):
            assert item[field] == chosen[field], (ref, field)


@FUZZ
@given(documents=clusters)
def test_each_side_of_an_upgrade_is_that_versions_audit(documents):
    """`audit --from A --to B` shows, on each side, what `audit` says in that version."""
    text = yaml.safe_dump_all(documents, sort_keys=False)
    argv = ["audit", "--from", VERSIONS[0], "--to", VERSIONS[-1], "-o", "json", "-"]
    upgrade = run_cli(*argv, stdin=text)
    check_outcome(argv, upgrade)
    if upgrade.code == 2:
        return
    for side, version in (("from", VERSIONS[0]), ("to", VERSIONS[-1])):
        audit = run_cli("--ome-version", version, "audit", "-o", "json", "-", stdin=text)
        assert audit.code in (0, 1), audit.err
        audited_items = _strict_json(audit.out)["items"]
        upgrade_items = _strict_json(upgrade.out)["items"]
        if side == "to":
            assert len(upgrade_items) == len(audited_items)
        # The upgrade reads the manifests under the target version's schema: an
        # InferenceService the older schema refuses (a field added since) is
        # on the upgrade's from side but not in that version's audit.
        by_ref = {(a["namespace"], a["name"]): a for a in audited_items}
        assert len(by_ref) == len(audited_items)
        for item in upgrade_items:
            audited = by_ref.get((item["namespace"], item["name"]))
            if audited is None:
                assert side == "from", item
                continue
            runtime = audited["runtime"] and {**audited["runtime"], "named": audited["named"]}
            assert item["runtime"][side] == runtime
            assert item["message"][side] == audited["message"]
            assert item["admission"][side] == audited["admission"]["message"]
            assert item["problems"][side] == audited["problems"]
            for name, component in item["components"].items():
                assert component[side] == audited["components"].get(name)
                assert component["reconcile"][side] == audited["reconcile"].get(name)
