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

from modetable.audit.findings import described
from modetable.docs.finding_tables import anchor, finding_uri
from modetable.rules import load_ruleset
from modetable.rules.words import (
    OUTCOMES_NOT_RESULTS,
    OUTCOMES_PENDING,
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
        if o not in (*OUTCOMES_WITH_A_RUNTIME, *OUTCOMES_NOT_RESULTS, *OUTCOMES_PENDING)
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
    if selection.model_agent is not None:
        ids.add(f"pending/{selection.model_agent.id}")
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


def test_the_rules_name_no_host_and_a_link_is_the_page_given_with_the_anchor():
    """No placeholder pretending to be a link: where the page is hosted is the
    user's to say (`--docs-url`), and an entry's link is that page#anchor."""
    assert "your-org" not in RULES.read_text()
    assert finding_uri("https://docs.example/modetable/findings.html", "mode/MultiNode") == (
        "https://docs.example/modetable/findings.html#modemultinode"
    )


def _entries_of_the_page() -> dict[str, str]:
    """Each id's entry on docs/findings.md, its heading left out."""
    text = PAGE.read_text()
    region = text.split("<!-- BEGIN modetable:finding-ids -->")[1]
    region = region.split("<!-- END modetable:finding-ids -->")[0].strip("\n")
    found = {}
    for entry in ("\n\n" + region).split("\n\n## ")[1:]:
        heading, _, body = entry.partition("\n\n")
        found[heading.strip("`")] = body
    return found


def _sarif(*argv: str) -> dict:
    import jsonschema

    run = run_cli(*argv, "-o", "sarif")
    document = json.loads(run.out)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text())).validate(document)
    return document


def test_each_sarif_rule_carries_its_entry_in_full_and_no_link(tmp_path, monkeypatch, ruleset):
    """Without --docs-url: each rule's help is its entry on the page of
    finding ids, as text and Markdown, and there is no helpUri."""
    write_fleet(tmp_path)
    monkeypatch.chdir(tmp_path)
    rules = _sarif("audit", "fleet")["runs"][0]["tool"]["driver"]["rules"]
    policy = ruleset.at(None)
    assert [r["id"] for r in rules] == [entry[0] for entry in described(policy)]
    page = _entries_of_the_page()
    for rule, (finding_id, description, _severity, _help) in zip(
        rules, described(policy), strict=True
    ):
        assert rule["fullDescription"] == {"text": description}
        assert rule["help"] == {"text": page[finding_id], "markdown": page[finding_id]}
        assert "helpUri" not in rule
    [model_exists] = [r for r in rules if r["id"] == "admission/model-exists"]
    description = (
        "The model the InferenceService names exists neither as a BaseModel of its namespace "
        "nor as a ClusterBaseModel, which the webhook denies."
    )
    entry = (
        "Severity: error (since v1.3).\n\n"
        f"{description}\n\n"
        "What to do: Create the model (a BaseModel in the InferenceService's namespace, or a "
        "ClusterBaseModel), or correct `spec.model.name`; a close name in the manifests, if "
        "any, follows the message."
    )
    assert model_exists == {
        "id": "admission/model-exists",
        "shortDescription": {"text": description},
        "fullDescription": {"text": description},
        "defaultConfiguration": {"level": "error"},
        "help": {"text": entry, "markdown": entry},
    }


DOCS_URL = "https://docs.example/modetable/findings.html"


@pytest.mark.parametrize("given", ["option", "config"])
def test_a_docs_url_given_links_each_rule_to_its_entry(tmp_path, monkeypatch, given):
    """--docs-url URL (or the config's docs-url): helpUri is URL#anchor, and the
    Markdown help ends with the link."""
    write_fleet(tmp_path)
    monkeypatch.chdir(tmp_path)
    if given == "option":
        argv = ("audit", "--docs-url", DOCS_URL, "fleet")
    else:
        (tmp_path / ".modetable.yaml").write_text(f"docs-url: {DOCS_URL}\n")
        argv = ("audit", "fleet")
    rules = _sarif(*argv)["runs"][0]["tool"]["driver"]["rules"]
    page = _entries_of_the_page()
    for rule in rules:
        uri = f"{DOCS_URL}#{anchor(rule['id'])}"
        assert rule["helpUri"] == uri
        assert rule["help"] == {
            "text": page[rule["id"]],
            "markdown": f"{page[rule['id']]}\n\n[`{rule['id']}`]({uri})",
        }
    [model_exists] = [r for r in rules if r["id"] == "admission/model-exists"]
    assert model_exists["helpUri"] == f"{DOCS_URL}#admissionmodel-exists"


@pytest.mark.parametrize(
    ("url", "error"),
    [
        (
            "docs/findings.md",
            "the docs URL is an absolute http or https URL, not 'docs/findings.md'",
        ),
        (
            "ftp://x.example/f",
            "the docs URL is an absolute http or https URL, not 'ftp://x.example/f'",
        ),
        (
            "https://x.example/f#top",
            "the docs URL is the page's, without a #fragment (each id's is added): "
            "'https://x.example/f#top'",
        ),
        (
            "https://x.example/a b",
            "the docs URL holds no space or control character: 'https://x.example/a b'",
        ),
    ],
)
def test_a_docs_url_that_is_no_link_is_refused(tmp_path, monkeypatch, url, error):
    write_fleet(tmp_path)
    monkeypatch.chdir(tmp_path)
    run = run_cli("audit", "--docs-url", url, "fleet", "-o", "sarif")
    assert (run.code, run.out, run.err) == (2, "", f"modetable: error: --docs-url: {error}\n")
    (tmp_path / ".modetable.yaml").write_text(f"docs-url: {url}\n")
    run = run_cli("audit", "fleet", "-o", "sarif")
    assert (run.code, run.out, run.err) == (
        2,
        "",
        f"modetable: error: .modetable.yaml:1:11: {error}\n",
    )


def test_rules_without_help_or_a_page_give_rules_without_them(tmp_path, monkeypatch):
    """A rules file of its own, with no `help` for an id and no `finding_ids`
    in its docs: the SARIF rules have their descriptions alone, and still
    validate; the page's region cannot be rendered, and says why."""
    rules = rules_copy(
        tmp_path / "rules" / "modes.yaml",
        (
            '  finding_ids:\n    severity: "Severity: {severity}{range}."\n'
            '    help: "What to do: {help}"\n',
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
