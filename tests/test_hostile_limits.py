"""Resource limits: inputs built to exhaust the machine end in one line, within
bounded memory. Memory is measured with tracemalloc only as a bound; nothing
here is timed (docs/limits.md lists the limits, bench/ measures speed)."""

from __future__ import annotations

import io
import tracemalloc
from pathlib import Path

import pytest
import yaml
from conftest import CATALOG, isvc_doc, need, run_cli, write

from modetable.errors import ModetableError
from modetable.inputs.sources import read_documents
from modetable.parsing import yamlio
from modetable.parsing.yamlio import load_documents

MB = 1024 * 1024


def _peak(action) -> int:
    """The peak of memory Python allocates while `action` runs, in bytes."""
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _refusal(text: str, name: str = "bomb.yaml") -> tuple[str, int]:
    """The error loading `text` gives, and the peak memory it took to give it."""
    found: list[str] = []

    def load() -> None:
        with pytest.raises(ModetableError) as caught:
            load_documents(text, name)
        found.append(str(caught.value))

    peak = _peak(load)
    return found[0], peak


def billion_laughs(levels: int = 9, width: int = 9) -> str:
    lines = [f"a0: &a0 [{', '.join(['lol'] * width)}]"]
    for level in range(1, levels + 1):
        refs = ", ".join([f"*a{level - 1}"] * width)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "kind: InferenceService\n" + "\n".join(lines) + "\n"


