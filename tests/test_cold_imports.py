"""What a cold `select`, `match` and `effective` import (issue 27): nothing
they do not use. Each is a fresh process with the rules cache warm, as a user
runs it a second time; the modules below cost a cold start its time and none
of these commands needs them (docs/performance.md)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import EXAMPLES, ROOT

# tabulate reads its version with importlib.metadata (which imports email,
# zipfile, csv, tempfile...); cattrs, the loader and the validator build rules
# the cache already holds; importlib.resources finds a bundled file the cache
# names; uuid, decimal and difflib serve only a field of format uuid, a float
# written as Go writes it and a misspelt field's suggestions; the memoised
# evaluator and its indexes serve the fleet's audit; shutil (with zlib, bz2 and
# lzma) gave argparse the terminal's width.
NOT_NEEDED = (
    "bz2",
    "cattrs",
    "decimal",
    "difflib",
    "email",
    "importlib.metadata",
    "importlib.resources",
    "lzma",
    "modetable.engine.compiled",
    "modetable.engine.index",
    "modetable.rules.load",
    "modetable.rules.validate",
    "modetable.selection.memo",
    "shutil",
    "tabulate",
    "uuid",
    "zipfile",
)

# Run the command as the console script does, then say which of NOT_NEEDED it
# imported.
_RUN = f"""
import sys
from modetable.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
print(sorted(m for m in sys.modules if m in {set(NOT_NEEDED)!r}), file=sys.stderr)
sys.exit(code)
"""


@pytest.fixture(scope="module")
def environment(warm_rules_cache):
    """The tests' environment, its rules cache warm (conftest.warm_rules_cache:
    the entry of the checkout's rules as a process in the repository root
    finds them)."""
    from modetable.rules.cache import FOLDER_VARIABLE

    env = {k: v for k, v in os.environ.items() if not k.startswith("MODETABLE_")}
    env[FOLDER_VARIABLE] = str(warm_rules_cache)
    return env


# The example's InferenceService gets no runtime: select says so with exit 1.
# JSON and YAML are written by walking the view (`views.document`), not by
# the views' converter, which is cattrs.
@pytest.mark.parametrize(
    ("command", "code", "imported"),
    [
        (["select", "-o", "json"], 1, "[]"),
        (["match", "-o", "yaml"], 0, "[]"),
        (["select"], 1, "[]"),
        (["match"], 0, "[]"),
        (["effective"], 0, "[]"),
    ],
    ids=["select -o json", "match -o yaml", "select", "match", "effective"],
)
def test_a_cold_command_imports_nothing_it_does_not_use(environment, command, code, imported):
    example = ["--isvc", str(EXAMPLES / "inference-service.yaml"), str(EXAMPLES)]
    argv = [sys.executable, "-c", _RUN, command[0], *example, *command[1:]]
    done = subprocess.run(argv, env=environment, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == code, done.stderr
    assert done.stdout  # the command answered
    assert done.stderr == imported + "\n"
