"""The page of finding ids (docs/findings.md, region finding-ids) and the SARIF
rules that link to it: every id the engine can emit, in every version the
rules cover, has its severity, description and help in the rules, an entry on
the page under the anchor the reports link to (as mkdocs renders it), and a
SARIF rule with a full description, help and helpUri."""

from __future__ import annotations

import json
import re

import markdown
import pytest
from conftest import ROOT, RULES, rules_copy, run_cli
from test_audit import write_fleet
from test_reports import SARIF_SCHEMA

from modetable.__about__ import __version__
from modetable.audit.findings import described
from modetable.docs.finding_tables import anchor, finding_uri
from modetable.rules import load_ruleset
from modetable.rules.words import (
    OUTCOMES_NOT_RESULTS,
    OUTCOMES_WITH_A_RUNTIME,
    AdmissionCheck,
    ManifestFinding,
    SchemaError,
    Status,
)
from modetable.versions import in_force

PAGE = ROOT / "docs" / "findings.md"


def _emittable(policy) -> set[str]:
    """Every id the audit can emit in `policy`'s version, read from the sections
    that make findings (audit/findings.py), not from `findings` itself."""
    selection = policy.rules.selection
    ids = {
        f"admission/{r.id}"
        for r in policy.admission
        if r.check not in (AdmissionCheck.SELECTION, AdmissionCheck.CRD_SCHEMA)
    }
    if any(r.check == AdmissionCheck.CRD_SCHEMA for r in policy.admission):
        ids |= {f"schema/{word}" for word in SchemaError}
    ids |= {f"not_checked/{r.id}" for r in policy.admission if r.undecided is not None}
    ids |= {
        f"outcome/{o}"
        for o in selection.outcomes
        if o not in (*OUTCOMES_WITH_A_RUNTIME, *OUTCOMES_NOT_RESULTS)
    }
    ids |= {
        f"check/{c.id}"
        for c in selection.checks
        if not c.auto_only and in_force(c.since, c.until, policy.version)
    }
    ids |= {f"run_failure/{f.id}" for f in policy.run_failures}
    ids |= {f"component/{c.name}" for c in policy.components}
    ids |= {f"mode_move/{m.id}" for m in policy.rules.mode_moves}
    ids |= {
        f"mode/{name}"
        for name, mode in policy.modes_in_force.items()
        if mode.status in (Status.DEPRECATED, Status.LEGACY)
    }
    ids |= {f"manifest/{word}" for word in ManifestFinding}
    return ids


def _page_anchors() -> dict[str, str]:
    """Each h2 heading of the page, as mkdocs renders it (the site's toc settings) → its id."""
    html = markdown.markdown(PAGE.read_text(), extensions=["toc", "attr_list"])
    return {
        re.sub(r"<[^>]+>", "", text): ident
        for ident, text in re.findall(r'<h2 id="([^"]+)">(.*?)</h2>', html)
    }


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset(RULES)


def test_every_emittable_id_of_every_version_is_graded_helped_and_on_the_page(ruleset):
    anchors = _page_anchors()
    emittable = set()
    for version in ruleset.rules.versions:
        policy = ruleset.at(version)
        graded = {entry[0]: entry for entry in described(policy)}
        ids = _emittable(policy)
        assert ids <= set(graded), version
        for finding_id in ids:
            _id, description, _severity, help_text = graded[finding_id]
            assert description and help_text, finding_id
        emittable |= ids
    # The page lists every id the rules grade (those no version emits too:
    # `admission/rollout-policy-refs` says why it is never found), each at its anchor.
    listed = {entry[0] for entry in described(ruleset.at(None))}
    assert emittable <= listed
    assert anchors == {finding_id: anchor(finding_id) for finding_id in listed}
    assert len(set(anchors.values())) == len(anchors)


def test_an_entry_reads_as_the_rules_say(ruleset):
    text = PAGE.read_text()
    start = text.index("## `admission/model-exists`\n")
    entry = text[start : text.index("\n\n## ", start) + 1]
    assert entry == (
        "## `admission/model-exists`\n"
        "\n"
        "Severity: error (since v1.3).\n"
        "\n"
        "The model the InferenceService names exists neither as a BaseModel of its namespace "
        "nor as a ClusterBaseModel, which the webhook denies.\n"
        "\n"
        "What to do: Create the model (a BaseModel in the InferenceService's namespace, or a "
        "ClusterBaseModel), or correct `spec.model.name`; a close name in the manifests, if "
        "any, follows the message.\n"
    )
    # An id not tied to a versioned check has no range.
    assert "## `manifest/duplicate`\n\nSeverity: warning.\n\n" in text


