"""The audit as one page: the summary as counts and bars, then every
InferenceService in a table that sorts, filters and opens to its details.

A pure function of the audit's view (what `audit -o json` or `audit --from V
-o json` prints, `views.audit.AuditView`, `views.upgrade.UpgradeView`): the
counts are the summary's own, every row is an item, and no number on the
page is one the JSON does not hold (bars are drawn to the
summary's counts; a row's finding count is the length of its list).

The summary and the rows are HTML and read without JavaScript. What a row
opens to (findings, components, candidates) is data in the page, drawn by the
script when the row is opened: a fleet of 10,000 holds messages of hundreds of
kilobytes, and as HTML its details would take the browser most of a minute to
build. The script draws with text nodes only, never markup, so no value can
become markup there either. Filters match the summary's categories one to one:
a severity shows the InferenceServices whose most severe finding it is
(`summary.severity`; `pending` those with nothing else found but what waits
for OME's model agent, `summary.pending`), a mode those whose component runs in it
(`summary.modes`), a move those whose component makes it
(`summary.mode_changes`), an outcome those that reach it (`summary.results`);
a finding id shows those that have such a finding. The search box keeps the
rows whose text (the row's cells) or whose details (findings, components,
deprecations, outcome; not the candidates) hold what is typed, case aside.

Ids (outcomes, finding ids, check ids) are never broken inside a word: they
do not wrap (`.id`), but after a `/` (`<wbr>`); their column is as wide as
the widest.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from modetable.engine.running import logged
from modetable.html.markup import asset, element, json_island, page, text, visible
from modetable.output.render import counted

if TYPE_CHECKING:
    from modetable.views.audit import (
        AuditItemView,
        AuditSummaryView,
        AuditView,
        IdentityView,
        SuppressedByView,
    )
    from modetable.views.common import CandidateView, ResolutionView
    from modetable.views.findings import FindingObjectView, FindingView, LocationView, RelatedView
    from modetable.views.upgrade import (
        ComponentImpactView,
        ImpactView,
        UpgradeRuntimeView,
        UpgradeSummaryView,
        UpgradeView,
    )

__all__ = ["audit_page", "upgrade_page"]

_OK = "ok"
# What waits for OME's model agent: counted apart from the severities (the
# summary's `pending` and `pending_findings`, a finding's `pending`).
_PENDING = "pending"
_NONE = "-"
_NO_MODE = "no mode"
_BREAKING = "breaking"
_CHANGED = "changed"
_UNCHANGED = "unchanged"
_IMPACTS = (_BREAKING, _CHANGED, _UNCHANGED)


def _words(key: str) -> str:
    """A JSON key as words: `no_runtime` reads "no runtime"."""
    return key.replace("_", " ")


def _code(value: Any) -> str:
    return f"<code>{text(value)}</code>"


def _id(value: Any, tag: str = "code") -> str:
    """An id (`outcome/named_model_invalid`) that wraps only after a `/`."""
    return element(tag, text(value).replace("/", "/<wbr>"), class_="id")


def _arrow(before: str, after: str) -> str:
    return before if before == after else f"{before} → {after}"


def _location(location: LocationView | RelatedView) -> str:
    return f"{location.file}:{location.line}:{location.col}"


def _object(obj: FindingObjectView) -> str:
    if obj.name is None:
        return _NONE
    ref = f"{obj.namespace}/{obj.name}" if obj.namespace else obj.name
    return f"{obj.kind or ''} {ref}"


def _shown(value: Any) -> str:
    return _NONE if value is None else str(value)


# --- the summary -------------------------------------------------------------


def _counts(entries: Iterable[tuple[str, int, str]]) -> str:
    boxes = [
        element("div", element("dt", text(label)) + element("dd", str(n), data_count=key))
        for label, n, key in entries
    ]
    return element("dl", boxes, class_="counts")


def _bars(caption: str, entries: Sequence[tuple[str, int, str, str]], chart: str) -> str:
    """A bar chart as a table: label (HTML), count, bar of class `kind`; each
    count carries its key in the summary (`data-count`). The longest bar is
    full width, the others to scale; the counts are written beside them."""
    if not entries:
        return element("p", f"{text(caption)}: none.", class_="muted")
    top = max(n for _, n, _, _ in entries) or 1
    rows = []
    for label, n, kind, key in entries:
        bar = (
            '<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" '
            f'aria-hidden="true" focusable="false"><rect class="{text(kind)}" '
            f'width="{round(100 * n / top, 2)}" height="10"></rect></svg>'
        )
        rows.append(
            element(
                "tr",
                element("th", label, scope="row")
                + element("td", str(n), class_="num", data_count=key)
                + element("td", bar, class_="barcell"),
            )
        )
    return element(
        "table",
        element("caption", text(caption)) + element("tbody", rows),
        class_="bars",
        data_chart=chart,
    )


def _rules_line(path: str, version: str | None) -> str:
    return f"Rules: {_code(path)}, version {text(version)}."


def _summary_section(parts: list[str]) -> str:
    return element("section", element("h2", "Summary") + "".join(parts), id="summary")


# --- the table ---------------------------------------------------------------


class _Choices:
    """The values a filter offers, each numbered once: rows name them by
    number, so no value, however odd, has to survive inside an attribute list."""

    def __init__(self, name: str, label: str, *, by_name: bool = True) -> None:
        self.name = name
        self.label = label
        self.by_name = by_name
        self.numbers: dict[str, int] = {}
        self.labels: dict[str, str] = {}

    def number(self, value: str, label: str | None = None) -> str:
        if value not in self.numbers:
            self.numbers[value] = len(self.numbers)
            self.labels[value] = value if label is None else label
        return str(self.numbers[value])

    def numbers_of(self, values: Iterable[tuple[str, str]]) -> str:
        return " ".join(self.number(value, label) for value, label in values)

    def select(self) -> str:
        values = sorted(self.numbers, key=self.labels.get) if self.by_name else list(self.numbers)
        options = [element("option", "all", value="")]
        options += [
            element("option", text(self.labels[v]), value=str(self.numbers[v])) for v in values
        ]
        # Enabled by the script: without it a filter could not act.
        control = element(
            "select", options, id=f"filter-{self.name}", data_filter=self.name, disabled=True
        )
        return element("label", f"{text(self.label)} {control}")


def _search() -> str:
    """The search box (enabled by the script)."""
    box = element(
        "input",
        type="search",
        id="search",
        placeholder="names and messages",
        autocomplete="off",
        disabled=True,
    )
    return element("label", f"Search {box}")


def _controls(choices: Iterable[_Choices], total: int) -> str:
    return element(
        "div",
        element(
            "form",
            [*(c.select() for c in choices), _search()],
            class_="filters",
            role="search",
            aria_label="Filter the rows",
        )
        + element(
            "p",
            f'Showing <output id="shown">{total}</output> of {counted(total, "InferenceService")}.',
            class_="shown",
            aria_live="polite",
        ),
        class_="controls no-print",
    )


# The rows' columns, as shares of the width (a CSS grid; every row holds the
# same template, so the columns line up), a component's by `_COMPONENT_SHARE`.
_SHARES = {
    "Namespace": 1.2,
    "Name": 1.5,
    "Runtime": 1.5,
    "Outcome": 1.3,
    "Severity": 0.8,
    "Findings": 0.8,
    "Impact": 0.9,
}
_COMPONENT_SHARE = 1.3
# The columns of ids, which do not wrap: at least as wide as the widest.
_ID_COLUMNS = {"Outcome"}


def _grid_style(columns: Sequence[str]) -> str:
    shares = " ".join(
        f"minmax({'min-content' if c in _ID_COLUMNS else 0}, {_SHARES.get(c, _COMPONENT_SHARE)}fr)"
        for c in columns
    )
    return f".items .row {{ grid-template-columns: {shares}; }}\n"


def _table(columns: Sequence[str], numeric: set[str], bodies: list[str], caption: str) -> str:
    """The rows as an ARIA table of grid rows: the browser lays out only the rows
    in view (`content-visibility`), which a `<table>` of 10,000 rows cannot do.
    Each heading's button (enabled by the script) sorts by it."""
    heads = []
    for index, label in enumerate(columns):
        button = element(
            "button",
            text(label),
            type="button",
            data_column=str(index),
            disabled=True,
        )
        heads.append(
            element(
                "div",
                button,
                role="columnheader",
                class_="num" if label in numeric else None,
            )
        )
    head = element(
        "div", element("div", heads, class_="row", role="row"), class_="head", role="rowgroup"
    )
    return element(
        "div",
        head + "\n".join(bodies),
        id="items",
        class_="items",
        role="table",
        aria_label=caption,
    )


