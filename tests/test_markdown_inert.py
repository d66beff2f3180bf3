"""Values from input in `-o markdown` are text, never markup (issue 28).

The output is rendered as GitHub renders a pull-request comment, by cmark-gfm
(GitHub's own CommonMark, with its table, autolink, strikethrough and
tagfilter extensions, raw HTML let through as GitHub does before sanitizing),
and by markdown-it-py's GFM-like preset (linkify-it for autolinks). No tag,
link, image or HTML comment in the rendered page comes from an input, every
value reads as written, and no `@name` or `#123` is left for GitHub's mention
and issue-reference linking, which runs on the rendered text and is part of
no renderer.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import cmarkgfm
import pytest
import yaml
from cmarkgfm.cmark import Options
from conftest import RULES, isvc_doc, run_cli, write
from markdown_it import MarkdownIt

from modetable.output.markdown import inert, table
from modetable.text.shown import escape

# The word joiner `inert` puts after `@` and `#`: invisible, left out when the
# rendered text is compared with the value.
JOINER = "\u2060"

# Each payload and what `inert` writes for it, whole.
PAYLOADS = [
    ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
    ("<details><summary>x</summary>", "&lt;details&gt;&lt;summary&gt;x&lt;/summary&gt;"),
    ("<!-- hidden", "&lt;!-- hidden"),
    ("@octocat", "@&#8288;octocat"),
    ("cc @org/team now", "cc @&#8288;org/team now"),
    ("[a](https://evil.com)", "\\[a\\](https:/&#47;evil.com)"),
    ("![i](https://evil.com/x.png)", "!\\[i\\](https:/&#47;evil.com/x.png)"),
    ("[r][1] and [1]: https://evil.com", "\\[r\\]\\[1\\] and \\[1\\]: https:/&#47;evil.com"),
    ("https://evil.example/p?q=1", "https:/&#47;evil.example/p?q=1"),
    ("see http://evil.com.", "see http:/&#47;evil.com."),
    ("ftp://evil.com", "ftp:/&#47;evil.com"),
    ("//evil.com/x", "/&#47;evil.com/x"),
    ("www.evil.com", "www&#46;evil.com"),
    ("WWW.evil.com", "WWW&#46;evil.com"),
    ("<https://evil.com>", "&lt;https:/&#47;evil.com&gt;"),
    ("a@b.co", "a@&#8288;b.co"),
    ("mailto:a@b.co", "mailto:a@&#8288;b.co"),
    ("xmpp:a@b.co/r", "xmpp:a@&#8288;b.co/r"),
    ("`code` and ``two``", "&#96;code&#96; and &#96;&#96;two&#96;&#96;"),
    ("a|b", "a|b"),
    ("line\nnext", "line\\nnext"),
    ("back\\slash \\[x] \\", "back\\slash \\\\\\[x\\] \\\\"),
    ("&lt;b&gt; &#64;octocat &amp;", "&amp;lt;b&amp;gt; &amp;#&#8288;64;octocat &amp;amp;"),
    ("*bold* _it_ ~~del~~", "\\*bold\\* \\_it\\_ &#126;&#126;del&#126;&#126;"),
    ("# heading", "#&#8288; heading"),
    ("fixes #12", "fixes #&#8288;12"),
    ("- item", "&#45; item"),
    ("+ item", "&#43; item"),
    ("12. item", "12&#46; item"),
    ("3) item", "3&#41; item"),
    ("===", "&#61;=="),
    ("> quote", "&gt; quote"),
    ("$x^2$ costs $5", "&#36;x^2&#36; costs &#36;5"),
    ("a\x1b[2J\u202eb", "a\\x1b\\[2J\\u202eb"),
    # Ordinary names are left as they are: hyphens, dots, slashes, colons.
    ("team-a/llama-3.1:8b", "team-a/llama-3.1:8b"),
]


@pytest.mark.parametrize(("payload", "written"), PAYLOADS, ids=[p for p, _ in PAYLOADS])
def test_inert_writes(payload, written):
    assert inert(payload) == written


def render_github(text: str) -> str:
    """As GitHub renders a comment, before its sanitizer (raw HTML kept)."""
    return cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE)


def render_markdown_it(text: str) -> str:
    md = MarkdownIt("gfm-like")
    # GitHub links a bare domain only after `www.` or a scheme: linkify-it's
    # fuzzy links (`b.co` alone) are not GitHub's.
    md.linkify.set({"fuzzy_link": False})
    return md.render(text)


RENDERERS = {"cmark-gfm": render_github, "markdown-it": render_markdown_it}


class _Page(HTMLParser):
    """What a rendered page holds: its elements (tag, attributes) in order,
    its comments, its text outside code (where GitHub looks for mentions and
    issue references), and each table cell's text and tags."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, list]] = []
        self.comments: list[str] = []
        self.texts: list[str] = []
        self._in_code = False
        self.blocks: list[tuple[str, str]] = []  # (tag, text) of each h3 and p
        self.rows: list[list[tuple[str, list[str]]]] = []
        self._cell: tuple[list[str], list[str]] | None = None
        self._block: list[str] | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, attrs))
        self._in_code = self._in_code or tag == "code"
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = ([], [])
        elif tag in ("h3", "p"):
            self._block = []
        elif self._cell is not None:
            self._cell[1].append(tag)

    def handle_endtag(self, tag):
        self._in_code = self._in_code and tag != "code"
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(("".join(self._cell[0]).strip(), self._cell[1]))
            self._cell = None
        elif tag in ("h3", "p") and self._block is not None:
            self.blocks.append((tag, "".join(self._block)))
            self._block = None

    def handle_data(self, data):
        if not self._in_code:
            self.texts.append(data)
        for part in (self._cell[0] if self._cell else None, self._block):
            if part is not None:
                part.append(data.replace(JOINER, ""))

    def handle_comment(self, data):
        self.comments.append(data)


