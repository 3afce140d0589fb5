"""A real browser for the page tests: Debian's Chromium (``scripts/system_packages.sh``) driven
by Playwright, never a browser Playwright downloads, and axe-core, the accessibility engine,
injected into the page from the pinned ``axe-playwright-python`` package (no network)."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from gg_testing import CHROMIUM, CHROMIUM_FLAGS, NO_CHROMIUM

WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
"""axe-core's rules for WCAG 2.0 and 2.1, levels A and AA: the standard the pages meet."""


@contextmanager
def chromium_browser() -> Iterator[Any]:
    """One headless Chromium for a test module (Playwright's ``Browser``), closed after."""
    from playwright.sync_api import sync_playwright

    assert CHROMIUM is not None, NO_CHROMIUM
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def chromium_tab(width: int = 1200, height: int = 900) -> Iterator[Any]:
    """One tab of a window ``width`` by ``height`` in its own Chromium: a test reads all its pages
    in it (a launch of Chromium for each page cost about a core-second each)."""
    with chromium_browser() as browser:
        yield browser.new_page(viewport={"width": width, "height": height})


def loaded_dom(tab: Any, page: Path) -> str:
    """The document of ``page`` once loaded, as the browser holds it (``--dump-dom``'s text)."""
    tab.goto(page.as_uri())
    return str(tab.content())


def axe_version() -> str:
    """The version of the axe-core engine the tests inject, from its file's banner."""
    from axe_playwright_python.sync_playwright import Axe

    return str(Axe().axe_script.split("axe v", 1)[1].split()[0])


def wcag_violations(page: Any) -> list[str]:
    """axe-core's WCAG 2.0/2.1 A and AA violations on ``page`` as it is now, one line each:
    the rule, what it asks, and the first elements that break it."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, options={"runOnly": {"type": "tag", "values": list(WCAG_TAGS)},
                                     "resultTypes": ["violations"]})
    return [f"{v['id']} ({v['impact']}): {v['help']}; "
            + ", ".join(str(node["target"]) for node in v["nodes"][:3])
            + (f" and {len(v['nodes']) - 3} more" if len(v["nodes"]) > 3 else "")
            for v in found.response["violations"]]


__all__ = ["WCAG_TAGS", "axe_version", "chromium_browser", "chromium_tab", "loaded_dom",
           "wcag_violations"]
