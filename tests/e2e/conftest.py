"""End-to-end fixtures: a real lounge server process and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.browser import REDUCED_MOTION
from tests.live_server import Server

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "frontend" / "dist" / "index.html"
SERVER_ENV = {
    "HOST_GRACE_SECONDS": "1.5", "PLAYER_GRACE_SECONDS": "30", "BOT_DELAY_SECONDS": "0.05",
    "BOT_SLAP_DELAY_SECONDS": "0.4", "SOCKET_RATE_PER_SECOND": "1000",
    "SOCKET_RATE_BURST": "1000", "REST_RATE_PER_MINUTE": "100000",
    "SESSION_RATE_PER_MINUTE": "100000", "CONNECT_RATE_PER_MINUTE": "100000",
    "REPLAY_RATE_PER_MINUTE": "100000",
    "SECRET_KEY": "e2e-tests-only-secret-0123456789abcdef",
}
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


@contextmanager
def own_server(**settings: str) -> Iterator[Server]:
    """A server of the test's own, serving the built web client, with the shared one's settings
    but for ``settings``; no traceback in its output by the end."""
    server = Server(**{**SERVER_ENV, **settings}, FRONTEND_DIST=str(DIST.parent))
    try:
        yield server
    finally:
        output = server.stop()
    assert "Traceback" not in output, output[-4000:]


@pytest.fixture(scope="package")
def server_settings() -> dict:
    """The server serves the built web client."""
    if not DIST.is_file():
        pytest.fail("frontend/dist is missing: run `npm ci && npm run build` in frontend/ first")
    return {**SERVER_ENV, "FRONTEND_DIST": str(DIST.parent)}


@pytest.fixture(scope="package")
def server_url(server: Server) -> str:
    return server.url


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: $LOUNGE_SCREENSHOTS, or a temporary folder."""
    folder = os.environ.get("LOUNGE_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def open_tab(browser: sync_api.Browser, server_url: str) -> Iterator[Callable[..., sync_api.Page]]:
    """Opens a page in its own browser context (its own sessionStorage: its own player)."""
    contexts: list[sync_api.BrowserContext] = []
    errors: list[str] = []

    def make(
        path: str = "/", viewport: dict | None = None, name: str | None = None,
        motion: str = REDUCED_MOTION["reduced_motion"],
    ) -> sync_api.Page:
        context = browser.new_context(viewport=viewport or DESKTOP, base_url=server_url,
                                      reduced_motion=motion)
        context.set_default_timeout(10_000)
        contexts.append(context)
        if name:
            context.add_init_script(f"localStorage.setItem('lounge.name', {name!r})")
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(path)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