def assert_nothing_is_linked(page: _Page) -> None:
    """No element has attributes (a link's href, an image's src), no comment,
    and no `@name` or `#123` that GitHub would link in the rendered text (in
    code it links neither)."""
    assert [e for e in page.elements if e[1]] == []
    assert page.comments == []
    text = "".join(page.texts)
    assert re.findall(r"@[A-Za-z0-9]", text) == []
    assert re.findall(r"#[0-9]", text) == []


@pytest.mark.parametrize("renderer", RENDERERS)
@pytest.mark.parametrize("payload", [p for p, _ in PAYLOADS])
def test_inert_text_renders_as_written_and_nothing_else(renderer, payload):
    """In a heading, a paragraph and a table cell (where `cell` escapes `|`)."""
    text = f"### {inert(payload)}\n\n{inert(payload)}\n\n" + table(["A"], [[inert(payload)]])
    page = _Page(RENDERERS[renderer](text))
    assert [tag for tag, _ in page.elements] == [
        "h3",
        "p",
        "table",
        "thead",
        "tr",
        "th",
        "tbody",
        "tr",
        "td",
    ]
    shown = escape(payload).strip()
    assert page.blocks == [("h3", shown), ("p", shown)]
    assert page.rows == [[("A", [])], [(shown, [])]]
    assert_nothing_is_linked(page)


# --- the audit's Markdown, from hostile manifests and file names -----------------------


def _name(payload: str, fallback: str) -> str:
    """`payload` where a Kubernetes name read by modetable can hold it (no
    space or control character), else `fallback`."""
    plain = payload and all(c.isprintable() and not c.isspace() for c in payload)
    return payload if plain else fallback


def _file_name(payload: str, index: int) -> str:
    """`payload` as a file name where a file name can hold it (no `/`)."""
    return f"{payload}.yaml" if "/" not in payload else f"{index}.yaml"


@pytest.fixture
def hostile(tmp_path, monkeypatch):
    """One InferenceService per payload, in a file named with it: the payload
    as its name (or namespace), its deploymentMode and its model's name, which
    the admission and model findings quote."""
    monkeypatch.chdir(tmp_path)
    for index, (payload, _) in enumerate(PAYLOADS):
        name = _name(payload, f"svc-{index}")
        namespace = f"ns-{index}" if index % 2 else _name(payload, f"ns-{index}")
        document = isvc_doc(
            name=name if index % 2 else f"svc-{index}",
            namespace=namespace,
            deploymentMode=payload,
            model={"name": payload},
        )
        write(Path("in"), _file_name(payload, index), yaml.safe_dump(document))
    return "in"


