"""`audit -o html` opened in a real browser (Debian's chromium, headless): the
counts shown are the JSON summary's, sorting and filtering change the rows
shown as they should, a row opens to its findings, and the page asks for
nothing but itself. On OME's catalog (skipped when ../shared lacks it) and on
a synthetic fleet of 10,000 InferenceServices, whose time to open is printed
(docs/performance.md), never asserted."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import pytest
from conftest import CATALOG, ROOT, built_once, isvc_doc, need, run_cli, runtime_doc, write

sys.path.insert(0, str(ROOT / "bench"))


def _leaves(data: dict[str, Any], prefix: str = "") -> dict[str, int]:
    """Every count of a summary by its dotted path (`findings.error`)."""
    found = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            found.update(_leaves(value, path + "."))
        elif isinstance(value, int) and not isinstance(value, bool):
            found[path] = value
    return found


def _shown_counts(visit) -> dict[str, int]:
    """Every count the page shows, by its key in the summary."""
    pairs = visit.page.eval_on_selector_all(
        "[data-count]", "nodes => nodes.map(n => [n.dataset.count, n.textContent])"
    )
    shown: dict[str, int] = {}
    for key, value in pairs:
        assert shown.setdefault(key, int(value)) == int(value), key
    return shown


def _choose(visit, name: str, label: str | None) -> int:
    """Pick a filter's option by its label ("all" when None); the rows shown after."""
    visit.page.select_option(f"#filter-{name}", label=label or "all")
    shown = int(visit.page.text_content("#shown"))
    assert shown == visit.visible_rows()
    return shown


def _options(visit, name: str) -> list[str]:
    return visit.page.eval_on_selector_all(
        f"#filter-{name} option", "nodes => nodes.map(n => n.textContent)"
    )[1:]


def _visible_names(visit) -> list[str]:
    return visit.page.eval_on_selector_all(
        "#items > .item:not([hidden]) button.open", "nodes => nodes.map(n => n.textContent)"
    )


def _sort(visit, column: str) -> None:
    visit.page.click(f"#items .head button:text-is('{column}')")


def _open(visit, name: str):
    """Open the row of `name`; its drawn details."""
    button = visit.page.locator(
        "#items > .item button.open", has_text=re.compile(f"^{re.escape(name)}$")
    )
    button.click()
    assert button.get_attribute("aria-expanded") == "true"
    return button.locator("xpath=ancestor::div[contains(@class, 'item')][1]").locator(".more")


def _table_rows(locator, title: str) -> list[list[str]]:
    """The body rows of the detail table under heading `title`."""
    return locator.evaluate(
        """(more, title) => {
            const heading = [...more.querySelectorAll('h4')].find(h => h.textContent === title);
            let node = heading.nextElementSibling;
            while (node && node.tagName !== 'TABLE') node = node.nextElementSibling;
            return [...node.tBodies[0].rows].map(r => [...r.cells].map(c => c.textContent));
        }""",
        title,
    )


def _only_itself(visit) -> None:
    assert visit.requests == [visit.url]
    assert visit.errors == []
    assert visit.dialogs == []


# --- the catalog ----------------------------------------------------------------


@pytest.fixture(scope="module")
def catalog_audit(tmp_path_factory):
    need(CATALOG)
    folder = tmp_path_factory.mktemp("report")
    # The page and its JSON from one run (--output-file: the JSON `-o json` prints).
    audit_json = f"--output-file=json={folder / 'audit.json'}"
    run = run_cli("audit", "-o", "html", "--candidates", audit_json, str(CATALOG))
    assert run.code == 1  # the catalog has errors
    path = folder / "report.html"
    path.write_text(run.out)
    return json.loads((folder / "audit.json").read_text()), path


def test_catalog_counts_are_the_json_summary(chromium, catalog_audit):
    document, path = catalog_audit
    visit = chromium.open(path)
    summary = document["summary"]
    expected = _leaves(summary)
    assert _shown_counts(visit) == expected
    # Every count of the summary is there, severities and modes included.
    assert {"findings.error", "severity.warning", "modes.engine.RawDeployment", "ok"} <= set(
        expected
    )
    assert visit.visible_rows() == summary["isvcs"] == len(document["items"])
    rules = document["rules"]
    assert f"Rules: {rules['path']}, version {rules['version']}." in visit.page.text_content(
        "p.meta"
    )
    _only_itself(visit)


