"""The one Chromium of a test process (Debian's, driven by Playwright's sync API), shared by
every package that drives a browser: the sync API runs one Playwright at a time in a process,
so a second ``sync_playwright()`` while the first is open fails."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
# Every test's browser context asks for reduced motion: nothing on the page then moves or pulses
# forever (a pulsing glow repaints every frame: a tab at its turn idles at 0.17 to 0.20 of a core
# in headless Chromium, against 0.01 without), and no button slides under a click.
# tests/e2e/test_nine_locks.py plays one game with motion, as most players see it.
REDUCED_MOTION = {"reduced_motion": "reduce"}


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Chromium, launched at its first use and closed at the end of the run."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs it)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()
