"""The pages' HTML without a browser: every value escaped, the page's data
unable to close its element, the policy that lets the page load nothing, and
the audit's counts written as the JSON summary holds them."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser

import yaml
from conftest import run_cli, write
from test_audit import fleet_documents
from test_upgrade import documents as upgrade_documents

from modetable.html.audit_page import audit_page, upgrade_page
from modetable.html.markup import element, json_island, page, text, visible
from modetable.views.audit import AuditView
from modetable.views.converter import structure
from modetable.views.upgrade import UpgradeView


def test_text_escapes_markup_and_shows_what_is_not_printable():
    assert text('<a href="x">&</a>') == "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
    assert text("it's") == "it's"  # attributes are always in double quotes
    assert text("\x1b[31mred\u202eltr\x00") == "\\x1b[31mred\\u202eltr\\x00"
    assert text("two\nlines\tand a tab") == "two\nlines\tand a tab"
    assert text(None) == ""
    assert visible("<b>\x1b") == "<b>\\x1b"


def test_element_escapes_attribute_values_and_names_them_with_dashes():
    assert (
        element("td", "x", class_="a", data_key='"><script>', hidden=True, title=None)
        == '<td class="a" data-key="&quot;&gt;&lt;script&gt;" hidden>x</td>'
    )


def test_the_page_data_cannot_close_its_element():
    data = {"name": "</script><script>alert(1)</script>", "other": "<!--", "amp": "&"}
    island = json_island("details", data)
    inner = island[len('<script type="application/json" id="details">') : -len("</script>")]
    assert "<" not in inner and ">" not in inner and "&" not in inner
    assert json.loads(inner) == data


def _digest(source: str) -> str:
    return base64.b64encode(hashlib.sha256(source.encode()).digest()).decode()


def test_the_page_admits_its_own_style_and_script_alone():
    html = page("t", "<p>body</p>", style="p{color:red}", script="var a = 1;")
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html).group(1)
    assert policy == (
        f"default-src 'none'; style-src 'sha256-{_digest('p{color:red}')}'; "
        f"script-src 'sha256-{_digest('var a = 1;')}'; img-src 'none'; base-uri 'none'; "
        "form-action 'none'"
    )
    assert "<script>var a = 1;</script>" in html and "<style>p{color:red}</style>" in html
    assert "script-src 'none'" in page("t", "", style="")


class _Counts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.key: str | None = None
        self.counts: dict[str, int] = {}

    def handle_starttag(self, tag, attrs):
        self.key = dict(attrs).get("data-count")

    def handle_data(self, data):
        if self.key is not None:
            self.counts[self.key] = int(data)
            self.key = None


def _counts(html: str) -> dict[str, int]:
    parser = _Counts()
    parser.feed(html)
    return parser.counts


def _leaves(data, prefix=""):
    found = {}
    for key, value in data.items():
        if isinstance(value, dict):
            found.update(_leaves(value, f"{prefix}{key}."))
        elif isinstance(value, int) and not isinstance(value, bool):
            found[f"{prefix}{key}"] = value
    return found


def test_an_audit_page_writes_every_count_of_the_summary(tmp_path):
    fleet = write(tmp_path, "fleet.yaml", yaml.safe_dump_all(fleet_documents()))
    document = run_cli("audit", "-o", "json", str(fleet)).json()
    run = run_cli("audit", "-o", "html", str(fleet))
    assert run.out == audit_page(structure(document, AuditView))  # the CLI's page is the JSON's
    assert _counts(run.out) == _leaves(document["summary"])
    assert run.out.count('class="item"') == len(document["items"])


def test_an_upgrade_page_writes_every_count_of_the_summary(tmp_path):
    fleet = write(tmp_path, "fleet.yaml", yaml.safe_dump_all(upgrade_documents()))
    document = run_cli("audit", "--from", "v1.2.2", "-o", "json", str(fleet)).json()
    run = run_cli("audit", "--from", "v1.2.2", "-o", "html", str(fleet))
    assert run.out == upgrade_page(structure(document, UpgradeView))
    summary = {k: v for k, v in document["summary"].items() if k not in ("from", "to")}
    assert _counts(run.out) == _leaves(summary)
    assert "moves from one mode to another" in run.out


def test_html_is_not_for_the_ci_options_of_an_upgrade(tmp_path):
    fleet = write(tmp_path, "fleet.yaml", yaml.safe_dump_all(upgrade_documents()))
    run = run_cli("audit", "--from", "v1.2.2", "-o", "sarif", str(fleet))
    assert run.code == 2
    assert run.err == "modetable: error: -o sarif applies to an audit, not to --from\n"


def test_an_upgrade_page_lists_the_components_in_the_order_items_give_them():
    from modetable.html.audit_page import _components_in_order

    items = [["router"], ["engine", "router"], ["engine", "decoder", "router"]]
    assert _components_in_order(items) == ["engine", "decoder", "router"]


def test_the_page_script_reads_no_code_and_asks_for_nothing():
    """The script draws values as text and never fetches or evaluates anything."""
    from modetable.html.markup import asset

    script = asset("report.js")
    for banned in (
        "eval(",
        "Function(",
        "fetch(",
        "XMLHttpRequest",
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "import(",
    ):
        assert banned not in script, banned


def test_a_page_with_rows_left_out_says_so_and_an_empty_audit_is_a_page(tmp_path):
    fleet = write(tmp_path, "fleet.yaml", yaml.safe_dump_all(fleet_documents()))
    full = run_cli("audit", "-o", "json", str(fleet)).json()
    run = run_cli("audit", "-o", "html", "--severity", "error", str(fleet))
    kept = sum(any(f["severity"] == "error" for f in item["findings"]) for item in full["items"])
    assert 0 < kept < full["summary"]["isvcs"]
    assert (
        f"The rows are the {kept} of the {full['summary']['isvcs']} InferenceServices that "
        "<code>--severity</code> kept; the summary counts every one." in run.out
    )
    assert _counts(run.out) == _leaves(full["summary"])
    empty = write(tmp_path, "empty/none.yaml", "")
    run = run_cli("audit", "-o", "html", str(empty.parent))
    assert run.code == 0, run.err
    assert 'data-count="isvcs">0<' in run.out and 'class="item"' not in run.out