def test_catalog_filters_show_the_summary_categories(chromium, catalog_audit):
    document, path = catalog_audit
    visit = chromium.open(path)
    summary = document["summary"]
    # The severities, most severe first; then the InferenceServices with
    # nothing found but what waits for OME's model agent; then those with
    # nothing found.
    assert _options(visit, "sev") == [*summary["findings"], "pending", "ok"]
    for severity in summary["findings"]:
        assert _choose(visit, "sev", severity) == summary["severity"][severity]
    assert _choose(visit, "sev", "pending") == summary["pending"]
    assert _choose(visit, "sev", "ok") == summary["ok"]
    _choose(visit, "sev", None)
    for component, modes in summary["modes"].items():
        for mode, count in modes.items():
            assert _choose(visit, "mode", f"{component}: {mode}") == count
    _choose(visit, "mode", None)
    namespaces = sorted({item["namespace"] for item in document["items"]})
    assert _options(visit, "ns") == namespaces
    for namespace in namespaces[:5]:
        _choose(visit, "ns", namespace)
        assert _visible_names(visit) == [
            i["name"] for i in document["items"] if i["namespace"] == namespace
        ]
    # Two filters at once: both hold for every row shown.
    _choose(visit, "ns", None)
    picked = [i for i in document["items"] if i["runtime"] is not None]
    runtime = picked[0]["runtime"]["name"]
    _choose(visit, "rt", runtime)
    _choose(visit, "sev", "warning")
    assert _visible_names(visit) == [
        i["name"]
        for i in picked
        if i["runtime"]["name"] == runtime and _worst(i, summary) == "warning"
    ]
    _only_itself(visit)


def test_catalog_filters_by_outcome_and_by_finding_id(chromium, catalog_audit):
    document, path = catalog_audit
    visit = chromium.open(path)
    items = document["items"]
    results = document["summary"]["results"]
    assert _options(visit, "out") == sorted(results)
    for result, count in results.items():
        assert _choose(visit, "out", result) == count
        assert _visible_names(visit) == [i["name"] for i in items if i["result"] == result]
    _choose(visit, "out", None)
    ids = sorted({f["id"] for i in items for f in i["findings"]})
    assert _options(visit, "fid") == ids
    for found in ids:
        having = [i["name"] for i in items if found in {f["id"] for f in i["findings"]}]
        assert _choose(visit, "fid", found) == len(having)
        assert _visible_names(visit) == having
    # With an outcome: both hold.
    found = "admission/scale-to-zero"
    _choose(visit, "fid", found)
    for result in ("named", "picked"):
        _choose(visit, "out", result)
        assert _visible_names(visit) == [
            i["name"]
            for i in items
            if i["result"] == result and found in {f["id"] for f in i["findings"]}
        ]
    assert _visible_names(visit) == []
    _only_itself(visit)


def _searched(item: dict[str, Any]) -> list[str]:
    """What the search box looks in, of what a query below can hold: the row's
    names and the texts of its findings and outcome."""
    texts = [item["namespace"], item["name"], (item["runtime"] or {}).get("name") or ""]
    for f in item["findings"]:
        texts += [f["id"], f["message"], f["hint"] or "", f["object"]["name"] or ""]
    admission = item["admission"]
    texts += [item["message"] or "", admission["message"] or "", *admission["warnings"]]
    return texts


def _search(visit, query: str) -> list[str]:
    visit.page.fill("#search", query)
    assert int(visit.page.text_content("#shown")) == visit.visible_rows()
    return _visible_names(visit)


def test_catalog_search_over_names_and_messages(chromium, catalog_audit):
    document, path = catalog_audit
    visit = chromium.open(path)
    items = document["items"]

    def expected(query: str) -> list[str]:
        wanted = query.strip().lower()
        return [i["name"] for i in items if any(wanted in t.lower() for t in _searched(i))]

    # A name (of InferenceServices and the runtime one uses), a message's words
    # in another case, a finding id.
    for query in (
        "deepseek-r1-distill-qwen",
        "INVALIDSCALETOZERO",
        "  mode_source/does_not_count ",
    ):
        found = _search(visit, query)
        assert found == expected(query)
        assert 0 < len(found) < len(items)
    # A runtime that is only a candidate is not looked for (candidates are not searched).
    candidate = next(
        c["name"]
        for i in items
        for c in i["candidates"]
        if not any(c["name"] in t for j in items for t in _searched(j))
    )
    assert _search(visit, candidate) == []
    assert _search(visit, "no such text anywhere") == []
    # With a filter: both hold; cleared, every row is back.
    _choose(visit, "sev", "warning")
    assert _search(visit, "qwen") == [
        n for n in expected("qwen") if _worst(_named(items, n), document["summary"]) == "warning"
    ]
    _choose(visit, "sev", None)
    assert len(_search(visit, "")) == len(items)
    # Enter sends nothing anywhere.
    visit.page.press("#search", "Enter")
    assert visit.page.url == visit.url
    _only_itself(visit)