def _name_cell(name: str) -> str:
    """The name, as the button that opens the row (enabled by the script, which
    draws the details; disabled, it reads as the name)."""
    opener = element(
        "button", text(name), type="button", class_="open", aria_expanded="false", disabled=True
    )
    return element("div", opener, role="cell", class_="name")


def _row(index: int, cells: list[str], data: dict[str, str]) -> str:
    """One InferenceService's row: item `index` of the page's details."""
    row = element("div", cells, class_="row", role="row")
    return element("div", row, class_="item", role="rowgroup", data_i=str(index), **data)


# Most of a row's cells (its namespace, runtime, outcome, modes, severity) are
# those of many rows: each is drawn once.
@functools.lru_cache(maxsize=4096)
def _cell(content: str, key: str | None = None, **attributes: Any) -> str:
    return element("div", content, role="cell", data_key=key, **attributes)


def _page(title: str, columns: Sequence[str], body: list[str], details: list[Any]) -> str:
    return page(
        title,
        "\n".join([*body, json_island("details", {"kinds": _KINDS, "items": details})]),
        style=asset("page.css") + asset("report.css") + _grid_style(columns),
        script=asset("report.js"),
    )


# --- what a row opens to, as data the script draws ---------------------------
#
# A detail is a list of sections: {"title", "text": [paragraphs], "list":
# [items], "table": {"kind", "rows"}}; the page's data is {"kinds": _KINDS,
# "items": [detail, ...]}, an item's detail at its row's `data-i`.