def _expected_rows(document: dict) -> list[list[str]]:
    """Each finding of `audit -o json` as its Markdown row should read."""
    rows = []
    for item in document["items"]:
        for finding in item["findings"]:
            obj = finding["object"]
            where = finding["location"]
            hint = f" ({finding['hint']})" if finding["hint"] else ""
            rows.append(
                [
                    finding["severity"],
                    finding["id"],
                    escape(item["isvc"]),
                    escape(f"{obj['kind']} {obj['namespace']}/{obj['name']}"),
                    f"{escape(where['file'])}:{where['line']}:{where['col']}",
                    escape(finding["message"]) + hint,
                ]
            )
    # The objects the API server refuses (a hostile name or mode is no name or
    # mode its schema takes): each problem a row, the object its subject.
    for finding in document["manifest_findings"]:
        obj = finding["object"]
        where = finding["location"]
        hint = f" ({finding['hint']})" if finding["hint"] else ""
        ref = f"{obj['namespace']}/{obj['name']}" if obj["namespace"] else obj["name"]
        rows.append(
            [
                finding["severity"],
                finding["id"],
                escape(f"{obj['kind']} {ref}"),
                escape(f"{obj['kind']} {obj['namespace']}/{obj['name']}"),
                f"{escape(where['file'])}:{where['line']}:{where['col']}",
                escape(finding["message"]) + hint,
            ]
        )
    return rows


@pytest.mark.parametrize("renderer", RENDERERS)
def test_the_audit_markdown_shows_hostile_values_as_text(hostile, renderer):
    run = run_cli("audit", "-o", "markdown", hostile)
    assert (run.code, run.err) == (1, "")
    expected = _expected_rows(run_cli("audit", "-o", "json", hostile).json())
    # Every payload's object refused by the API server's schema (its mode at least).
    assert len(expected) >= len(PAYLOADS)
    page = _Page(RENDERERS[renderer](run.out))
    assert page.blocks[0] == ("h3", "modetable audit (v1.3)")
    header, *rows = page.rows
    assert [text for text, _ in header] == [
        "Severity",
        "Finding",
        "Subject",
        "Object to fix",
        "Where",
        "Message",
    ]
    assert [[text for text, _ in row] for row in rows] == expected
    # The only elements in a cell are modetable's code spans: the finding's id,
    # and its place (as text when it holds a `|`, which would split the span).
    assert [[tags for _, tags in row] for row in rows] == [
        [[], ["code"], [], [], [] if "|" in where else ["code"], []] for *_, where, _ in expected
    ]
    assert_nothing_is_linked(page)


@pytest.mark.parametrize("renderer", RENDERERS)
@pytest.mark.parametrize("payload", ["[r](https://evil.com) @octocat", "- <b>x</b>", "fixes #1"])
def test_a_rules_file_name_in_the_heading_and_summary_is_text(tmp_path, renderer, payload):
    """`rules check` names its file in the title and the summary, and the audit
    in its preface line (`rules: FILE`) when the rules are not the bundled ones."""
    folder = tmp_path / payload.replace("/", "%")
    folder.mkdir()
    rules = folder / f"{payload.replace('/', '%')}.yaml"
    rules.write_bytes(RULES.read_bytes() + b"# not the bundled bytes\n")
    checked = run_cli("rules", "check", "-o", "markdown", str(rules))
    assert (checked.code, checked.err) == (0, "")
    page = _Page(RENDERERS[renderer](checked.out))
    summary = run_cli("rules", "check", str(rules)).out.strip()
    assert page.blocks == [
        ("h3", f"modetable rules check ({escape(str(rules))})"),
        ("p", summary),
        ("p", "No findings."),
    ]
    assert_nothing_is_linked(page)

    write(tmp_path, "isvc.yaml", yaml.safe_dump(isvc_doc(model={"name": "m"})))
    audited = run_cli("--rules", str(rules), "audit", "-o", "markdown", str(tmp_path / "isvc.yaml"))
    assert audited.code == 1, audited.err
    page = _Page(RENDERERS[renderer](audited.out))
    assert page.blocks[0] == ("p", f"rules: {escape(str(rules))} (v1.3 rules)")
    assert_nothing_is_linked(page)