def merge_bomb(levels: int) -> str:
    """Each mapping merges the one before: tiny text, quadratically many pairs."""
    lines = ["kind: InferenceService", "m0: &m0 {k0: 0}"]
    lines += [f"m{i}: &m{i} {{<<: *m{i - 1}, k{i}: {i}}}" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


ALIAS_LIMIT = (
    f"YAML aliases add more than {yamlio.MAX_ALIAS_NODES} nodes in all inputs together "
    "(aliases repeated too often)"
)


def test_a_billion_laughs_is_refused_at_once():
    message, peak = _refusal(billion_laughs())
    assert message == f"bomb.yaml:1:1: {ALIAS_LIMIT}"
    assert peak < 5 * MB


def _shared_config_fleet(folder: Path, count: int, keys: int, references: int) -> None:
    """`count` files, each a List of a runtime and an InferenceService naming it, whose
    engine and engineConfig alias one mapping of `keys` keys `references` times each."""
    mapping = "{" + ", ".join(f"k{i}: {i}" for i in range(keys)) + "}"
    refs = "{" + ", ".join(f"a{i}: *m" for i in range(references)) + "}"
    for n in range(count):
        write(
            folder,
            f"isvc-{n:03d}.yaml",
            f"""kind: List
items:
- apiVersion: ome.io/v1beta1
  kind: ServingRuntime
  metadata: {{name: rt-{n}, namespace: ns}}
  spec:
    base: &m {mapping}
    engineConfig: {refs}
- apiVersion: ome.io/v1beta1
  kind: InferenceService
  metadata: {{name: svc-{n}, namespace: ns}}
  spec:
    model: {{name: m}}
    runtime: {{name: rt-{n}}}
    engine: {refs}
""",
        )


def test_the_issues_fleet_of_aliased_configs_is_refused_at_the_budget(tmp_path):
    """100 InferenceServices of about 38 KB, each whose engine and runtime
    engineConfig alias one 1,900-key mapping 950 times (3.6 million nodes a file,
    within the old per-document limit): the run's budget stops the first file."""
    _shared_config_fleet(tmp_path, 100, 1900, 950)
    assert 35_000 < (tmp_path / "isvc-000.yaml").stat().st_size < 45_000
    for command in (["audit"], ["select", "--isvc", "ns/svc-1"]):
        run = run_cli(*command, str(tmp_path))
        assert (run.code, run.out, run.err) == (
            2,
            "",
            f"modetable: error: {tmp_path}/isvc-000.yaml:1:1: {ALIAS_LIMIT}\n",
        )


def test_aliased_configs_within_the_budget_are_answered(tmp_path, monkeypatch):
    """Below the budget the fleet is answered: merging reads only the paths the
    rules read, so the expanded configs are never walked."""
    monkeypatch.setattr(yamlio, "MAX_ALIAS_NODES", 20_000_000)
    _shared_config_fleet(tmp_path, 3, 1900, 950)
    run = run_cli("audit", "-o", "json", str(tmp_path))
    assert (run.code, run.err) == (1, "")
    # The API server refuses every object for its unknown fields (`base`, each
    # `aN`), found without walking what they alias: answered, none audited.
    document = run.json()
    assert document["items"] == []
    found = document["manifest_findings"]
    assert {f["id"] for f in found} == {"schema/unknown-field"}
    assert len(found) == 3 * (1 + 950 + 950)


@pytest.mark.slow
def test_a_merge_key_bomb_is_refused_within_the_node_limit(monkeypatch):
    """200 KB of `<<` merges would build 18 million pairs; the node budget stops it.
    (A lower limit here keeps the test light: the pairs built up to the limit
    are what tracemalloc makes slow, 200,000 took 12 s. The peak, 15 MB here,
    is mostly the 200 KB composed; unchecked, the merges alone take gigabytes.)"""
    monkeypatch.setattr(yamlio, "MAX_NODES", 50_000)
    text = merge_bomb(6000)
    message, peak = _refusal(text)
    assert message.endswith(
        ": YAML builds more than 50000 nodes "
        "(a file this large, or merge keys (<<) repeated too often)"
    )
    assert message.startswith("bomb.yaml:")
    assert peak < 30 * MB


def test_the_budget_is_the_runs_across_files(tmp_path, monkeypatch):
    """Each file within the budget, the files together past it: the second is refused."""
    _shared_config_fleet(tmp_path, 2, 100, 100)  # 2 * 100 * 100 nodes added a file
    monkeypatch.setattr(yamlio, "MAX_ALIAS_NODES", 30_000)
    assert run_cli("audit", str(tmp_path / "isvc-000.yaml")).code == 1
    run = run_cli("audit", str(tmp_path))
    assert (run.code, run.err) == (
        2,
        f"modetable: error: {tmp_path}/isvc-001.yaml:1:1: YAML aliases add more than 30000 "
        "nodes in all inputs together (aliases repeated too often)\n",
    )


def test_merge_keys_spend_the_runs_budget_across_files(tmp_path, monkeypatch):
    """Merge keys copy an alias's pairs into each mapping: they spend the run's
    budget too, or many files could each build up to the node limit (12 files
    of 33 KB took half a minute). Each file within the budget, the two together
    past it: the second is refused at the mapping that passes it (the rules
    file's aliases counted too, whether it came from the rules cache or not)."""
    keys = "{" + ", ".join(f"k{i}: {i}" for i in range(100)) + "}"
    merges = "\n".join(f"  m{j}: {{<<: *base}}" for j in range(100))
    for n in range(2):
        write(tmp_path, f"merge-{n}.yaml", f"kind: ConfigMap\nbase: &base {keys}\nx:\n{merges}\n")
    write(tmp_path, "svc.yaml", yaml.safe_dump(isvc_doc("svc")))
    monkeypatch.setattr(yamlio, "MAX_ALIAS_NODES", 15_000)  # 100 * 100 pairs a file
    alone = run_cli(
        "match", "--isvc", "svc", *(str(tmp_path / f) for f in ("merge-0.yaml", "svc.yaml"))
    )
    assert (alone.code, alone.err) == (1, "")
    run = run_cli("match", "--isvc", "svc", str(tmp_path))
    assert (run.code, run.out, run.err) == (
        2,
        "",
        f"modetable: error: {tmp_path}/merge-1.yaml:52:8: YAML aliases add more than 15000 "
        "nodes in all inputs together (aliases repeated too often)\n",
    )


def test_merge_keys_within_the_limits_still_work():
    text = "base: &b {x: 1, y: 2}\nkind: InferenceService\nover: {<<: *b, y: 3}\n"
    [(document, _)] = load_documents(text, "f.yaml")
    assert document["over"] == {"x": 1, "y": 3}


def test_an_alias_to_itself_is_refused():
    message, _ = _refusal("kind: InferenceService\nloop: &a [1, *a]\n")
    assert message == "bomb.yaml:2:7: YAML alias refers to a node that holds it"


def test_nesting_past_the_depth_limit_is_refused():
    depth = yamlio.MAX_DEPTH + 50
    message, _ = _refusal("kind: InferenceService\nx: " + "[" * depth + "]" * depth + "\n")
    column = 3 + yamlio.MAX_DEPTH  # the list whose items would be one level too deep
    assert message == (
        f"bomb.yaml:2:{column}: YAML nested deeper than the limit of {yamlio.MAX_DEPTH}"
    )


def test_aliases_cannot_nest_past_the_depth_limit_either():
    half = yamlio.MAX_DEPTH // 2 + 10
    text = f"a: &a {'[' * half}1{']' * half}\nb: {'[' * half}*a{']' * half}\n"
    message, _ = _refusal(text)
    assert message == f"bomb.yaml:1:1: YAML nested deeper than the limit of {yamlio.MAX_DEPTH}"


def test_nesting_past_what_the_parser_takes_is_one_line():
    message, _ = _refusal("x: " + "[" * 20_000 + "]" * 20_000)
    assert message.startswith("bomb.yaml:1:")
    assert "nest" in message


def test_a_50_mb_manifest_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "dump.yaml"
    with big.open("wb") as stream:
        stream.truncate(50_000_000)  # sparse: the size is real, the disk stays empty
    runs = []
    peak = _peak(lambda: runs.append(run_cli("match", "--isvc", "svc", str(big))))
    assert (runs[0].code, runs[0].out, runs[0].err) == (
        2,
        "",
        f"modetable: error: {big}: input is 50000000 bytes, more than the limit of "
        f"{yamlio.MAX_INPUT_BYTES} bytes (split it into several files)\n",
    )
    assert peak < 10 * MB


def test_standard_input_past_the_limit_is_refused(monkeypatch):
    monkeypatch.setattr(yamlio, "MAX_INPUT_BYTES", 1000)
    stdin = io.BytesIO(b"# padding\n" * 200)
    with pytest.raises(ModetableError) as caught:
        list(read_documents(["-"], stdin))
    assert str(caught.value) == (
        "<stdin>: input is more than the limit of 1000 bytes (split it into several files)"
    )


def test_a_file_just_under_the_limit_is_read(tmp_path, monkeypatch):
    document = yaml.safe_dump(isvc_doc("svc"), sort_keys=False)
    text = document + "".join(f"# {i:08d}\n" for i in range(200))
    path = write(tmp_path, "isvc.yaml", text)
    monkeypatch.setattr(yamlio, "MAX_INPUT_BYTES", len(text.encode()))
    [(loaded, _)] = read_documents([str(path)])
    assert loaded["metadata"]["name"] == "svc"
    monkeypatch.setattr(yamlio, "MAX_INPUT_BYTES", len(text.encode()) - 1)
    with pytest.raises(ModetableError) as caught:
        list(read_documents([str(path)]))
    assert str(caught.value) == (
        f"{path}: input is {len(text)} bytes, more than the limit of {len(text) - 1} bytes "
        "(split it into several files)"
    )


@pytest.mark.slow
def test_loading_costs_a_bounded_multiple_of_the_input():
    """The whole runtime catalog (about 0.8 MB) loads within 20 bytes of memory
    per byte of YAML, positions included, so the byte limit bounds memory."""
    files = sorted(Path(need(CATALOG) / "runtimes").rglob("*.yaml"))
    text = "".join(f.read_text() + "\n---\n" for f in files)
    peak = _peak(lambda: load_documents(text, "catalog.yaml"))
    assert peak < 20 * len(text.encode())
