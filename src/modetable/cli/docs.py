"""`modetable docs`: rewrite the generated regions of the docs pages, or check them."""

from __future__ import annotations

import argparse
from pathlib import Path

from modetable.cli.common import Io, set_help
from modetable.errors import Location, ModetableError
from modetable.inputs.sources import same_file

__all__ = ["DEFAULT_DOCS_DIR", "EXAMPLES", "add_arguments", "run"]

EXAMPLES = """\
examples:
  modetable docs
  modetable docs --check
"""

# Where the pages are looked for, relative to the current directory.
DEFAULT_DOCS_DIR = Path("docs")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    set_help(
        parser,
        "--ome-version",
        "render the pages as they stand in this OME release, into --out "
        "(default: the rules file's default_version, over the pages themselves)",
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


def run(args: argparse.Namespace, io: Io) -> int:
    from modetable.cli.common import load_rules
    from modetable.docs import pages
    from modetable.output.render import line

    version = getattr(args, "ome_version", None)
    if version is not None and args.out is None:
        raise ModetableError(
            "--ome-version renders the pages as they stood in that version: "
            "name the folder to write them to with --out DIR"
        )
    # The same file every command reads; the pages describe its default version
    # ($MODETABLE_OME_VERSION does not apply: the pages are the file's).
    ruleset = load_rules(args, io)
    if version is None:
        version = ruleset.default_version
    else:
        placement = ruleset.place(version)  # an error before any work when too old
        if placement.warning:
            io.warn(placement.warning)
    if args.out is not None and same_file(args.out) == same_file(args.docs_dir):
        raise ModetableError(
            "--out names the docs folder itself: the pages would be overwritten with "
            "another version's; name another folder",
            Location(str(args.out)),
        )
    rendered = pages.render_folder(ruleset, args.docs_dir, version, args.out)
    if not rendered:
        io.warn(f"no generated regions in the pages under {args.docs_dir}")
    stale = [page for page in rendered if page.changed]
    if args.check:
        for page in stale:
            io.stdout.write(pages.diff(page))
        for page in stale:
            text = f"modetable: {page.target} is out of date"
            io.stderr.write(line(f"{text} (run the same command without --check)"))
        return 1 if stale else 0
    pages.write(stale)
    for page in stale:
        io.stdout.write(line(f"wrote {page.target}"))
    return 0
