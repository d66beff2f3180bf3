"""A folder of Markdown pages: render their generated regions, diff, write.

Reading and rendering are separate from writing, so `--check` runs exactly the
code that writes and only skips the last step.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from pathlib import Path

from modetable.docs.regions import Region, find_regions, splice
from modetable.docs.tables import REGIONS
from modetable.errors import ErrorCode, ErrorList, Location, ModetableError
from modetable.output import atomic
from modetable.parsing.yamlio import read_file
from modetable.rules.policy import RuleSet
from modetable.settled import frozen

__all__ = ["REGION_OPTIONS", "Page", "diff", "render_folder", "write"]

# Options a region's BEGIN marker may carry.
REGION_OPTIONS = ("version",)


@frozen
class Page:
    """One page: where it is read from and written to, and its text before and after."""

    source: Path
    target: Path
    relative: str
    before: str | None  # the target's text now; None when it does not exist
    after: str

    @property
    def changed(self) -> bool:
        return self.before != self.after


def _markdown_files(folder: Path) -> Iterator[Path]:
    """The Markdown pages under `folder`, in a stable order; hidden ones skipped."""
    for path in sorted(folder.rglob("*.md")):
        relative = path.relative_to(folder)
        if not any(part.startswith(".") for part in relative.parts) and path.is_file():
            yield path


def _read_page(path: Path) -> str:
    data = read_file(path, str(path))  # within the byte limit every input has
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ModetableError("not UTF-8 text", Location(str(path), line)) from None


def _render_region(ruleset: RuleSet, region: Region, version: str | None) -> str:
    unknown = sorted(set(region.args) - set(REGION_OPTIONS))
    if unknown:
        raise ModetableError(
            f"region {region.name!r} takes no option {unknown[0]!r} "
            f"(options: {', '.join(REGION_OPTIONS)})",
            region.location,
        )
    wanted = region.args.get("version", version)
    try:
        policy = ruleset.at(wanted)
    except ModetableError as exc:
        raise ModetableError(exc.message, region.location) from None
    return REGIONS[region.name](policy)


def _render_text(ruleset: RuleSet, text: str, file: str, version: str | None) -> tuple[str, int]:
    """`text` with every region rendered, and how many regions it has."""
    regions = find_regions(text, file, lambda name: name in REGIONS)
    contents: list[str] = []
    errors: list[ModetableError] = []
    for region in regions:
        try:
            contents.append(_render_region(ruleset, region, version))
        except ModetableError as exc:
            errors.append(exc)
    if errors:
        raise ErrorList(errors) if len(errors) > 1 else errors[0]
    return splice(text, regions, contents), len(regions)


def render_folder(
    ruleset: RuleSet, docs_dir: Path, version: str | None, out_dir: Path | None = None
) -> list[Page]:
    """Every page of `docs_dir` that has generated regions, rendered.

    With `out_dir`, each page's target is the same relative path under it (the
    pages as they stand in `version`); otherwise the page itself.
    """
    if not docs_dir.is_dir():
        raise ModetableError("no such folder", Location(str(docs_dir)), code=ErrorCode.CANNOT_READ)
    pages: list[Page] = []
    errors: list[ModetableError] = []
    for path in _markdown_files(docs_dir):
        text = _read_page(path)
        try:
            after, count = _render_text(ruleset, text, str(path), version)
        except ErrorList as exc:
            errors.extend(exc.errors)
            continue
        except ModetableError as exc:
            errors.append(exc)
            continue
        if count == 0:
            continue
        relative = path.relative_to(docs_dir).as_posix()
        if out_dir is None:
            pages.append(Page(path, path, relative, text, after))
        else:
            target = out_dir / relative
            before = _read_page(target) if target.is_file() else None
            pages.append(Page(path, target, relative, before, after))
    if errors:
        raise ErrorList(errors) if len(errors) > 1 else errors[0]
    return pages


def diff(page: Page) -> str:
    """A unified diff from the page as it is to the page as rendered."""
    before = page.before or ""
    lines = difflib.unified_diff(
        _diff_lines(before),
        _diff_lines(page.after),
        fromfile=str(page.target) if page.before is not None else "/dev/null",
        tofile=str(page.target),
    )
    return "".join(lines)


def _diff_lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines


def write(pages: list[Page]) -> None:
    """Write the changed pages, all or none (modetable.output.atomic: each page staged in
    full beside its target, missing folders made, then all renamed into place)."""
    atomic.write_files([(page.target, page.after.encode("utf-8")) for page in pages])
