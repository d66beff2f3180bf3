"""The view layer: one converter, imported only when a document is written,
keeping each view's fields in order with the keys it leaves out in place."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import BYTECODE_CACHE_VARIABLES, ROOT

from modetable.views.common import ReadingView, ResolutionView, RulesView
from modetable.views.converter import unstructure
from modetable.views.explain import ExplainView, ModelView, WhyView
from modetable.views.select import CheckView, InputView

ISVC = "examples/inference-service.yaml"

# Run in a fresh interpreter: the command, then whether cattrs was imported.
_RUN = (
    "import sys; from modetable.cli import main; code = main(sys.argv[1:]); "
    "print('cattrs' in sys.modules, file=sys.stderr)"
)


def _environment(folder: Path) -> dict[str, str]:
    """A bare environment, with the test run's bytecode cache (conftest.pytest_configure)."""
    cache = {k: os.environ[k] for k in BYTECODE_CACHE_VARIABLES if k in os.environ}
    return {"MODETABLE_CACHE_DIR": str(folder), "PATH": "/usr/bin:/bin", **cache}


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory) -> Path:
    """A rules cache of this module's own, warmed by one run: loading the rules
    file itself structures it with cattrs, which a cached load does not. Its one
    entry is the rules file's, whatever the command that loads it."""
    folder = tmp_path_factory.mktemp("warm-rules-cache")
    command = [sys.executable, "-c", _RUN, "select", "--isvc", ISVC, "examples/"]
    subprocess.run(command, cwd=ROOT, env=_environment(folder), capture_output=True, check=False)
    return folder


def _cattrs_imported(cache: Path, *argv: str) -> bool:
    command = [sys.executable, "-c", _RUN, *argv]
    env = _environment(cache)
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    return done.stderr.splitlines()[-1] == "True"


@pytest.mark.parametrize("command", ["select", "match", "effective", "admit", "explain"])
def test_a_table_does_not_import_cattrs_and_a_document_does(warm_cache, command):
    argv = (command, "--isvc", ISVC, "examples/")
    assert _cattrs_imported(warm_cache, *argv) is False
    assert _cattrs_imported(warm_cache, *argv, "-o", "json") is True


def _explain(why=None) -> ExplainView:
    return ExplainView(
        isvc=None,
        model=ModelView("m", "ClusterBaseModel", "manifest"),
        namespace="ns",
        version="v1.3",
        note=None,
        runtimes=(),
        cause=None,
        hint=None,
        lookup=None,
        why=why,
        rules=RulesView("rules/modes.yaml", "v1.3"),
    )


def test_a_key_left_out_when_none_and_kept_in_its_place_when_not():
    assert list(unstructure(_explain())) == [
        "isvc",
        "model",
        "namespace",
        "version",
        "note",
        "runtimes",
        "cause",
        "hint",
        "lookup",
        "rules",
    ]
    check = CheckView("disabled", "skipped", None, (InputView("spec.disabled", "true"),), "not run")

    document = unstructure(_explain(WhyView("rt", "ServingRuntime", (check,))))
    assert list(document)[-2:] == ["why", "rules"]
    assert document["why"] == {
        "name": "rt",
        "kind": "ServingRuntime",
        "checks": [
            {
                "check": "disabled",
                "state": "skipped",
                "reason": None,
                "inputs": [{"what": "spec.disabled", "value": "true"}],
                "note": "not run",
            }
        ],
    }


def test_tuples_become_lists_and_a_reading_keeps_its_place_when_it_has_one():
    reading = ReadingView("annotation", "metadata.annotations[x]", "Bad", "ignored", "why")
    placed = ReadingView("annotation", "metadata.annotations[x]", "Bad", "ignored", "why", "f:1:2")
    assert unstructure(ResolutionView("OMENative", "spec", (reading, placed))) == {
        "mode": "OMENative",
        "source": "spec",
        "passed_over": [
            {
                "source": "annotation",
                "path": "metadata.annotations[x]",
                "value": "Bad",
                "verdict": "ignored",
                "why": "why",
            },
            {
                "source": "annotation",
                "path": "metadata.annotations[x]",
                "value": "Bad",
                "verdict": "ignored",
                "why": "why",
                "at": "f:1:2",
            },
        ],
    }
    assert unstructure(ResolutionView("OMENative", "spec")) == {
        "mode": "OMENative",
        "source": "spec",
    }


def test_a_document_reads_back_into_its_view_flattened_and_renamed_fields_included():
    from modetable.views.audit import AuditSummaryView
    from modetable.views.converter import structure
    from modetable.views.upgrade import FromTo

    summary = AuditSummaryView(
        version="v1.3",
        isvcs=3,
        ok=1,
        pending=0,
        problems={"denied": 2, "no_runtime": 1, "run_failure": 0},
        deprecated=0,
        results={"picked": 1},
        modes={"engine": {"RawDeployment": 3}},
        severity={"error": 2},
        findings={"error": 2},
        pending_findings=0,
        known={"error": 0},
        suppressed={"error": 1},
        fixed=None,
    )
    document = unstructure(summary)
    assert list(document)[:8] == [
        "version",
        "isvcs",
        "ok",
        "pending",
        "denied",
        "no_runtime",
        "run_failure",
        "deprecated",
    ]
    assert structure(document, AuditSummaryView) == summary
    assert unstructure(FromTo("a", None)) == {"from": "a", "to": None}
    assert structure({"from": "a", "to": None}, FromTo) == FromTo("a", None)
    why = _explain(WhyView("rt", "ServingRuntime", ()))
    assert structure(unstructure(why), ExplainView) == why
    assert structure(unstructure(_explain()), ExplainView) == _explain()


def test_a_pending_model_s_view_is_made_whole_without_an_assert(v13):
    """PendingView.of takes the model from the PendingModel, which always has
    one (the type says so): no assert stands in for a check (gone under -O)."""
    from conftest import cluster_of, model_doc

    from modetable.selection.pending import PendingModel
    from modetable.views.common import ObjectView
    from modetable.views.select import PendingView

    [model] = cluster_of(v13, model_doc("m")).models
    pending = PendingModel(model, ("modelFormat",), "denied", ("rt",))
    assert PendingView.of(pending) == PendingView(
        ObjectView("ClusterBaseModel", None, "m", "test.yaml:1:1", "manifest"),
        ("modelFormat",),
        "denied",
        ("rt",),
    )
    assert PendingView.of(None) is None