def _named(items: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return next(i for i in items if i["name"] == name)


# Each text node of each element of `selector` that is laid out on more than
# one line (a word broken); the rows are all laid out first.
_BROKEN = """selector => {
    for (const item of document.querySelectorAll('#items > .item')) {
        item.style.contentVisibility = 'visible';
    }
    const broken = [];
    for (const node of document.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(t);
            const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
            if (tops.size > 1) broken.push(t.textContent);
        }
    }
    return broken;
}"""


def test_catalog_ids_are_never_broken_inside_a_word(chromium, catalog_audit):
    """Outcomes, finding ids and check ids wrap only after a `/`, however narrow
    the window; names (which may) do break there, so the check can see a break."""
    document, path = catalog_audit
    visit = chromium.open(path)
    visit.page.set_viewport_size({"width": 640, "height": 900})
    item = next(i for i in document["items"] if "/" in "".join(f["id"] for f in i["findings"]))
    _open(visit, item["name"])
    ids = visit.page.locator("#items .id")
    assert ids.count() >= len(document["items"]) + len(item["findings"])
    assert visit.page.evaluate(_BROKEN, "#items .id, #summary .id") == []
    # What a break looks like: the names, at this width, break inside.
    assert visit.page.evaluate(_BROKEN, "#items button.open") != []
    # An id stays in its cell: the outcome column is as wide as its widest.
    overflowing = visit.page.eval_on_selector_all(
        "#items > .item > .row > [role=cell]:nth-child(4)",
        "cells => cells.filter(c => c.scrollWidth > c.clientWidth).length",
    )
    assert overflowing == 0
    # A finding id wraps after its `/` in a narrow detail table, never inside.
    visit.page.set_viewport_size({"width": 360, "height": 900})
    assert visit.page.evaluate(_BROKEN, "#items .more .id") == []
    _only_itself(visit)


def _worst(item: dict[str, Any], summary: dict[str, Any]) -> str:
    """The row's severity: its most severe finding's; "pending" when all it has
    waits for OME's model agent; "ok" when it has none."""
    found = {f["severity"] for f in item["findings"] if not f["pending"]}
    worst = next((s for s in summary["findings"] if s in found), None)
    return worst or ("pending" if item["findings"] else "ok")


def test_catalog_sorts_by_a_column_both_ways(chromium, catalog_audit):
    document, path = catalog_audit
    visit = chromium.open(path)
    count = lambda: [  # noqa: E731
        int(n)
        for n in visit.page.eval_on_selector_all(
            "#items > .item > .row > :last-child", "nodes => nodes.map(n => n.textContent)"
        )
    ]
    in_order = [len(i["findings"]) for i in document["items"]]
    assert count() == in_order
    _sort(visit, "Findings")
    assert count() == sorted(in_order)
    _sort(visit, "Findings")
    assert count() == sorted(in_order, reverse=True)
    assert visit.page.get_attribute("#items .head [aria-sort]", "aria-sort") == "descending"
    # Severity sorts by how severe, not by the word: errors first, ok last.
    _sort(visit, "Severity")
    worst = [_worst(i, document["summary"]) for i in document["items"]]
    order = [*document["summary"]["findings"], "pending", "ok"]
    shown = visit.page.eval_on_selector_all(
        "#items > .item .sev", "nodes => nodes.map(n => n.textContent)"
    )
    assert shown == sorted(worst, key=order.index)
    _only_itself(visit)


def test_catalog_row_opens_to_its_findings_components_and_candidates(chromium, catalog_audit):
    document, path = catalog_audit
    visit = chromium.open(path)
    item = next(i for i in document["items"] if i["findings"] and i["candidates"])
    more = _open(visit, item["name"])
    assert _table_rows(more, "Findings") == [
        [
            f["severity"],
            f["id"],
            f["message"] + (f" ({f['hint']})" if f["hint"] else ""),
            f"{f['object']['kind']} {f['object']['name']}"
            if not f["object"]["namespace"]
            else f"{f['object']['kind']} {f['object']['namespace']}/{f['object']['name']}",
            f"{f['location']['file']}:{f['location']['line']}:{f['location']['col']}"
            + "".join(
                f"; see {r['label']} at {r['file']}:{r['line']}:{r['col']}" for r in f["related"]
            ),
        ]
        for f in item["findings"]
    ]
    assert _table_rows(more, "Components") == [
        [name, c["mode"], c["source"], item["reconcile"].get(name, "-")]
        for name, c in item["components"].items()
    ]
    candidates = _table_rows(more, "Candidates, in the order OME ranks them")
    assert [row[0] for row in candidates] == [c["name"] for c in item["candidates"]]
    assert [row[3] for row in candidates] == [
        "yes" if c["compatible"] else "no" for c in item["candidates"]
    ]
    # Opened again, it closes.
    visit.page.locator("#items > .item.open button.open").click()
    assert visit.page.locator("#items > .item.open").count() == 0
    _only_itself(visit)


def test_catalog_summary_and_rows_read_without_javascript(chromium, catalog_audit):
    document, path = catalog_audit
    visit = chromium.open(path, javascript=False)
    assert _shown_counts(visit) == _leaves(document["summary"])
    assert visit.count("#items > .item") == len(document["items"])
    assert visit.page.locator("#filter-sev").is_disabled()
    assert visit.page.locator("#search").is_disabled()
    assert visit.page.locator("noscript").count() == 1
    assert visit.requests == [visit.url]


def test_catalog_page_prints_without_its_controls(chromium, catalog_audit):
    _, path = catalog_audit
    visit = chromium.open(path)
    visit.page.emulate_media(media="print")
    assert visit.page.locator(".controls").is_hidden()
    assert visit.page.locator("#summary").is_visible()
    assert visit.page.pdf()[:5] == b"%PDF-"
    visit.page.emulate_media(media="screen")
    _only_itself(visit)


def test_catalog_upgrade_counts_filters_and_rows(chromium, tmp_path):
    need(CATALOG)
    document = run_cli("audit", "--from", "v1.2.2", "-o", "json", str(CATALOG)).json()
    run = run_cli("audit", "--from", "v1.2.2", "-o", "html", str(CATALOG))
    path = write(tmp_path, "upgrade.html", run.out)
    visit = chromium.open(path)
    summary = document["summary"]
    assert _shown_counts(visit) == _leaves(
        {k: v for k, v in summary.items() if k not in ("from", "to")}
    )
    for impact in ("breaking", "changed", "unchanged"):
        assert _choose(visit, "sev", impact) == summary[impact]
    _choose(visit, "sev", None)
    for component, moves in summary["mode_changes"].items():
        for move, count in moves.items():
            assert _choose(visit, "mode", f"{component}: {move.replace(' -> ', ' → ')}") == count
    _choose(visit, "mode", None)
    item = next(i for i in document["items"] if i["breaking"])
    more = _open(visit, item["name"])
    rows = _table_rows(more, "Components")
    moved = {
        name: f"{c['from']['mode']} → {c['to']['mode']}"
        for name, c in item["components"].items()
        if c["changed"]
    }
    assert {row[0]: row[1] for row in rows if row[0] in moved} == moved
    # The search box looks through names and what changes.
    visit.page.locator("#items > .item.open button.open").click()
    assert _search(visit, item["name"]) == [
        i["name"] for i in document["items"] if item["name"] in json.dumps(i)
    ]
    _only_itself(visit)


# --- hostile names --------------------------------------------------------------

_HOSTILE = "<script>alert(1)</script>"
_QUOTED = '"><svg/onload=alert(2)>'
_ESCAPE = "\x1b[31mRed\u202e"


def test_hostile_values_render_inert(chromium, tmp_path):
    """Markup and quotes in the values a manifest may hold (a model's and a
    runtime's name as an InferenceService refers to them, an annotation's value
    with a terminal escape) and in a name the API server refuses (shown among
    the manifests' findings) show as text: no script of theirs runs, no request
    leaves, nothing hides."""
    import yaml

    documents = [
        isvc_doc(name="hostile", model={"name": _HOSTILE}, runtime={"name": _QUOTED}),
        isvc_doc(name="escape", engine={"annotations": {"ome.io/deploymentMode": _ESCAPE}}),
        runtime_doc(name=_QUOTED),
    ]
    manifests = write(tmp_path, "hostile.yaml", yaml.safe_dump_all(documents))
    run = run_cli("audit", "-o", "html", str(manifests))
    assert run.code == 1
    html = run.out
    # Only the page's own two script elements: its data and its script.
    assert html.count("<script") == 2
    assert '<script type="application/json" id="details">' in html
    assert "<script>alert" not in html
    assert "<svg/onload" not in html and "&quot;&gt;&lt;svg/onload=alert(2)&gt;" in html
    assert "\x1b" not in html and "\u202e" not in html
    path = write(tmp_path, "report.html", html)
    visit = chromium.open(path)
    assert sorted(_visible_names(visit)) == ["escape", "hostile"]
    assert _options(visit, "ns") == ["ns"]
    more = _open(visit, "escape")
    assert (
        'spec.engine.annotations[ome.io/deploymentMode] is "\\u001b[31mRed\\u202e", '
        "not a deployment mode in v1.3"
    ) in more.text_content()
    more = _open(visit, "hostile")
    assert f'referenced model "{_HOSTILE}" not found in namespace "ns"' in more.text_content()
    refused = visit.page.locator("details.manifest-findings")
    refused.locator("summary").click()
    assert f'metadata.name: Invalid value: "\\{_QUOTED}"' in (refused.text_content())
    assert visit.page.locator("svg[onload]").count() == 0
    _only_itself(visit)


# --- 10,000 InferenceServices ---------------------------------------------------


@pytest.fixture(scope="module")
def fleet_report(tmp_path_factory):
    """The fleet's audit as JSON and its page, made once per test run (its two
    tests may run in two of pytest-xdist's workers)."""

    def audit_the_fleet(folder):
        from fleet import Fleet, as_json_list

        # 100 runtimes, not the bench's 1,000, in one JSON List (`kubectl get
        # -o json`), the input read fastest: the page's rows are the
        # InferenceServices, and `no runtime found` still lists enough runtimes
        # (over 30,000 characters) to be cut.
        cluster = write(folder, "cluster.json", as_json_list(Fleet(10_000, 100).build()))
        # The page and its JSON from one run (--output-file: the JSON `-o json` prints).
        audit_json = f"--output-file=json={folder / 'audit.json'}"
        run = run_cli("audit", "-o", "html", audit_json, str(cluster))
        (folder / "report.html").write_text(run.out)

    folder = built_once(tmp_path_factory, "fleet-report", audit_the_fleet)
    return json.loads((folder / "audit.json").read_text()), folder / "report.html"


def test_ten_thousand_open_sort_filter_and_open_a_row(chromium, fleet_report):
    document, path = fleet_report
    visit = chromium.open(path)
    timing = visit.page.evaluate(
        "(() => { const n = performance.getEntriesByType('navigation')[0];"
        " return [n.domContentLoadedEventEnd, n.loadEventEnd]; })()"
    )
    size = path.stat().st_size / 1e6
    print(
        f"\n10,000 InferenceServices ({size:.1f} MB): usable after {visit.seconds:.2f} s "
        f"(DOMContentLoaded {timing[0] / 1000:.2f} s, load {timing[1] / 1000:.2f} s)"
    )
    summary = document["summary"]
    assert _shown_counts(visit) == _leaves(summary)
    assert visit.visible_rows() == summary["isvcs"] == 10_000
    assert _choose(visit, "sev", "error") == summary["severity"]["error"]
    _choose(visit, "sev", None)
    _sort(visit, "Name")
    names = sorted(i["name"] for i in document["items"])
    assert _visible_names(visit)[:50] == names[:50]
    _sort(visit, "Name")
    assert _visible_names(visit)[:50] == names[::-1][:50]
    item = next(i for i in document["items"] if i["findings"])
    more = _open(visit, item["name"])
    assert [row[1] for row in _table_rows(more, "Findings")] == [f["id"] for f in item["findings"]]
    # A search looks through every row's details (the rows are sorted by name).
    message = item["findings"][0]["message"][:60]
    assert sorted(_search(visit, message)) == sorted(
        i["name"] for i in document["items"] if any(message in t for t in _searched(i))
    )
    _only_itself(visit)


@pytest.mark.slow
def test_a_long_message_is_cut_in_the_page_and_names_the_command_for_it(fleet_report):
    document, path = fleet_report
    item = max(document["items"], key=lambda i: len(json.dumps(i["findings"])))
    longest = max(len(f["message"]) for f in item["findings"])
    assert longest > 4000
    html = path.read_text()
    ref = f"{item['namespace']}/{item['name']}"
    assert f"(cut here: modetable select --isvc {ref} prints it whole)" in html


def test_rules_diff_page_opens_with_its_changed_cells_and_asks_for_nothing(chromium, tmp_path):
    run = run_cli("rules", "diff", "v1.2.2", "v1.3", "-o", "html")
    path = write(tmp_path, "diff.html", run.out)
    visit = chromium.open(path, javascript=False)
    changed = visit.page.locator("table.matrix td.changed")
    assert changed.count() == 12
    assert all(t.startswith(("✓", "✗")) for t in changed.all_text_contents())
    assert visit.page.locator("table.matrix td.changed .was").first.is_visible()
    assert visit.requests == [visit.url]
    assert visit.errors == []