# A text longer than this is cut in the page: OME's "no runtime found" message
# quotes every runtime's reason, hundreds of kilobytes in a large cluster, and a
# page holding thousands whole opens slowly. The JSON keeps it whole.
_LONGEST = 4000
_CUT = " … (cut here: modetable select --isvc {ref} prints it whole)"


def _cut(value: Any, ref: str) -> Any:
    """`value` (a detail, or any part of one) with every text over _LONGEST cut,
    and shown as `visible` does."""
    if isinstance(value, str):
        value = visible(value)
        return value if len(value) <= _LONGEST else value[:_LONGEST] + _CUT.format(ref=ref)
    if isinstance(value, list):
        return [_cut(v, ref) for v in value]
    if isinstance(value, dict):
        return {k: _cut(v, ref) for k, v in value.items()}
    return value


def _detail(item: IdentityView, sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return _cut(sections, f"{item.namespace}/{item.name}")


def _section(title: str, **content: Any) -> dict[str, Any]:
    return {"title": title, **{k: v for k, v in content.items() if v}}


def _covered(message: str | None, said: list[str]) -> bool:
    """Whether a finding already says `message` (a denial quotes the no-runtime
    message, and a finding quotes the denial): each text is shown once."""
    return message is None or any(message in text for text in said)


def _candidate_row(candidate: CandidateView) -> list[str]:
    return [
        candidate.name,
        _shown(candidate.kind),
        _shown(candidate.scope),
        "yes" if candidate.compatible else "no",
        _shown(candidate.reason),
        _shown(candidate.check),
        _shown(candidate.priority),
        _shown(candidate.weight),
        _shown(candidate.score),
    ]


# The kinds of table a detail holds, given once in the page: each table names
# its kind ("code": the columns shown as code; "ids": those that hold ids, which
# wrap only after a `/`; "severity": the column of one; "unsearched": the search
# box does not look in it).
_KINDS = {
    "candidates": {
        "headers": [
            "runtime",
            "kind",
            "scope",
            "qualifies",
            "reason",
            "check",
            "priority",
            "weight",
            "score",
        ],
        "code": [0, 5],
        "ids": [5],
        "unsearched": True,
    },
    "findings": {
        "headers": ["severity", "id", "message", "object to fix", "where"],
        "code": [1, 4],
        "ids": [1],
        "severity": 0,
    },
    "components": {
        "headers": ["component", "running mode", "set by", "fails at run time"],
        "code": [0],
    },
    "moves": {
        "headers": ["component", "mode", "set by", "why", "fails at run time"],
        "code": [0],
    },
}


def _findings_table(findings: Sequence[FindingView]) -> dict[str, Any]:
    return {
        "kind": "findings",
        "rows": [
            [
                f.severity,
                f.id,
                f.message + (f" ({f.hint})" if f.hint else ""),
                _object(f.object),
                _location(f.location)
                + "".join(f"; see {r.label} at {_location(r)}" for r in f.related),
            ]
            for f in findings
        ],
    }


def _why(suppressed: SuppressedByView) -> str:
    """What suppressed a finding: `suppressed by --ignore ID`, or its place and reason."""
    if suppressed.at is None:
        return f"suppressed by --ignore {suppressed.id}"
    return f"suppressed by {suppressed.at}: {suppressed.reason}"


def _audit_detail(item: AuditItemView) -> list[dict[str, Any]]:
    findings, outcome = item.findings, item.outcome
    said = [f.message for f in findings]
    sections = [
        _section("Findings", table=_findings_table(findings))
        if findings
        else _section("Findings", text=["No finding."])
    ]
    if item.known:
        sections.append(_section("Known: in the baseline", table=_findings_table(item.known)))
    if item.suppressed:
        sections.append(
            _section(
                "Suppressed",
                table=_findings_table(
                    [
                        attrs.evolve(
                            s.finding, message=f"{s.finding.message} ({_why(s.suppressed)})"
                        )
                        for s in item.suppressed
                    ]
                ),
            )
        )
    reconcile, logs = outcome.reconcile, outcome.reconcile_logs
    sections.append(
        _section(
            "Components",
            table={
                "kind": "components",
                "rows": [
                    [
                        name,
                        c.mode or _NO_MODE,
                        _shown(c.source),
                        _shown(
                            logged(reconcile[name], logs.get(name)) if name in reconcile else None
                        ),
                    ]
                    for name, c in outcome.components.items()
                ],
            },
        )
    )
    for deprecation in item.deprecations:
        sections.append(
            _section(
                "Deprecation",
                text=[deprecation.message],
                list=[c.message for c in deprecation.changes],
            )
        )
    shown = [f"Result: {outcome.result}."]
    admission = outcome.admission
    if not _covered(outcome.message, said):
        shown.append(f"Why no runtime: {outcome.message}")
    if admission.allowed is False and not _covered(admission.message, said):
        shown.append(f"Denied: {admission.message}")
    shown += [f"Admission warning: {w}" for w in admission.warnings if not _covered(w, said)]
    shown.append(f"Written at {item.identity.at}.")
    sections.append(_section("Outcome", text=shown))
    candidates = []
    if outcome.named_check:
        candidates.append(
            _section(
                "The named runtime's own checks",
                table={"kind": "candidates", "rows": [_candidate_row(outcome.named_check)]},
            )
        )
    if outcome.candidates is None:
        pass  # the page says once how to list them
    elif outcome.candidates:
        candidates.append(
            _section(
                "Candidates, in the order OME ranks them",
                table={
                    "kind": "candidates",
                    "rows": [_candidate_row(c) for c in outcome.candidates],
                },
            )
        )
    else:
        candidates.append(_section("Candidates", text=["No candidate runtime."]))
    return sections + candidates


# --- an audit ----------------------------------------------------------------


def _audit_row(
    index: int,
    item: AuditItemView,
    components: list[str],
    order: list[str],
    choices: dict[str, _Choices],
) -> str:
    findings, outcome, identity = item.findings, item.outcome, item.identity
    found = {f.severity for f in findings if not f.pending}
    worst = next((s for s in order if s in found), None)
    severity = worst or (_PENDING if findings else _OK)
    runtime_name = outcome.runtime.name if outcome.runtime else None
    modes = outcome.components
    data = {
        "data_ns": choices["ns"].number(identity.namespace or ""),
        "data_sev": choices["sev"].number(severity),
        "data_out": choices["out"].number(str(outcome.result)),
        "data_fid": choices["fid"].numbers_of((f.id, f.id) for f in findings),
        "data_rt": choices["rt"].number(runtime_name or "", runtime_name or "(none)"),
        "data_mode": choices["mode"].numbers_of(
            (f"{c}\0{modes[c].mode or ''}", f"{c}: {modes[c].mode or _NO_MODE}") for c in modes
        ),
    }
    runtime_text = _PENDING if outcome.result == _PENDING else _NONE
    if runtime_name is not None:
        runtime_text = text(runtime_name) + (" (named)" if outcome.named else "")
    cells = [
        _cell(text(identity.namespace or "")),
        _name_cell(str(identity.name)),
        _cell(runtime_text),
        _cell(_id(outcome.result, "span")),
    ]
    for component in components:
        resolution = modes.get(component)
        if resolution is None:
            cells.append(_cell(_NONE))
            continue
        mode = resolution.mode or _NO_MODE
        source = resolution.source or ""
        cells.append(_cell(f'{text(mode)}<span class="src">{text(source)}</span>'))
    rank = order.index(worst) if worst in order else len(order) + (severity == _OK)
    cells.append(
        _cell(element("span", text(severity), class_=f"sev sev-{text(severity)}"), key=str(rank))
    )
    cells.append(_cell(str(len(findings)), class_="num"))
    return _row(index, cells, data)


def _accepted(summary: AuditSummaryView, order: list[str]) -> str:
    """The findings accepted (suppressed, known by the baseline) and the baseline's
    entries fixed, counted by severity: folded, open when there are any."""
    suppressed, known = summary.suppressed, summary.known
    entries = [(f"{s} suppressed", suppressed.get(s, 0), f"suppressed.{s}") for s in order]
    entries += [(f"{s} known", known.get(s, 0), f"known.{s}") for s in order]
    fixed = summary.fixed
    if fixed is not None:
        entries.append(("baseline entries fixed", fixed, "fixed"))
    counts = (sum(suppressed.values()), sum(known.values()))
    said = f"Accepted findings: {counts[0]} suppressed, {counts[1]} known (the baseline)"
    return element(
        "details",
        element("summary", text(said)) + _counts(entries),
        class_="accepted",
        open=bool(counts[0] or counts[1] or fixed),
    )


def _audit_summary(summary: AuditSummaryView, manifest_findings: Sequence[FindingView]) -> str:
    order = list(summary.findings)  # the severities, most severe first
    totals = [("InferenceServices", summary.isvcs, "isvcs"), (_OK, summary.ok, _OK)]
    totals.append((_PENDING, summary.pending, _PENDING))
    totals += [(_words(p), n, p) for p, n in summary.problems.items()]
    totals.append(("run a deprecated mode", summary.deprecated, "deprecated"))
    findings = summary.findings
    by_worst = summary.severity
    parts = [
        _counts(totals),
        _bars(
            "Findings by severity",
            [(text(s), findings[s], f"sev-{s}", f"findings.{s}") for s in order]
            + [
                (
                    _PENDING,
                    summary.pending_findings,
                    f"sev-{_PENDING}",
                    "pending_findings",
                )
            ],
            "findings",
        ),
        _bars(
            "InferenceServices by their most severe finding",
            [(text(s), by_worst.get(s, 0), f"sev-{s}", f"severity.{s}") for s in order]
            + [(_PENDING, summary.pending, f"sev-{_PENDING}", _PENDING)]
            + [(_OK, summary.ok, f"sev-{_OK}", _OK)],
            "severity",
        ),
    ]
    for component, counts in summary.modes.items():
        entries = [
            (_code(mode) if mode else text(_NO_MODE), n, "mode", f"modes.{component}.{mode}")
            for mode, n in counts.items()
        ]
        parts.append(
            _bars(f"{component}: InferenceServices by running mode", entries, f"modes.{component}")
        )
    parts.append(
        _bars(
            "InferenceServices by outcome",
            [(_id(r), n, "result", f"results.{r}") for r, n in summary.results.items()],
            "results",
        )
    )
    parts.append(_accepted(summary, order))
    if manifest_findings:
        rows = [
            element(
                "tr",
                [
                    element("td", text(f.severity)),
                    element("td", _id(f.id)),
                    element("td", text(f.message)),
                    element("td", _code(_location(f.location))),
                ],
            )
            for f in manifest_findings
        ]
        head = element(
            "tr",
            [element("th", h, scope="col") for h in ("severity", "id", "message", "where")],
        )
        parts.append(
            element(
                "details",
                element("summary", f"Findings about the manifests ({len(manifest_findings)})")
                + element("table", element("thead", head) + element("tbody", rows), class_="plain"),
                class_="manifest-findings",
            )
        )
    return _summary_section(parts)


def audit_page(audit: AuditView) -> str:
    """The page for an audit: what `modetable audit -o json` prints, as its view."""
    summary = audit.trailer.summary
    items = audit.items
    order = list(summary.findings)
    components = list(summary.modes)
    choices = {
        "ns": _Choices("ns", "Namespace"),
        "sev": _Choices("sev", "Severity", by_name=False),
        "out": _Choices("out", "Outcome"),
        "fid": _Choices("fid", "Finding"),
        "rt": _Choices("rt", "Runtime"),
        "mode": _Choices("mode", "Mode"),
    }
    for severity in [*order, _PENDING, _OK]:  # listed most severe first
        choices["sev"].number(severity)
    bodies = [_audit_row(i, item, components, order, choices) for i, item in enumerate(items)]
    columns = ["Namespace", "Name", "Runtime", "Outcome", *components, "Severity", "Findings"]
    version = summary.version
    title = f"modetable audit ({version})"
    rules = audit.trailer.rules
    meta = (
        f"{counted(summary.isvcs, 'InferenceService')} under OME {text(version)}. "
        + _rules_line(rules.path, rules.version)
    )
    body = [
        *_top(title, meta, _audit_summary(summary, audit.trailer.manifest_findings)),
        _left_out(len(items), summary.isvcs),
        _controls(choices.values(), len(items)),
        _candidates_note(items),
        _table(
            columns,
            {"Severity", "Findings"},
            bodies,
            "Every InferenceService audited; open a row for its findings, components and "
            "candidates.",
        ),
    ]
    return _page(
        title, columns, body, [_detail(item.identity, _audit_detail(item)) for item in items]
    )


def _left_out(rows: int, audited: int) -> str:
    """Said when `--severity` left rows out: the summary still counts them all."""
    if rows == audited:
        return ""
    return element(
        "p",
        f"The rows are the {rows} of the {counted(audited, 'InferenceService')} that "
        "<code>--severity</code> "
        "kept; the summary counts every one.",
        class_="muted",
    )


def _candidates_note(items: Sequence[AuditItemView]) -> str:
    if any(item.outcome.candidates is not None for item in items):
        return ""
    return element(
        "p",
        "The candidate runtimes of each InferenceService are listed with "
        "<code>modetable audit --candidates -o html</code> (slow on a large fleet); "
        "a row shows the named runtime's own checks.",
        class_="muted",
    )


def _top(title: str, meta: str, summary: str) -> list[str]:
    """What a page begins with: its title, a line on what was audited under
    which rules (`meta`), the summary, then the rows' heading and what they
    need JavaScript for."""
    return [
        element("h1", text(title)),
        element("p", meta, class_="meta"),
        summary,
        element("h2", "InferenceServices", id="rows"),
        _noscript(),
    ]


def _noscript() -> str:
    return (
        "<noscript><p>Sorting, filtering and opening a row need JavaScript; the summary and "
        "the rows read without it, and <code>modetable audit -o json</code> holds every "
        "detail.</p></noscript>"
    )


# --- an upgrade --------------------------------------------------------------


def _side_runtime(side: UpgradeRuntimeView | None) -> str:
    if not side:
        return _NONE
    return side.name + (" (named)" if side.named else "")


def _side_mode(side: ResolutionView | None) -> str:
    if side is None:
        return _NONE
    return side.mode or _NO_MODE


def _side_source(side: ResolutionView | None) -> str:
    return _shown(side.source if side else None)


def _move(component: ComponentImpactView) -> str | None:
    """The move `summary.mode_changes` counts this component under, if any."""
    before, after = component.before, component.after
    if before is None or after is None or before.mode == after.mode:
        return None
    return f"{before.mode} -> {after.mode}"


def _upgrade_detail(item: ImpactView) -> list[dict[str, Any]]:
    sections = []
    why = list(item.runtime.why)
    if why:
        sections.append(_section("Runtime", list=why))
    rows = []
    notes = []
    for name, component in item.components.items():
        reconcile = component.reconcile
        rows.append(
            [
                name,
                _arrow(_side_mode(component.before), _side_mode(component.after)),
                _arrow(_side_source(component.before), _side_source(component.after)),
                "; ".join(component.why) or _NONE,
                _arrow(_shown(reconcile.before), _shown(reconcile.after)),
            ]
        )
        notes += [f"{name}: {c.message}" for c in component.changes]
        notes += [f"{name}: {note}" for note in component.notes]
    table = {"kind": "moves", "rows": rows}
    sections.append(_section("Components", table=table))
    if notes:
        sections.append(_section("What the move changes", list=notes))
    said = []
    problems = item.problems
    for key, listed in (("new", problems.new), ("fixed", problems.fixed)):
        if listed:
            said.append(f"{key} problems: {', '.join(_words(p) for p in listed)}")
    message, admission = item.message, item.admission
    for side, denied, why_not in (
        ("from", admission.before, message.before),
        ("to", admission.after, message.after),
    ):
        if denied:
            said.append(f"Denied ({side}): {denied}")
        if why_not and not _covered(why_not, [denied or ""]):
            said.append(f"Why no runtime ({side}): {why_not}")
    said.append(f"Written at {item.identity.at}.")
    sections.append(_section("Problems and outcome", text=said))
    return sections


def _upgrade_row(
    index: int, item: ImpactView, components: list[str], choices: dict[str, _Choices]
) -> str:
    before, after = item.runtime.before, item.runtime.after
    impact = _BREAKING if item.breaking else _CHANGED if item.changed else _UNCHANGED
    # The summary's `changed` counts the breaking ones too: both filters show them.
    impacts = [impact] + ([_CHANGED] if impact == _BREAKING else [])
    parts = item.components
    moves = [(name, _move(parts[name])) for name in parts]
    after_name = after.name if after else None
    data = {
        "data_ns": choices["ns"].number(item.identity.namespace or ""),
        "data_sev": choices["sev"].numbers_of((i, i) for i in impacts),
        "data_rt": choices["rt"].number(after_name or "", after_name or "(none)"),
        "data_mode": choices["mode"].numbers_of(
            (f"{name}\0{move}", f"{name}: {move.replace(' -> ', ' → ')}")
            for name, move in moves
            if move
        ),
    }
    result = item.result
    cells = [
        _cell(text(item.identity.namespace or "")),
        _name_cell(str(item.identity.name)),
        _cell(text(_arrow(_side_runtime(before), _side_runtime(after)))),
        _cell(_id_arrow(_shown(result.before), _shown(result.after))),
    ]
    for name in components:
        component = parts.get(name)
        shown = _NONE
        if component is not None:
            shown = _arrow(_side_mode(component.before), _side_mode(component.after))
        cells.append(_cell(text(shown)))
    cells.append(
        _cell(
            element("span", text(impact), class_=f"sev imp-{impact}"),
            key=str(_IMPACTS.index(impact)),
        )
    )
    return _row(index, cells, data)


def _id_arrow(before: str, after: str) -> str:
    """`_arrow` of two ids, each kept whole."""
    if before == after:
        return _id(before, "span")
    return f"{_id(before, 'span')} → {_id(after, 'span')}"


def _upgrade_summary(summary: UpgradeSummaryView) -> str:
    totals = [
        ("InferenceServices", summary.isvcs, "isvcs"),
        ("change", summary.changed, "changed"),
        ("of which breaking", summary.breaking, "breaking"),
        ("stay as they are", summary.unchanged, "unchanged"),
        ("change runtime", summary.runtime_changes, "runtime_changes"),
        ("have changes to make", summary.with_changes_to_make, "with_changes_to_make"),
    ]
    parts = [_counts(totals)]
    moves = summary.mode_changes
    for component, counts in moves.items():
        entries = [
            (text(move.replace(" -> ", " → ")), n, "mode", f"mode_changes.{component}.{move}")
            for move, n in counts.items()
        ]
        parts.append(
            _bars(
                f"{component}: moves from one mode to another",
                entries,
                f"mode_changes.{component}",
            )
        )
    if not moves:
        parts.append(element("p", "No component moves from one mode to another.", class_="muted"))
    for key, counts in (
        ("new_problems", summary.new_problems),
        ("fixed_problems", summary.fixed_problems),
    ):
        entries = [(text(_words(p)), n, key, f"{key}.{p}") for p, n in counts.items()]
        parts.append(_bars(_words(key).capitalize(), entries, key))
    return _summary_section(parts)


def _components_in_order(items: Iterable[Iterable[str]]) -> list[str]:
    """Every component the items name (each item's names), in the order they
    list them (each item lists its own in the rules' order): one met late goes
    after the component that comes before it in its item."""
    order: list[str] = []
    for names in items:
        before = None
        for name in names:
            if name not in order:
                order.insert(order.index(before) + 1 if before is not None else 0, name)
            before = name
    return order


def upgrade_page(upgrade: UpgradeView) -> str:
    """The page for an upgrade: what `modetable audit --from V -o json` prints, as its view."""
    summary = upgrade.trailer.summary
    items = upgrade.items
    components = _components_in_order(item.components for item in items)
    choices = {
        "ns": _Choices("ns", "Namespace"),
        "sev": _Choices("sev", "Impact", by_name=False),
        "rt": _Choices("rt", "Runtime after"),
        "mode": _Choices("mode", "Move"),
    }
    for impact in _IMPACTS:
        choices["sev"].number(impact)
    bodies = [_upgrade_row(i, item, components, choices) for i, item in enumerate(items)]
    columns = ["Namespace", "Name", "Runtime", "Outcome", *components, "Impact"]
    title = f"modetable audit: upgrade from {summary.before} to {summary.after}"
    rules = upgrade.trailer.rules
    lines = f"{rules.before} and {rules.after}"
    meta = f"{counted(summary.isvcs, 'InferenceService')}. " + _rules_line(rules.rules.path, lines)
    body = [
        *_top(title, meta, _upgrade_summary(summary)),
        _controls(choices.values(), len(items)),
        _table(
            columns,
            {"Impact"},
            bodies,
            "Every InferenceService under both versions; open a row for what changes and why.",
        ),
    ]
    return _page(
        title, columns, body, [_detail(item.identity, _upgrade_detail(item)) for item in items]
    )
