"""What loading the rules costs, step by step, and what `rules check` and
`rules diff` cost on the bundled file.

    python bench/rules_load.py [RULES_FILE]

Loading runs on every command, so its validation must stay a small part of
it; the analysis and the diff run only when asked for.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from modetable.authoring.analysis import analyse
from modetable.authoring.diff import Side, diff
from modetable.authoring.examples import run_examples
from modetable.output.render import table
from modetable.parsing.yamlio import load_documents
from modetable.rules.load import bundled_rules_path, converter, parse_rules, read_rules_text
from modetable.rules.model import RuleFile
from modetable.rules.policy import load_ruleset
from modetable.rules.validate import validate


def median_ms(work: Callable[[], Any], repeat: int) -> float:
    work()  # warm: type hints resolved, hooks generated
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else bundled_rules_path()
    text = read_rules_text(path)
    document = load_documents(text, str(path))[0][0]
    ruleset = load_ruleset(path)
    first, last = ruleset.versions[0], ruleset.versions[-1]
    rows = [
        ["YAML with positions", median_ms(lambda: load_documents(text, str(path)), 20)],
        ["structure (cattrs)", median_ms(lambda: converter().structure(document, RuleFile), 20)],
        [
            "validate (names, versions, params)",
            median_ms(lambda: validate(document, str(path)), 20),
        ],
        ["load in all (parse_rules)", median_ms(lambda: parse_rules(text, str(path)), 20)],
        ["analysis, every version", median_ms(lambda: analyse(ruleset), 5)],
        ["examples, every version", median_ms(lambda: run_examples(ruleset), 5)],
        [
            f"diff {first} {last}",
            median_ms(
                lambda: diff(Side(first, ruleset.at(first)), Side(last, ruleset.at(last))), 3
            ),
        ],
    ]
    print(f"{path} ({len(text)} characters), median milliseconds:")
    print(table(["STEP", "MS"], [[name, f"{ms:.1f}"] for name, ms in rows]), end="")


if __name__ == "__main__":
    main()
