"""`modetable docs`: rewrite the generated regions of the docs pages, or check them."""

from __future__ import annotations

import argparse
from pathlib import Path

from modetable.cli.common import Io, set_help
from modetable.errors import ModetableError

# Where the pages and the rules are looked for, relative to the current directory.
DEFAULT_DOCS_DIR = Path("docs")
RULES_BESIDE_DOCS = Path("rules") / "modes.yaml"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    set_help(
        parser,
        "--rules",
        "rules file (default: rules/modes.yaml beside the docs folder when it exists, "
        "else the bundled one)",
    )
    parser.add_argument(
        "--docs-dir",
        metavar="DIR",
        type=Path,
        default=DEFAULT_DOCS_DIR,
        help="the pages to render (default: docs/ under the current directory)",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        type=Path,
        help="write the rendered pages here instead of over the pages themselves "
        "(required with --ome-version)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; print a unified diff and exit 1 when a page is out of date",
    )


def _rules_file(args: argparse.Namespace) -> Path | None:
    """--rules, else rules/modes.yaml beside the docs folder, else the bundled file."""
    if getattr(args, "rules", None):
        return Path(args.rules)
    beside = args.docs_dir.resolve().parent / RULES_BESIDE_DOCS
    return beside if beside.is_file() else None


def run(args: argparse.Namespace, io: Io) -> int:
    from modetable.docs import pages
    from modetable.rules.policy import load_ruleset

    version = getattr(args, "ome_version", None)
    if version is not None and args.out is None:
        raise ModetableError(
            "--ome-version renders the pages as they stood in that version: "
            "name the folder to write them to with --out DIR"
        )
    ruleset = load_ruleset(_rules_file(args))
    if version is not None:
        ruleset.resolve_version(version)  # an unknown version is an error before any work
    rendered = pages.render_folder(ruleset, args.docs_dir, version, args.out)
    if not rendered:
        io.warn(f"no generated regions in the pages under {args.docs_dir}")
    stale = [page for page in rendered if page.changed]
    if args.check:
        for page in stale:
            io.stdout.write(pages.diff(page))
        for page in stale:
            io.stderr.write(
                f"modetable: {page.target} is out of date (run the same command without --check)\n"
            )
        return 1 if stale else 0
    for page in stale:
        pages.write(page)
        io.stdout.write(f"wrote {page.target}\n")
    return 0
