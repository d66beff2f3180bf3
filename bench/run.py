"""modetable's benchmarks: measured figures against their baselines, as one table.

    python bench/run.py                      # everything (a few minutes)
    python bench/run.py decisions cold       # some of it
    python bench/run.py --quick              # smaller fleets, fewer repeats

Benchmarks (see docs/performance.md for the figures and the machine):
  decisions  mode decisions per second in-process: the compiled table, the
             interpreting one (matching.decide), and a hand-written function of
             the same rule (the floor). Goal: compiled within 1.5x of the floor.
  cold       `modetable --version` and `modetable select` / `match` on the bundled
             example, each a fresh process, against `python -c pass`. Goal: < 250 ms.
  audit      `modetable audit` on 10,000 InferenceServices x 1,000 runtimes, one
             core, with its peak memory. Goal: < 10 s.
  growth     the same audit from 1,000 to 10,000 InferenceServices. Goal: linear
             (time per InferenceService flat).
"""

from __future__ import annotations

import argparse
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

from fleet import Fleet, write_fleet  # noqa: E402

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


def run_measured(argv: list[str]) -> tuple[float, int, int]:
    """Wall seconds, peak resident memory (KiB) and exit code of one fresh process."""
    started = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        process = subprocess.Popen(argv, stdout=sink, stderr=sink, preexec_fn=_one_core)
        _pid, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    return elapsed, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


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
    from modetable.compiled import compile_matching
    from modetable.matching import decide
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


def _median_run(argv: list[str], repeats: int) -> tuple[float, int]:
    times = []
    code = 0
    for _ in range(repeats):
        elapsed, _memory, code = run_measured(argv)
        times.append(elapsed)
    return statistics.median(times), code


def _has_command(name: str) -> bool:
    _elapsed, _memory, code = run_measured([*_modetable(), name, "--help"])
    return code == 0


def bench_cold(quick: bool) -> list[Row]:
    repeats = 5 if quick else 15
    floor, _ = _median_run([sys.executable, "-c", "pass"], repeats)
    rows: list[Row] = [("python -c pass", f"{floor * 1000:.0f} ms", "-", "1.00", "(the floor)", "")]
    isvc = str(EXAMPLES / "inference-service.yaml")
    commands = [("modetable --version", ["--version"])]
    for name in ("select", "match"):
        if _has_command(name):
            commands.append((f"modetable {name} (example)", [name, "--isvc", isvc, str(EXAMPLES)]))
    commands.append(("import modetable (Python API)", [sys.executable, "-c", "import modetable"]))
    for label, argv in commands:
        prefix = [] if argv[0] == sys.executable else _modetable()
        elapsed, code = _median_run([*prefix, *argv], repeats)
        rows.append(
            (
                label,
                f"{elapsed * 1000:.0f} ms" + ("" if code in (0, 1) else f" (exit {code})"),
                "python -c pass",
                f"{elapsed / floor:.1f}x",
                "< 250 ms",
                _met(elapsed < 0.25 and code in (0, 1)),
            )
        )
    return rows


# --- audit and growth ----------------------------------------------------------


def _fleet(folder: Path, isvcs: int, runtimes: int) -> Path:
    out = folder / f"fleet-{isvcs}x{runtimes}"
    if not out.exists():
        write_fleet(Fleet(isvcs, runtimes).build(), out)
    return out


def _audit(fleet: Path, repeats: int) -> tuple[float, int, int]:
    runs = [
        run_measured([*_modetable(), "audit", str(fleet), "-o", "json"]) for _ in range(repeats)
    ]
    # The best of the runs: the machine may be shared, and noise only adds time.
    elapsed = min(r[0] for r in runs)
    return elapsed, max(r[1] for r in runs), runs[-1][2]


def bench_audit(quick: bool, folder: Path) -> list[Row]:
    if not _has_command("audit"):
        return [("modetable audit", "n/a", "-", "-", "< 10 s", "no audit command")]
    isvcs, runtimes = (2_000, 200) if quick else (10_000, 1_000)
    fleet = _fleet(folder, isvcs, runtimes)
    elapsed, memory, code = _audit(fleet, 1 if quick else 3)
    floor, _ = _median_run([sys.executable, "-c", "pass"], 3)
    return [
        (
            f"audit {isvcs:,} ISVCs x {runtimes:,} runtimes, 1 core",
            f"{elapsed:.2f} s" + ("" if code in (0, 1) else f" (exit {code})"),
            "10 s",
            f"{elapsed / 10:.2f}",
            "< 10 s",
            _met(elapsed < 10 and code in (0, 1)),
        ),
        (
            "  peak memory (max RSS)",
            f"{memory / 1024:.0f} MiB",
            "-",
            "-",
            "(printed)",
            "",
        ),
        (
            "  per InferenceService",
            f"{(elapsed - floor) / isvcs * 1e6:.0f} us",
            "-",
            "-",
            "",
            "",
        ),
    ]


def bench_growth(quick: bool, folder: Path) -> list[Row]:
    """Wall time from 1k to 10k InferenceServices over the same runtimes. Linear
    growth shows as a flat marginal cost per InferenceService (each step's extra
    time over its extra InferenceServices); fixed costs (start-up, reading the
    runtimes, the index) only make the first sizes look dear per item."""
    if not _has_command("audit"):
        return [("audit growth", "n/a", "-", "-", "linear", "no audit command")]
    runtimes = 200 if quick else 1_000
    sizes = [500, 1_000, 2_000] if quick else [1_000, 2_000, 5_000, 10_000]
    rows: list[Row] = []
    previous: tuple[int, float] | None = None
    marginals: list[float] = []
    for isvcs in sizes:
        elapsed, _memory, code = _audit(_fleet(folder, isvcs, runtimes), 1 if quick else 3)
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


# --- the table -----------------------------------------------------------------


def _met(ok: bool) -> str:
    return "yes" if ok else "NO"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="modetable benchmarks")
    names = ["decisions", "cold", "audit", "growth"]
    parser.add_argument("which", nargs="*", metavar="BENCHMARK", help=", ".join(names))
    parser.add_argument("--quick", action="store_true", help="smaller fleets, fewer repeats")
    parser.add_argument("--fleets", type=Path, help="keep generated fleets in this folder")
    args = parser.parse_args(argv)
    which = args.which or names
    unknown = sorted(set(which) - set(names))
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(names)}")
    print(f"machine: {machine()}")
    folder = args.fleets or Path(tempfile.mkdtemp(prefix="modetable-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    rows: list[Row] = []
    if "decisions" in which:
        rows += bench_decisions(args.quick)
    if "cold" in which:
        rows += bench_cold(args.quick)
    if "audit" in which:
        rows += bench_audit(args.quick, folder)
    if "growth" in which:
        rows += bench_growth(args.quick, folder)
    print_table(rows)
    if args.fleets is None:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
