"""The formats CI reads, read back the way CI reads them: GitHub workflow
commands, JUnit XML (junitparser), SARIF 2.1.0 (the official schema, with
jsonschema), Markdown (rendered as mkdocs renders it); for `audit` and
`rules check`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import markdown
import pytest
import yaml
from conftest import CATALOG, RULES, isvc_doc, need, run_cli, write
from junitparser import Failure, JUnitXml
from test_audit import fleet_documents, write_fleet

from modetable.__about__ import __version__
from modetable.audit.findings import described
from modetable.reports.finding import SEVERITIES
from modetable.reports.markdown import COMMENT_LIMIT

SARIF_SCHEMA = Path(__file__).with_name("sarif-schema-2.1.0.json")
# `::error file=F,line=L,col=C,title=T::message` (the runner's own grammar).
COMMAND = re.compile(r"^::(error|warning|notice) ((?:[a-z]+=[^,]*)(?:,[a-z]+=[^,]*)*)::(.*)$")


@pytest.fixture
def fleet(tmp_path, monkeypatch):
    """The fleet of tests/test_audit.py, with relative paths (as CI runs it)."""
    write_fleet(tmp_path)
    monkeypatch.chdir(tmp_path)
    return "fleet"


def _unescape(text: str, prop: bool = False) -> str:
    if prop:
        text = text.replace("%3A", ":").replace("%2C", ",")
    return text.replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%")


def _commands(out: str) -> list[tuple[str, dict[str, str], str]]:
    found = []
    for line in out.splitlines():
        match = COMMAND.match(line)
        if match:
            props = dict(p.split("=", 1) for p in match.group(2).split(","))
            props = {k: _unescape(v, prop=True) for k, v in props.items()}
            found.append((match.group(1), props, _unescape(match.group(3))))
    return found


def _json(*argv: str) -> dict:
    return run_cli(*argv, "-o", "json").json()


def _all_findings(document: dict) -> list[dict]:
    found = [f for item in document["items"] for f in item["findings"]]
    return found + document["manifest_findings"]


# --- github ---------------------------------------------------------------------------


def test_github_commands_point_at_the_manifest_lines(fleet):
    run = run_cli("audit", fleet, "-o", "github")
    assert run.code == 1
    commands = _commands(run.out)
    findings = _all_findings(_json("audit", fleet))
    assert len(commands) == len(findings) == 4
    words = {"error": "error", "warning": "warning", "info": "notice"}
    for (command, props, message), finding in zip(commands, findings, strict=True):
        where = finding["location"]
        assert command == words[finding["severity"]]
        assert props["file"] == where["file"]
        assert (props["line"], props["col"]) == (str(where["line"]), str(where["col"]))
        assert Path(props["file"]).exists()
        assert int(props["line"]) <= len(Path(props["file"]).read_text().splitlines())
        assert props["title"].startswith(f"modetable {finding['id']} (")
        # The other objects' places, in the text: the annotation stays on the
        # InferenceService's file.
        also = "; ".join(
            f"see {r['label']} at {r['file']}:{r['line']}:{r['col']}" for r in finding["related"]
        )
        assert message == finding["message"] + (f" ({also})" if also else "")
    assert any(f["related"] for f in findings)
    assert run.out.splitlines()[-1].startswith("4 InferenceServices (v1.3): 1 ok")


def test_github_escapes_what_would_end_a_command():
    from modetable.errors import Location
    from modetable.reports.finding import Finding, ObjectRef
    from modetable.reports.github import command

    finding = Finding(
        "error",
        "manifest/invalid",
        "100% bad:\nsecond \x1b[2J",
        Location("a,b:c.yaml", 3, 1),
        ObjectRef(None, None, None),
    )
    # A newline or a terminal escape from a manifest is shown escaped, as in
    # every output people read: it neither splits the annotation nor acts.
    assert command(finding) == (
        "::error file=a%2Cb%3Ac.yaml,line=3,col=1,title=modetable manifest/invalid::"
        "100%25 bad:\\nsecond \\x1b[2J"
    )


# --- junit -----------------------------------------------------------------------------


def _cases(xml: str, tmp_path: Path):
    path = tmp_path / "report.xml"
    path.write_text(xml)
    suites = JUnitXml.fromfile(str(path))
    [suite] = list(suites)
    return suite, list(suite)


@pytest.mark.parametrize(
    ("fail_on", "failing"),
    [("error", ("error",)), ("warning", ("error", "warning")), ("never", ())],
)
def test_junit_one_case_per_isvc_and_counts_match_the_summary(fleet, tmp_path, fail_on, failing):
    run = run_cli("audit", fleet, "-o", "junit", "--fail-on", fail_on)
    summary = _json("audit", fleet)["summary"]
    suite, cases = _cases(run.out, tmp_path)
    assert suite.tests == len(cases) == summary["isvcs"]
    assert suite.failures == sum(summary["severity"][s] for s in failing)
    assert [c.name for c in cases] == ["a/native", "a/pinned", "b/lost", "b/routed"]
    assert [c.classname for c in cases] == ["a", "a", "b", "b"]
    failed = {c.name: c for c in cases if any(isinstance(r, Failure) for r in c.result)}
    assert len(failed) == suite.failures
    if fail_on == "error":
        [failure] = failed["b/lost"].result
        assert failure.type == "admission/model-exists"
        assert failure.message.startswith('admission webhook "inferenceservice')


def test_junit_of_the_catalog_counts_every_object(tmp_path, catalog_read_once):
    catalog = str(need(CATALOG))
    run = run_cli("audit", catalog, "-o", "junit")
    document = _json("audit", catalog)
    suite, cases = _cases(run.out, tmp_path)
    assert len(cases) == document["summary"]["isvcs"] + len(document["manifest_findings"])
    # Each InferenceService with an error, and each error about the manifests
    # (the API server's refusals of exaone and glm-4-5v, problem by problem).
    manifest_errors = sum(f["severity"] == "error" for f in document["manifest_findings"])
    assert manifest_errors == 8
    assert suite.failures == document["summary"]["severity"]["error"] + manifest_errors


def test_rules_check_junit_is_one_case_per_finding(tmp_path):
    broken = tmp_path / "modes.yaml"
    broken.write_text(
        RULES.read_text().replace(
            "      description: No runtime passes selection", "      descriptionX: x", 1
        )
    )
    run = run_cli("rules", "check", str(broken), "-o", "junit")
    assert run.code == 1
    listed = run_cli("rules", "check", str(broken), "-o", "json").json()["findings"]
    suite, cases = _cases(run.out, tmp_path)
    assert len(cases) == len(listed) == suite.failures >= 1
    assert [c.classname for c in cases] == [f["code"] for f in listed]


def test_rules_check_junit_of_a_clean_file_is_its_example_runs_passing(tmp_path):
    """A report with no test case fails some CI servers' JUnit steps (Jenkins'
    by default): each example run that passed is a passing case."""
    run = run_cli("rules", "check", str(RULES), "-o", "junit")
    assert run.code == 0
    examples = run_cli("rules", "check", str(RULES), "-o", "json").json()["examples"]
    suite, cases = _cases(run.out, tmp_path)
    assert suite.tests == len(cases) == examples["runs"] == examples["passed"] > 0
    assert suite.failures == 0
    assert {c.classname for c in cases} == {"example"}
    assert all(c.result == [] for c in cases)
    assert cases[0].name == "matching[0] requested=none, declared=MultiNode (v1.2.2)"
    assert {p.name: p.value for p in suite.properties()} == {
        "modetable": __version__,
        "rules.path": str(RULES),
    }
    # An example that fails is a failing case (its EXAMPLE finding); the others pass.
    text = RULES.read_text()
    wrong = text.replace(
        "    - requested: none\n      declared: MultiNode\n      outcome: pass\n",
        "    - requested: none\n      declared: MultiNode\n      outcome: reject\n",
        1,
    )
    assert wrong != text
    edited = write(tmp_path, "modes.yaml", wrong)
    run = run_cli("rules", "check", str(edited), "-o", "junit")
    assert run.code == 1
    document = run_cli("rules", "check", str(edited), "-o", "json").json()
    suite, cases = _cases(run.out, tmp_path)
    failing = [c for c in cases if c.result]
    assert [c.classname for c in failing] == ["EXAMPLE"]
    assert [f["code"] for f in document["findings"]] == ["EXAMPLE"]
    assert len(cases) == 1 + document["examples"]["passed"]


# --- sarif -----------------------------------------------------------------------------


def _sarif(*argv: str) -> dict:
    document = json.loads(run_cli(*argv, "-o", "sarif").out)
    schema = json.loads(SARIF_SCHEMA.read_text())
    jsonschema.Draft4Validator.check_schema(schema)
    jsonschema.Draft4Validator(schema).validate(document)
    return document


def test_sarif_validates_and_points_at_real_lines(fleet):
    document = _sarif("audit", fleet)
    [run] = document["runs"]
    rules = run["tool"]["driver"]["rules"]
    from modetable.rules import load_ruleset

    graded = described(load_ruleset(RULES).at(None))
    assert [(r["id"], r["shortDescription"]["text"]) for r in rules] == [
        (entry[0], entry[1]) for entry in graded
    ]
    findings = _all_findings(_json("audit", fleet))
    assert len(run["results"]) == len(findings)
    for result, finding in zip(run["results"], findings, strict=True):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == finding["id"]
        [location] = result["locations"]
        physical = location["physicalLocation"]
        path = Path(physical["artifactLocation"]["uri"])
        lines = path.read_text().splitlines()
        assert 1 <= physical["region"]["startLine"] <= len(lines)
        assert physical["region"]["startLine"] == finding["location"]["line"]
        assert result["message"]["text"] == finding["message"]


def test_each_sarif_result_carries_the_baselines_fingerprint(fleet, tmp_path):
    """partialFingerprints["modetable/v1"] is the fingerprint --write-baseline
    writes for the same finding, result by result; it survives lines moving,
    so code scanning follows an alert as the baseline does."""
    run_cli("audit", fleet, "--write-baseline", "base.json")
    written = json.loads((tmp_path / "base.json").read_text())["findings"]
    results = _sarif("audit", fleet)["runs"][0]["results"]
    assert sorted((r["ruleId"], r["partialFingerprints"]["modetable/v1"]) for r in results) == (
        sorted((e["id"], e["fingerprint"]) for e in written)
    )
    assert all(list(r["partialFingerprints"]) == ["modetable/v1"] for r in results)
    for name in ("fleet/runtimes.yaml", "fleet/apps/isvcs.yaml"):
        path = tmp_path / name
        path.write_text("# moved down\n\n\n" + path.read_text())
    moved = _sarif("audit", fleet)["runs"][0]["results"]
    assert [r["partialFingerprints"] for r in moved] == [r["partialFingerprints"] for r in results]
    assert [r["locations"] for r in moved] != [r["locations"] for r in results]


def test_sarif_messages_hold_no_embedded_link_from_an_input(tmp_path):
    """SARIF reads `[text](uri)` in a plain-text message as a link a viewer
    makes clickable: one quoted from a manifest is broken by a word joiner."""
    model = "[docs](https://evil.example/x) and [1](0)"
    path = write(tmp_path, "isvc.yaml", yaml.safe_dump(isvc_doc(model={"name": model})))
    [result] = _sarif("audit", str(path))["runs"][0]["results"]
    assert result["message"]["text"] == (
        'admission webhook "inferenceservice.ome-webhook-server.validator" denied the request: '
        'referenced model "[docs]\u2060(https://evil.example/x) and [1]\u2060(0)" not found in '
        'namespace "ns": ensure a BaseModel exists in this namespace or a ClusterBaseModel '
        "exists cluster-wide with this name"
    )


def test_sarif_of_the_catalog_validates(catalog_read_once):
    document = _sarif("audit", str(need(CATALOG)))
    levels = [r["level"] for r in document["runs"][0]["results"]]
    # Four real mistakes and the 8 schema problems of exaone and glm-4-5v; 21
    # LWS names OMENative does not set, 7 modes in metadata.annotations and 10
    # objects defined twice; 120 models OME's model agent has yet to fill in (notes).
    assert {level: levels.count(level) for level in set(levels)} == {
        "error": 12,
        "warning": 38,
        "note": 120,
    }


def test_sarif_of_rules_check_validates():
    document = _sarif("rules", "check", str(RULES))
    assert document["runs"][0]["results"] == []
    assert "GAP" in [r["id"] for r in document["runs"][0]["tool"]["driver"]["rules"]]


def test_sarif_rules_of_rules_check_carry_their_help(tmp_path):
    broken = tmp_path / "modes.yaml"
    broken.write_text(
        RULES.read_text().replace(
            "      description: No runtime passes selection", "      descriptionX: x", 1
        )
    )
    driver = _sarif("rules", "check", str(broken))["runs"][0]["tool"]["driver"]
    rules = {rule["id"]: rule for rule in driver["rules"]}
    gap = (
        "Severity: error.\n\nA combination of modes no row of the matching table matches.\n\n"
        "What to do: Add a row that matches the combination, or widen a row's condition "
        "(`-` is any mode or none) so that one does."
    )
    assert rules["GAP"]["help"] == {"text": gap, "markdown": gap}
    assert rules["MASKED"]["help"]["text"] == (
        "Severity: warning.\n\nA row that never decides: earlier rows match everything it "
        "matches.\n\nWhat to do: Remove the row, or move it before the rows that match "
        "everything it matches."
    )
    unknown = (
        "Severity: error.\n\nThe rules file does not load (unknown-key): "
        "docs/limits.md lists the error codes and what each means."
    )
    assert rules["unknown-key"]["help"] == {"text": unknown, "markdown": unknown}
    assert "helpUri" not in rules["GAP"]


def test_the_analysis_codes_table_says_what_to_do_as_the_reports_do():
    from modetable.authoring.analysis import ADVICE, WARNINGS

    page = (Path(__file__).parents[1] / "docs" / "policy-authors.md").read_text()
    rows = dict(re.findall(r"^\| `([A-Z]+)` \| (?:error|warning) \| .*? \| (.*) \|$", page, re.M))
    assert rows == ADVICE
    severities = dict(re.findall(r"^\| `([A-Z]+)` \| (error|warning) \|", page, re.M))
    assert {code for code, severity in severities.items() if severity == "warning"} == WARNINGS


# --- markdown ---------------------------------------------------------------------------


def test_markdown_renders_as_a_table(fleet):
    run = run_cli("audit", fleet, "-o", "markdown")
    html = markdown.markdown(run.out, extensions=["tables"])
    assert html.count("<table>") == 1
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
    assert len(rows) == 1 + len(_all_findings(_json("audit", fleet)))
    assert re.findall(r"<th[^>]*>(.*?)</th>", rows[0]) == [
        "Severity",
        "Finding",
        "Subject",
        "Object to fix",
        "Where",
        "Message",
    ]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", rows[1], re.S)
    assert cells[:4] == [
        "warning",
        "<code>mode/MultiNode</code>",
        "a/pinned",
        "InferenceService a/pinned",
    ]
    assert "<h3>modetable audit (v1.3)</h3>" in html


def test_markdown_with_nothing_found(tmp_path):
    documents = fleet_documents()
    path = write(
        tmp_path, "ok.yaml", yaml.safe_dump_all([*documents[:3], documents[5]], sort_keys=False)
    )
    run = run_cli("audit", str(path), "-o", "markdown")
    assert run.code == 0
    assert run.out.endswith("\nNo findings.\n")


def test_markdown_of_a_large_fleet_fits_in_a_comment():
    """GitHub refuses a comment over 65,536 characters: the catalog's 170
    findings do not fit, so the table keeps the most severe (the pending, which
    wait for OME's model agent, last) and says the rest."""
    catalog = str(need(CATALOG))
    out = run_cli("audit", catalog, "-o", "markdown").out
    assert len(out) <= COMMENT_LIMIT == 65_536
    everything = _all_findings(_json("audit", catalog))
    assert len(everything) == 170
    html = markdown.markdown(out, extensions=["tables"])
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)[1:]
    shown = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[0] for row in rows]
    assert 0 < len(shown) < len(everything)
    ranks = (*SEVERITIES, "pending")
    cells = ["pending" if f["pending"] else f["severity"] for f in everything]
    left = sorted(cells, key=ranks.index)[len(shown) :]
    assert shown == sorted(shown, key=ranks.index)  # the most severe first
    assert shown[: 12 + 38] == ["error"] * 12 + ["warning"] * 38
    assert out.endswith(
        f"\n\n{len(left)} more findings are not shown ({left.count('pending')} pending): "
        "a comment holds at most 65,536 characters. "
        "The table, `-o github` and `-o sarif` list every one.\n"
    )
    assert set(left) == {"pending"}


def test_markdown_is_whole_when_it_fits_and_cut_by_severity_when_not(fleet, monkeypatch):
    import modetable.reports.markdown as writer

    whole = run_cli("audit", fleet, "-o", "markdown").out
    monkeypatch.setattr(writer, "COMMENT_LIMIT", len(whole))
    assert run_cli("audit", fleet, "-o", "markdown").out == whole
    monkeypatch.setattr(writer, "COMMENT_LIMIT", len(whole) - 1)
    cut = run_cli("audit", fleet, "-o", "markdown").out
    assert len(cut) <= len(whole) - 1
    # Errors first; the last warning left out.
    assert cut.endswith(
        "\n\n1 more finding is not shown (1 warning): a comment holds at most "
        f"{len(whole) - 1:,} characters. The table, `-o github` and `-o sarif` list every one.\n"
    )
    html = markdown.markdown(cut, extensions=["tables"])
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)[1:]
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[:2] for row in rows]
    assert cells == [
        ["error", "<code>admission/model-exists</code>"],
        ["error", "<code>run_failure/router-invalid-mode</code>"],
        ["warning", "<code>mode/MultiNode</code>"],
    ]
