"""modetable's benchmarks: every goal of docs/performance.md, measured against a
baseline taken in the same run, as one table with a MET column.

    python bench/run.py                      # everything but scale (about ten minutes)
    python bench/run.py cold select          # some of it
    python bench/run.py scale                # 100,000 x 10,000 (tens of minutes)
    python bench/run.py --quick              # smaller fleets, fewer repeats

Benchmarks (docs/performance.md has the figures, the machine and where the time goes;
the goals are issue 27's, each against a floor of the project's own stack):
  decisions  mode decisions per second in-process: the compiled table, the
             interpreting one (matching.decide), and a hand-written function of
             the same rule (the floor). Goal: compiled within 1.5x of the floor.
  cold       `select` (JSON and table), `match` and `effective` on the bundled
             example, each a fresh process on one core (best of N, interleaved),
             against the floor: `python -c "import argparse, json, attrs, yaml"`,
             what a select imports of its dependencies before any of modetable's
             own code runs. Goal: at most 1.5x the floor. Also printed: `python
             -c pass`, `import modetable`, `--version`, the rules cache off, and
             `python -X importtime`'s dearest modules of a cold select. The rules
             cache is a folder of the run's own, warmed by the first runs.
  select     one `select` (with its JSON) against 1,000 runtimes, in-process on a
             loaded cluster: the reference (`selection.select`: every runtime
             assessed, what `modetable select` runs), then the first and the
             following selects through a fleet's evaluator kept for that
             cluster (its Memoised strategy). Goal:
             every select after the first at most a tenth of the reference.
  api        the Python API on one loaded Cluster (1,000 InferenceServices x 300
             runtimes): `modetable.select()` for each InferenceService against
             one `modetable.audit_cluster()` (loading excluded from both), each
             round on a Cluster loaded anew (a Cluster keeps what select()
             decides). Goal: at most 1.5x. Also printed: the same selects
             again, and select() with its to_json() on a Cluster loaded anew.
  audit      `modetable audit -o json` on 10,000 InferenceServices x 1,000 runtimes,
             one core (best of N), against the floor of a reader that keeps every
             position: PyYAML's C loader composing the same files
             (`list(yaml.compose_all(text, Loader=yaml.CSafeLoader))` per file,
             the text already read, in a fresh process, best of N, in the same
             run). Goal: at most 1.5x it, and at most 100 us of work per
             InferenceService at the margin (the audit of half the fleet over
             the same runtimes, the difference over the InferenceServices
             between). Then the same with the fleet as one JSON List (`kubectl
             get -o json`, indented by 4), against the C loader's parse of that
             file (`yaml.load_all`). Goal: at most 1x. Each with modetable's
             reader alone on the same files (printed), and the C loader's
             plain parse of the YAML files (printed).
  growth     the same audit from 1,000 to 10,000 InferenceServices over 1,000
             runtimes. Goal: linear (marginal time per InferenceService flat).
  scale      the audit at 1,000 x 100, 10,000 x 1,000 and 100,000 x 10,000, one core.
             Goal: 100,000 x 10,000 at most 12x the 10,000 x 1,000 time, peak
             memory under 2 GiB.

Every figure is CPU time (user and system) of one process pinned to one core:
on a shared machine, time spent waiting for the core is not the program's
(on a quiet machine wall time is the same). Cold starts are measured with
bytecode caching on (PYTHONDONTWRITEBYTECODE is removed from the children's
environment). On a shared machine the ratios inside one run are what count.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(HERE))

from fleet import Fleet, as_json_list, write_fleet  # noqa: E402

# (benchmark, measured, baseline, ratio, goal, met)
Row = tuple[str, str, str, str, str, str]


def _modetable() -> list[str]:
    script = Path(sys.executable).with_name("modetable")
    if script.exists():
        return [str(script)]
    found = shutil.which("modetable")
    return [found] if found else [sys.executable, "-m", "modetable"]


def _one_core() -> None:
    """Pin the child to one CPU, as the goal is stated for one core."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def _child_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra or {})
    return env