def test_anchors_are_the_headings_as_github_and_mkdocs_make_them():
    assert anchor("admission/model-exists") == "admissionmodel-exists"
    assert anchor("mode/MultiNode") == "modemultinode"
    assert anchor("outcome/model_format_missing") == "outcomemodel_format_missing"


def test_the_uri_is_the_rules_template_at_this_release(ruleset):
    policy = ruleset.at(None)
    template = policy.rules.docs.finding_ids.uri
    assert template == (
        "https://github.com/your-org/modetable/blob/v{version}/docs/findings.md#{anchor}"
    )
    assert finding_uri(policy, "mode/MultiNode") == (
        f"https://github.com/your-org/modetable/blob/v{__version__}/docs/findings.md#modemultinode"
    )


def _sarif(*argv: str) -> dict:
    import jsonschema

    run = run_cli(*argv, "-o", "sarif")
    document = json.loads(run.out)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text())).validate(document)
    return document


def test_each_sarif_rule_has_its_full_description_help_and_link(tmp_path, monkeypatch, ruleset):
    write_fleet(tmp_path)
    monkeypatch.chdir(tmp_path)
    rules = _sarif("audit", "fleet")["runs"][0]["tool"]["driver"]["rules"]
    policy = ruleset.at(None)
    assert [r["id"] for r in rules] == [entry[0] for entry in described(policy)]
    for rule, (finding_id, description, _severity, help_text) in zip(
        rules, described(policy), strict=True
    ):
        uri = finding_uri(policy, finding_id)
        assert rule["fullDescription"] == {"text": description}
        assert rule["help"] == {
            "text": f"{description}\n\n{help_text}",
            "markdown": f"{description}\n\n{help_text}\n\n[`{finding_id}`]({uri})",
        }
        assert rule["helpUri"] == uri
    [model_exists] = [r for r in rules if r["id"] == "admission/model-exists"]
    uri = (
        f"https://github.com/your-org/modetable/blob/v{__version__}/docs/findings.md"
        "#admissionmodel-exists"
    )
    description = (
        "The model the InferenceService names exists neither as a BaseModel of its namespace "
        "nor as a ClusterBaseModel, which the webhook denies."
    )
    what_to_do = (
        "Create the model (a BaseModel in the InferenceService's namespace, or a "
        "ClusterBaseModel), or correct `spec.model.name`; a close name in the manifests, if "
        "any, follows the message."
    )
    assert model_exists == {
        "id": "admission/model-exists",
        "shortDescription": {"text": description},
        "fullDescription": {"text": description},
        "defaultConfiguration": {"level": "error"},
        "help": {
            "text": f"{description}\n\n{what_to_do}",
            "markdown": f"{description}\n\n{what_to_do}\n\n[`admission/model-exists`]({uri})",
        },
        "helpUri": uri,
    }


def test_rules_without_help_or_a_page_give_rules_without_them(tmp_path, monkeypatch):
    """A rules file of its own, with no `help` for an id and no `finding_ids`
    in its docs: the SARIF rules have their descriptions alone, and still
    validate; the page's region cannot be rendered, and says why."""
    rules = rules_copy(
        tmp_path / "rules" / "modes.yaml",
        (
            '  finding_ids:\n    severity: "Severity: {severity}{range}."\n'
            '    help: "What to do: {help}"\n'
            '    uri: "https://github.com/your-org/modetable/blob/v{version}/docs/findings.md'
            '#{anchor}"\n',
            "",
        ),
        (
            '      help: "Keep one definition of the object: the message says where the first '
            'one is."\n',
            "",
        ),
    )
    write_fleet(tmp_path)
    monkeypatch.chdir(tmp_path)
    driver = _sarif("--rules", str(rules), "audit", "fleet")["runs"][0]["tool"]["driver"]
    [duplicate] = [r for r in driver["rules"] if r["id"] == "manifest/duplicate"]
    text = (
        "An object is defined more than once; the later definition is used, as kubectl "
        "apply would leave it."
    )
    assert duplicate == {
        "id": "manifest/duplicate",
        "shortDescription": {"text": text},
        "fullDescription": {"text": text},
        "defaultConfiguration": {"level": "warning"},
    }
    assert all("helpUri" not in r for r in driver["rules"])
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "findings.md").write_text(PAGE.read_text())
    run = run_cli("--rules", str(rules), "docs", "--check")
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        f"modetable: error: {rules}: the rules' docs: section has no finding_ids to render\n"
    )
