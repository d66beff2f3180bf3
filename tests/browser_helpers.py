"""A real browser for the pages modetable writes: Debian's chromium, headless,
driven by Playwright (never a browser Playwright downloads). Tests that need it
take the `chromium` fixture and are skipped, with the reason, only where no
chromium is installed (CI installs it: .ci/run)."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import attrs
import pytest

CHROMIUM = Path("/usr/bin/chromium")
# What this machine's chromium needs headless, and nothing that reaches out
# (no component updates, sync or background requests of its own).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1300, "height": 900}


@attrs.define
class Visit:
    """A page opened from disk, with everything it asked for and everything it said."""

    page: Any
    url: str
    requests: list[str]
    errors: list[str]
    dialogs: list[str]
    seconds: float  # from asking for the page to its script having run

    def count(self, selector: str) -> int:
        return self.page.locator(selector).count()

    def visible_rows(self) -> int:
        return self.page.locator("#items > .item:not([hidden])").count()


class Chromium:
    """One chromium per session, in a fresh user-data-dir per context."""

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        self._manager = sync_playwright()
        self.playwright = self._manager.start()
        self._contexts: dict[bool, Any] = {}
        self._profiles: list[str] = []

    def context(self, *, javascript: bool = True) -> Any:
        if javascript not in self._contexts:
            profile = tempfile.mkdtemp(prefix="modetable-chromium-")
            self._profiles.append(profile)
            self._contexts[javascript] = self.playwright.chromium.launch_persistent_context(
                profile,
                executable_path=str(CHROMIUM),
                args=CHROMIUM_ARGS,
                headless=True,
                java_script_enabled=javascript,
                viewport=VIEWPORT,
                offline=True,
            )
        return self._contexts[javascript]

    def open(self, path: Path, *, javascript: bool = True, timeout: float = 60) -> Visit:
        """`path` opened as a person opens a file; with JavaScript, once the
        page's script has run (it marks `<html data-ready>`)."""
        page = self.context(javascript=javascript).new_page()
        url = path.resolve().as_uri()
        visit = Visit(page, url, [], [], [], 0.0)
        page.on("request", lambda request: visit.requests.append(request.url))
        page.on("pageerror", lambda error: visit.errors.append(str(error)))
        page.on(
            "console",
            lambda message: visit.errors.append(message.text) if message.type == "error" else None,
        )

        def dismiss(dialog: Any) -> None:
            visit.dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", dismiss)
        started = time.perf_counter()
        page.goto(url, wait_until="commit", timeout=timeout * 1000)
        if javascript:
            page.wait_for_selector("html[data-ready]", state="attached", timeout=timeout * 1000)
        else:
            page.wait_for_load_state("load", timeout=timeout * 1000)
        visit.seconds = time.perf_counter() - started
        return visit

    def close(self) -> None:
        for context in self._contexts.values():
            context.close()
        self._manager.__exit__(None, None, None)
        for profile in self._profiles:
            shutil.rmtree(profile, ignore_errors=True)


def need_chromium() -> None:
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is not installed: the page tests open it in Debian's chromium "
            "(apt-get install chromium; .ci/run installs it)"
        )