def run_measured(
    argv: list[str], env: dict[str, str] | None = None, stdout: int | None = None
) -> tuple[float, int, int]:
    """CPU seconds (user and system), peak resident memory (KiB) and exit code
    of one fresh process. CPU time, not wall time: on a shared machine a process
    waiting for the core it is pinned to does not count (wall time is what a
    user waits on a quiet machine; the two agree there)."""
    with open(os.devnull, "wb") as sink:
        process = subprocess.Popen(
            argv,
            stdout=sink if stdout is None else stdout,
            stderr=sink,
            preexec_fn=_one_core,
            env=env if env is not None else _child_environment(),
        )
        _pid, status, usage = os.wait4(process.pid, 0)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


def _met(ok: bool) -> str:
    return "yes" if ok else "NO"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


# --- decisions ---------------------------------------------------------------


def hand_written(requested: str | None, declared: str | None) -> str:
    """The page's rule, written by hand: reject only two different declared modes."""
    if requested is None or declared is None or requested == declared:
        return "pass"
    return "reject"


def _rate(function: Callable[[str | None, str | None], object], pairs: list, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        for requested, declared in pairs:
            function(requested, declared)
        best = min(best, time.perf_counter() - started)
    return len(pairs) / best


def bench_decisions(quick: bool) -> list[Row]:
    from modetable.engine.compiled import compile_matching
    from modetable.engine.matching import decide
    from modetable.rules import load_ruleset

    policy = load_ruleset().at()
    compiled = compile_matching(policy)
    generator = random.Random(11)
    # The mix a fleet asks about: mostly no mode on either side.
    values = [None] * 6 + list(policy.modes_in_force)
    pairs = [(generator.choice(values), generator.choice(values)) for _ in range(200_000)]
    repeats = 3 if quick else 7
    floor = _rate(hand_written, pairs, repeats)
    fast = _rate(compiled.decide, pairs, repeats)
    slow = _rate(lambda r, d: decide(policy, r, d), pairs[: len(pairs) // 10], repeats)
    return [
        ("decisions/s, hand-written", f"{floor / 1e6:.1f} M", "-", "1.00", "(the floor)", ""),
        (
            "decisions/s, compiled",
            f"{fast / 1e6:.1f} M",
            "hand-written",
            f"{floor / fast:.2f}x slower",
            "<= 1.5x",
            _met(floor / fast <= 1.5),
        ),
        (
            "decisions/s, interpreted",
            f"{slow / 1e6:.2f} M",
            "hand-written",
            f"{floor / slow:.1f}x slower",
            "(reference)",
            "",
        ),
    ]


# --- cold start --------------------------------------------------------------


# The modules of the standard library and the dependencies a cold `select`
# cannot start without (argument parsing, JSON, the attrs model, PyYAML): the
# floor under the cold-start goal (issue 27).
_DEPENDENCIES = "import argparse, json, attrs, yaml"
# A cold command may take at most this many times the floor (issue 27).
_COLD_GOAL = 1.5


def bench_cold(quick: bool) -> list[Row]:
    repeats = 7 if quick else 25
    cache = Path(tempfile.mkdtemp(prefix="modetable-bench-cache-"))
    env = _child_environment({"MODETABLE_CACHE_DIR": str(cache)})
    off = _child_environment({"MODETABLE_CACHE": "0"})
    isvc = str(EXAMPLES / "inference-service.yaml")
    example = ["--isvc", isvc, str(EXAMPLES)]
    goal = str(_COLD_GOAL)
    runs: list[tuple[str, list[str], dict[str, str], str]] = [
        ("python -c pass", [sys.executable, "-c", "pass"], env, ""),
        ("import modetable", [sys.executable, "-c", "import modetable"], env, ""),
        # The floor under the goal: what a select imports of its dependencies
        # alone, before any of modetable's own code runs.
        (_DEPENDENCIES, [sys.executable, "-c", _DEPENDENCIES], env, ""),
        ("modetable --version", [*_modetable(), "--version"], env, ""),
        ("modetable select -o json", [*_modetable(), "select", *example, "-o", "json"], env, goal),
        ("modetable select (table)", [*_modetable(), "select", *example], env, goal),
        ("modetable match (table)", [*_modetable(), "match", *example], env, goal),
        ("modetable effective (table)", [*_modetable(), "effective", *example], env, goal),
        (
            "modetable select -o json, cache off",
            [*_modetable(), "select", *example, "-o", "json"],
            off,
            "",
        ),
    ]
    for _label, argv, environment, _goal in runs:  # bytecode written, cache filled
        run_measured(argv, environment)
        run_measured(argv, environment)
    times: dict[str, list[float]] = {label: [] for label, *_ in runs}
    codes: dict[str, int] = {}
    for _ in range(repeats):  # interleaved, so a busy moment hits every command alike
        for label, argv, environment, _goal in runs:
            elapsed, _memory, codes[label] = run_measured(argv, environment)
            times[label].append(elapsed)
    print_imports([*_modetable(), "select", *example, "-o", "json"], env)
    shutil.rmtree(cache, ignore_errors=True)
    empty = min(times["python -c pass"])
    floor = min(times[_DEPENDENCIES])
    rows: list[Row] = []
    for label, _argv, _env, goal in runs:
        best = min(times[label])
        shown = _ms(best) + ("" if codes[label] in (0, 1) else f" (exit {codes[label]})")
        if label == "python -c pass":
            rows.append((label, shown, _DEPENDENCIES, f"{best / floor:.2f}x", "(printed)", ""))
            continue
        if label == _DEPENDENCIES:
            rows.append((label, shown, "python -c pass", f"{best / empty:.1f}x", "(the floor)", ""))
            continue
        ratio = best / floor
        rows.append(
            (
                f"{label} (example)"
                if "modetable " in label and "--version" not in label
                else label,
                shown,
                "the floor",
                f"{ratio:.2f}x",
                f"<= {goal}x" if goal else "(printed)",
                _met(ratio <= float(goal) and codes[label] in (0, 1)) if goal else "",
            )
        )
    return rows


def print_imports(argv: list[str], env: dict[str, str], top: int = 15, runs: int = 5) -> None:
    """What a cold command imports, the dearest first (`python -X importtime`,
    bytecode cached; each module's least time over `runs` runs, as importtime
    counts wall time, which a shared machine's other work inflates)."""
    least: dict[str, int] = {}
    for _ in range(runs):
        found = subprocess.run(
            [sys.executable, "-X", "importtime", *argv],
            capture_output=True,
            text=True,
            env=env,
            preexec_fn=_one_core,
        ).stderr
        for line in found.splitlines():
            if not line.startswith("import time:") or "imported package" in line:
                continue
            own, _total, name = line.removeprefix("import time:").split("|")
            least[name.strip()] = min(least.get(name.strip(), int(own)), int(own))
    print(
        f"`python -X importtime {' '.join(Path(a).name for a in argv[:2])} ...`: "
        f"{len(least)} modules, {sum(least.values()) / 1000:.1f} ms in all (each its "
        f"least of {runs} runs); the {top} dearest by their own time:"
    )
    for name, own in sorted(least.items(), key=lambda item: -item[1])[:top]:
        print(f"  {own / 1000:7.1f} ms  {name}")


# --- one select in-process ---------------------------------------------------------


def bench_select(quick: bool, folder: Path) -> list[Row]:
    from modetable.inputs.manifests import build_cluster
    from modetable.inputs.sources import parse_objects, read_documents
    from modetable.rules import load_ruleset
    from modetable.selection import Evaluator, Memoised, select
    from modetable.views.converter import unstructure
    from modetable.views.select import SelectView

    _one_core()
    size = 300 if quick else 1_000
    fleet = _fleet(folder, size, size)
    policy = load_ruleset().at()
    objects, skipped = parse_objects(read_documents([str(fleet)], None), policy.rules.manifests)
    cluster = build_cluster(objects, skipped, policy.rules.manifests)
    # InferenceServices that name no runtime: auto-selection assesses every runtime.
    auto = [i for i in cluster.isvcs if not i.spec.get("runtime")][:25]
    rounds = 2 if quick else 3
    reference: dict[int, float] = {}
    first = float("inf")
    after: dict[int, float] = {}
    for _ in range(rounds):  # each figure the best of its rounds: noise only adds time
        for index, isvc in enumerate(auto):
            started = time.perf_counter()
            unstructure(SelectView.of(policy, select(policy, cluster, isvc)))
            elapsed = time.perf_counter() - started
            reference[index] = min(reference.get(index, elapsed), elapsed)
        gc.collect()
        started = time.perf_counter()
        evaluator = Evaluator(policy, cluster, Memoised(policy, cluster), candidates=True)
        unstructure(SelectView.of(policy, select(policy, cluster, auto[0], evaluator)))
        first = min(first, time.perf_counter() - started)
        for index, isvc in enumerate(auto[1:], start=1):
            started = time.perf_counter()
            unstructure(SelectView.of(policy, select(policy, cluster, isvc, evaluator)))
            elapsed = time.perf_counter() - started
            after[index] = min(after.get(index, elapsed), elapsed)
        del evaluator
    base = statistics.median(reference.values())
    later = statistics.median(after.values())
    label = f"{len(cluster.runtimes):,} runtimes"
    return [
        (
            f"select + JSON, reference, {label}",
            _ms(base),
            "-",
            "1.0x",
            f"(median of {len(auto)})",
            "",
        ),
        (
            "  first select on a loaded cluster",
            _ms(first),
            "reference",
            f"{first / base:.2f}x",
            "(printed)",
            "",
        ),
        (
            "  every later select on it",
            _ms(later),
            "reference",
            f"{later / base:.2f}x",
            "<= 0.10x",
            _met(later <= base / 10),
        ),
    ]


# --- the library: select() for each InferenceService against one audit ------------

# `select()` for every InferenceService of a loaded Cluster may take at most this
# many times one `audit_cluster()` of it (issue 27).
_API_GOAL = 1.5


def bench_api(quick: bool, folder: Path) -> list[Row]:
    """The Python API on one loaded Cluster (loading excluded from both, in
    CPU seconds of this process, pinned to one core): `modetable.select` for each
    of its InferenceServices in turn, against one `modetable.audit_cluster`.
    A Cluster keeps what select() decides about it (docs/api.md), so each round
    loads a new one: the goal's figure is the first pass over a Cluster; the
    same selects again on it are printed, and select() with each result's
    JSON (its candidates, found when the JSON is asked for) on another."""
    import modetable

    _one_core()
    isvcs, runtimes = (200, 100) if quick else (1_000, 300)
    fleet = _fleet(folder, isvcs, runtimes)
    policy = modetable.load_rules().at()
    rounds = 1 if quick else 2
    audited = float("inf")
    selected = float("inf")
    again = float("inf")
    documents = float("inf")
    for _ in range(rounds):  # interleaved; each figure the best of its rounds
        cluster = modetable.Cluster.from_paths(str(fleet), rules=policy)
        names, count = cluster.isvcs, len(cluster.runtimes)
        gc.collect()
        started = time.process_time()
        modetable.audit_cluster(policy, cluster)
        audited = min(audited, time.process_time() - started)
        gc.collect()
        started = time.process_time()
        for name in names:
            modetable.select(policy, cluster, name)
        selected = min(selected, time.process_time() - started)
        gc.collect()
        started = time.process_time()
        for name in names:
            modetable.select(policy, cluster, name)
        again = min(again, time.process_time() - started)
        # The JSON too, each result's candidates found for it.
        cluster = modetable.Cluster.from_paths(str(fleet), rules=policy)
        gc.collect()
        started = time.process_time()
        for name in names:
            modetable.select(policy, cluster, name).to_json()
        documents = min(documents, time.process_time() - started)
        del cluster
    ratio = selected / audited
    return [
        (
            f"audit_cluster(), {len(names):,} ISVCs x {count:,} runtimes",
            f"{audited:.2f} s",
            "-",
            "1.0x",
            "(the yardstick)",
            "",
        ),
        (
            "  select() for each of its InferenceServices",
            f"{selected:.2f} s",
            "audit_cluster()",
            f"{ratio:.1f}x",
            f"<= {_API_GOAL}x",
            _met(ratio <= _API_GOAL),
        ),
        (
            "  the same selects again on that Cluster",
            f"{again:.2f} s",
            "audit_cluster()",
            f"{again / audited:.1f}x",
            "(printed)",
            "",
        ),
        (
            "  select() and its to_json() for each, anew",
            f"{documents:.2f} s",
            "audit_cluster()",
            f"{documents / audited:.1f}x",
            "(printed)",
            "",
        ),
    ]


# --- audit, growth and scale ----------------------------------------------------------


# The yardsticks: PyYAML's C loader alone on the fleet's files, in a fresh
# process, in CPU seconds. `compose` builds nodes that keep their marks: the
# floor of a reader that keeps every position on this stack (issue 27's YAML
# goal); `load` builds plain objects (the JSON goal's yardstick, and printed).
_PARSE = """
import sys, time, yaml
texts = [open(name, encoding="utf-8").read() for name in sys.argv[2:]]
read = getattr(yaml, sys.argv[1])
started = time.process_time()
for text in texts:
    list(read(text, Loader=yaml.CSafeLoader))
print(time.process_time() - started)
"""
# The audit's goals (issue 27): against compose on YAML, against the C
# loader's parse on one JSON List, and the work per InferenceService at the
# margin (between two fleet sizes over the same runtimes).
_AUDIT_GOAL = 1.5
_JSON_GOAL = 1.0
_MARGINAL_GOAL_US = 100


def _fleet(folder: Path, isvcs: int, runtimes: int) -> Path:
    out = folder / f"fleet-{isvcs}x{runtimes}"
    if not out.exists():
        write_fleet(Fleet(isvcs, runtimes).build(), out)
    return out


def _json_fleet(folder: Path, isvcs: int, runtimes: int) -> Path:
    """The same fleet as one file, as `kubectl get -o json` writes a List."""
    out = folder / f"fleet-{isvcs}x{runtimes}-json"
    if not out.exists():
        out.mkdir(parents=True)
        (out / "cluster.json").write_text(as_json_list(Fleet(isvcs, runtimes).build()))
    return out


def _audit(fleet: Path, repeats: int) -> tuple[float, int, int]:
    runs = [
        run_measured([*_modetable(), "audit", str(fleet), "-o", "json"]) for _ in range(repeats)
    ]
    # The best of the runs: the machine may be shared, and noise only adds time.
    elapsed = min(r[0] for r in runs)
    return elapsed, max(r[1] for r in runs), runs[-1][2]


def parse_yardstick(fleet: Path, repeats: int, read: str = "load_all") -> float:
    """CPU seconds PyYAML's C loader takes to `read` (load_all or compose_all)
    the fleet's files (best of `repeats`)."""
    return _best_script(_PARSE, fleet, repeats, [read])


def _best_script(script: str, fleet: Path, repeats: int, arguments: list[str] = ()) -> float:
    """The least of the seconds `script` prints on the fleet's files, each run
    a fresh process on one core."""
    files = sorted(str(path) for path in fleet.iterdir() if path.suffix in (".yaml", ".json"))
    best = float("inf")
    for _ in range(repeats):
        out = subprocess.run(
            [sys.executable, "-c", script, *arguments, *files],
            capture_output=True,
            text=True,
            check=True,
            preexec_fn=_one_core,
        ).stdout
        best = min(best, float(out))
    return best


# The floor under the audit goal: modetable's own reader alone on the same texts,
# every mapping and list given its place (yamlio on PyYAML's C parser; JSON by
# jsonio), the collector paused as the CLI pauses it while loading. Everything
# else an audit does comes on top of this.
_READ = """
import gc, sys, time
from modetable.parsing.jsonio import load_json
from modetable.parsing.yamlio import load_documents, one_run
texts = [(open(name, encoding="utf-8").read(), name) for name in sys.argv[1:]]
gc.disable()
started = time.process_time()
with one_run():
    for text, name in texts:
        documents = load_json(text, name)
        if documents is None:
            documents = load_documents(text, name)
print(time.process_time() - started)
"""


def reader_floor(fleet: Path, repeats: int) -> float:
    """Seconds modetable's reader takes on the fleet's files (best of `repeats`)."""
    return _best_script(_READ, fleet, repeats)


_AUDITS: dict[tuple[int, int], tuple[float, int, int]] = {}


def _audited(folder: Path, isvcs: int, runtimes: int, repeats: int) -> tuple[float, int, int]:
    """The audit of one fleet size, measured once per run of this script."""
    key = (isvcs, runtimes)
    if key not in _AUDITS:
        _AUDITS[key] = _audit(_fleet(folder, isvcs, runtimes), repeats)
    return _AUDITS[key]


def bench_audit(quick: bool, folder: Path) -> list[Row]:
    isvcs, runtimes = (2_000, 200) if quick else (10_000, 1_000)
    repeats = 1 if quick else 3
    fleet = _fleet(folder, isvcs, runtimes)
    # Interleaved: each yardstick next to the audit it measures.
    composed = parse_yardstick(fleet, repeats, "compose_all")
    elapsed, memory, code = _audited(folder, isvcs, runtimes, repeats)
    loaded = parse_yardstick(fleet, repeats)
    ratio = elapsed / composed
    # The work per InferenceService at the margin: half the fleet over the
    # same runtimes (a size growth measures too), the difference over the
    # InferenceServices between.
    fewer = isvcs // 2
    smaller, _memory, _code = _audited(folder, fewer, runtimes, repeats)
    marginal = (elapsed - smaller) / (isvcs - fewer) * 1e6
    return [
        (
            "PyYAML C loader composing the fleet's files (nodes with marks)",
            f"{composed:.2f} s",
            "-",
            "1.0x",
            "(the floor)",
            "",
        ),
        (
            f"audit {isvcs:,} ISVCs x {runtimes:,} runtimes -o json, 1 core",
            f"{elapsed:.2f} s" + ("" if code in (0, 1) else f" (exit {code})"),
            "C compose",
            f"{ratio:.2f}x",
            f"<= {_AUDIT_GOAL}x",
            _met(ratio <= _AUDIT_GOAL and code in (0, 1)),
        ),
        (
            f"  work per InferenceService at the margin ({fewer:,} to {isvcs:,})",
            f"{marginal:.0f} us",
            "-",
            "-",
            f"<= {_MARGINAL_GOAL_US} us",
            _met(marginal <= _MARGINAL_GOAL_US),
        ),
        ("  peak memory (max RSS)", f"{memory / 1024:.0f} MiB", "-", "-", "(printed)", ""),
        (
            "  PyYAML C loader parsing the same files (plain objects)",
            f"{loaded:.2f} s",
            "-",
            f"{elapsed / loaded:.2f}x (the audit)",
            "(printed)",
            "",
        ),
        _floor_row(fleet, composed, repeats, "C compose"),
        *_json_audit(folder, isvcs, runtimes, repeats),
    ]


def _json_audit(folder: Path, isvcs: int, runtimes: int, repeats: int) -> list[Row]:
    """The same audit with the fleet as `kubectl get -o json` gives it (read by
    the json module, jsonio.py), against the C loader on that file."""
    fleet = _json_fleet(folder, isvcs, runtimes)
    yardstick = parse_yardstick(fleet, repeats)
    elapsed, _memory, code = _audit(fleet, repeats)
    ratio = elapsed / yardstick
    return [
        (
            "PyYAML C loader parsing it as one JSON List",
            f"{yardstick:.2f} s",
            "-",
            "1.0x",
            "(the yardstick)",
            "",
        ),
        (
            "  the same audit, its input that JSON",
            f"{elapsed:.2f} s" + ("" if code in (0, 1) else f" (exit {code})"),
            "C loader parse",
            f"{ratio:.2f}x",
            f"<= {_JSON_GOAL}x",
            _met(ratio <= _JSON_GOAL and code in (0, 1)),
        ),
        _floor_row(fleet, yardstick, repeats, "C loader parse"),
    ]


def _floor_row(fleet: Path, yardstick: float, repeats: int, against: str) -> Row:
    floor = reader_floor(fleet, repeats)
    return (
        "  of it, modetable's reader alone (every position)",
        f"{floor:.2f} s",
        against,
        f"{floor / yardstick:.2f}x",
        "(the floor)",
        "",
    )


def bench_growth(quick: bool, folder: Path) -> list[Row]:
    """Wall time from 1k to 10k InferenceServices over the same runtimes. Linear
    growth shows as a flat marginal cost per InferenceService (each step's extra
    time over its extra InferenceServices); fixed costs (start-up, reading the
    runtimes, the index) only make the first sizes look dear per item."""
    runtimes = 200 if quick else 1_000
    sizes = [500, 1_000, 2_000] if quick else [1_000, 2_000, 5_000, 10_000]
    rows: list[Row] = []
    previous: tuple[int, float] | None = None
    marginals: list[float] = []
    for isvcs in sizes:
        elapsed, _memory, code = _audited(folder, isvcs, runtimes, 1 if quick else 3)
        marginal = "-"
        if previous is not None:
            per = (elapsed - previous[1]) / (isvcs - previous[0])
            marginals.append(per)
            marginal = f"{per * 1e6:.0f} us marginal"
        previous = (isvcs, elapsed)
        rows.append(
            (
                f"audit {isvcs:,} ISVCs x {runtimes:,} runtimes",
                f"{elapsed:.2f} s" + ("" if code in (0, 1) else f" (exit {code})"),
                "previous size",
                marginal,
                "flat (linear)",
                "",
            )
        )
    if marginals:
        spread = max(marginals) / min(marginals) if min(marginals) > 0 else float("inf")
        rows.append(
            (
                "  marginal cost, largest / smallest",
                f"{spread:.2f}",
                "-",
                "-",
                "< 2 (no super-linear growth)",
                _met(spread < 2),
            )
        )
    return rows


def bench_scale(quick: bool, folder: Path) -> list[Row]:
    """The audit as the fleet grows tenfold twice: InferenceServices and runtimes
    alike (one step is then about ten times the work, twice that if anything
    grows with their product)."""
    sizes = (
        [(200, 20), (2_000, 200), (20_000, 2_000)]
        if quick
        else [
            (1_000, 100),
            (10_000, 1_000),
            (100_000, 10_000),
        ]
    )
    rows: list[Row] = []
    measured = []
    for isvcs, runtimes in sizes:
        repeats = 1 if quick or isvcs >= 100_000 else 3
        elapsed, memory, code = _audited(folder, isvcs, runtimes, repeats)
        measured.append((elapsed, memory))
        ratio = f"{elapsed / measured[-2][0]:.1f}x" if len(measured) > 1 else "-"
        last = len(measured) == len(sizes)
        rows.append(
            (
                f"audit {isvcs:,} ISVCs x {runtimes:,} runtimes, 1 core",
                f"{elapsed:.1f} s" + ("" if code in (0, 1) else f" (exit {code})"),
                "previous size" if len(measured) > 1 else "-",
                ratio,
                "<= 12x" if last else "",
                _met(elapsed <= 12 * measured[-2][0] and code in (0, 1)) if last else "",
            )
        )
        rows.append(
            (
                "  peak memory (max RSS)",
                f"{memory / 1024:.0f} MiB",
                "-",
                "-",
                "< 2 GiB" if last else "",
                _met(memory < 2 * 1024 * 1024) if last else "",
            )
        )
    return rows


# --- the table -----------------------------------------------------------------


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = f", load {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    return (
        f"{cpu}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}{load}"
    )


def print_table(rows: list[Row]) -> None:
    headers = ("BENCHMARK", "MEASURED", "BASELINE", "RATIO", "GOAL", "MET")
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    for row in [headers, *rows]:
        print(
            "   ".join(
                str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)
            ).rstrip()
        )


BENCHMARKS: dict[str, Callable[..., list[Row]]] = {
    "decisions": lambda quick, folder: bench_decisions(quick),
    "cold": lambda quick, folder: bench_cold(quick),
    "select": bench_select,
    "api": bench_api,
    "audit": bench_audit,
    "growth": bench_growth,
    "scale": bench_scale,
}
DEFAULT = ["decisions", "cold", "select", "api", "audit", "growth"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="modetable benchmarks")
    parser.add_argument(
        "which",
        nargs="*",
        metavar="BENCHMARK",
        help=", ".join(BENCHMARKS) + " (default: all but scale)",
    )
    parser.add_argument("--quick", action="store_true", help="smaller fleets, fewer repeats")
    parser.add_argument("--fleets", type=Path, help="keep generated fleets in this folder")
    args = parser.parse_args(argv)
    which = args.which or DEFAULT
    unknown = sorted(set(which) - set(BENCHMARKS))
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}")
    print(f"machine: {machine()}")
    folder = args.fleets or Path(tempfile.mkdtemp(prefix="modetable-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    rows: list[Row] = []
    for name in BENCHMARKS:
        if name in which:
            rows += BENCHMARKS[name](args.quick, folder)
    print(f"machine after: {machine()}")
    print_table(rows)
    if args.fleets is None:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
