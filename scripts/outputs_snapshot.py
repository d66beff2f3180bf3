"""Every command's output in every format, one file each, to compare two checkouts.

    python scripts/outputs_snapshot.py OUT_DIR [--checkout DIR] [--catalog DIR]

runs modetable from DIR's `src/` (default: this checkout) with DIR as the
working directory, over the bundled examples and over the catalog (default:
/work/shared/ome-catalog), and writes each command's standard output to
`OUT_DIR/NAME.FORMAT`, its exit code and standard error to
`OUT_DIR/NAME.FORMAT.exit`. Two snapshots compare with `diff -r`: a change
that must keep the outputs byte-identical leaves them equal.

The catalog's commands that take one InferenceService run on one of each kind
the catalog's audit finds (its result, whether it is admitted, its findings'
ids), so every path through the outputs is taken once without running each of
its InferenceServices.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

_TABLE_FORMATS = ("table", "json", "yaml")
_AUDIT_FORMATS = ("table", "json", "yaml", "github", "junit", "sarif", "markdown", "html")
_CHECK_FORMATS = ("table", "json", "yaml", "github", "junit", "sarif", "markdown")
_DIFF_FORMATS = ("table", "json", "yaml", "html")
_EXAMPLE_ISVC = "examples/inference-service.yaml"
_EXAMPLE_RUNTIME = "srt-llama-3-3-70b-instruct"
# The examples' commands beyond the plain ones, each in every table format.
_EXAMPLE_VARIANTS = {
    "select-v1.2.2": ["select", "--isvc", _EXAMPLE_ISVC, "--ome-version", "v1.2.2"],
    "match-runtime": ["match", "--isvc", _EXAMPLE_ISVC, "--runtime", _EXAMPLE_RUNTIME],
    "explain-why": ["explain", "--isvc", _EXAMPLE_ISVC, "--why", _EXAMPLE_RUNTIME],
    "explain-model": ["explain", "--model", "llama-3-3-70b-instruct", "-n", "llama-demo"],
    "effective-runtime": ["effective", "--isvc", _EXAMPLE_ISVC, "--runtime", _EXAMPLE_RUNTIME],
}


def _run(checkout: Path, argv: list[str]) -> tuple[bytes, bytes, int]:
    env = dict(os.environ, PYTHONPATH=str(checkout / "src"), MODETABLE_CACHE="0", COLUMNS="100")
    env.pop("MODETABLE_RULES", None)
    env.pop("MODETABLE_OME_VERSION", None)
    done = subprocess.run(
        [sys.executable, "-m", "modetable", *argv],
        cwd=checkout,
        env=env,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    return done.stdout, done.stderr, done.returncode


def _one_isvc_commands(name: str, isvc: list[str], manifests: str) -> list[tuple[str, list[str]]]:
    """select, match, explain, effective and admit on one InferenceService, in every format."""
    runs = []
    for command, extra in (
        ("select", []),
        ("match", []),
        ("match-explain", ["--explain"]),
        ("explain", []),
        ("effective", []),
        ("admit", []),
    ):
        verb = command.split("-")[0]
        for fmt in _TABLE_FORMATS:
            runs.append((f"{name}-{command}.{fmt}", [verb, *isvc, *extra, "-o", fmt, manifests]))
    return runs


def _catalog_picks(checkout: Path, catalog: str) -> list[tuple[str, str | None]]:
    """One InferenceService (and the runtime it names or is given) of each kind the audit finds."""
    stdout, _, _ = _run(checkout, ["audit", "-o", "json", "--fail-on", "never", catalog])
    kinds: dict[tuple[object, ...], tuple[str, str | None]] = {}
    for item in json.loads(stdout)["items"]:
        kind = (
            item["result"],
            item["admission"]["allowed"],
            tuple(sorted({finding["id"] for finding in item["findings"]})),
        )
        runtime = item["runtime"]["name"] if item.get("runtime") else None
        kinds.setdefault(kind, (item["isvc"], runtime))
    return list(kinds.values())


def _commands(checkout: Path, catalog: str) -> list[tuple[str, list[str]]]:
    runs = _one_isvc_commands("examples", ["--isvc", _EXAMPLE_ISVC], "examples/")
    for fmt in _TABLE_FORMATS:
        runs += [
            (f"examples-{name}.{fmt}", [*argv, "-o", fmt, "examples/"])
            for name, argv in _EXAMPLE_VARIANTS.items()
        ]
    for where, manifests in (("examples", "examples/"), ("catalog", catalog)):
        for fmt in _AUDIT_FORMATS:
            runs += [
                (f"{where}-audit.{fmt}", ["audit", "-o", fmt, manifests]),
                (
                    f"{where}-audit-upgrade.{fmt}",
                    ["audit", "--from", "v1.2.2", "--to", "v1.3", "-o", fmt, manifests],
                ),
                (
                    f"{where}-audit-problems.{fmt}",
                    ["audit", "--problems-only", "-o", fmt, manifests],
                ),
            ]
        runs += [
            (f"{where}-audit-candidates.json", ["audit", "--candidates", "-o", "json", manifests]),
            (
                f"{where}-audit-v1.2.2.json",
                ["audit", "--ome-version", "v1.2.2", "-o", "json", manifests],
            ),
            (
                f"{where}-audit-severity-warning.table",
                ["audit", "--severity", "warning", "--no-headers", manifests],
            ),
        ]
    for fmt in _AUDIT_FORMATS:
        runs.append(
            (
                f"catalog-audit-namespace.{fmt}",
                ["audit", "-n", "actions-runner-system", "-o", fmt, catalog],
            )
        )
    for index, (isvc, runtime) in enumerate(_catalog_picks(checkout, catalog)):
        name = f"catalog-{index:02d}"
        runs += _one_isvc_commands(name, ["--isvc", isvc], catalog)
        if runtime is not None:
            for fmt in _TABLE_FORMATS:
                runs.append(
                    (
                        f"{name}-explain-why.{fmt}",
                        ["explain", "--isvc", isvc, "--why", runtime, "-o", fmt, catalog],
                    )
                )
    for fmt in _CHECK_FORMATS:
        runs.append((f"rules-check.{fmt}", ["rules", "check", "-o", fmt]))
    for fmt in _DIFF_FORMATS:
        runs.append((f"rules-diff.{fmt}", ["rules", "diff", "v1.2.2", "v1.3", "-o", fmt]))
    runs.append(("rules-schema.json", ["rules", "schema"]))
    return runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder to write (made when missing)")
    parser.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--catalog", default="/work/shared/ome-catalog")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    checkout = args.checkout.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    runs = _commands(checkout, args.catalog)

    def one(run: tuple[str, list[str]]) -> None:
        name, command = run
        stdout, stderr, code = _run(checkout, command)
        (args.out / name).write_bytes(stdout)
        (args.out / f"{name}.exit").write_bytes(b"exit %d\n" % code + stderr)

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(one, runs))
    print(f"{len(runs)} outputs in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
