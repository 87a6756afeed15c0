"""End-to-end fixtures: a real lounge server process and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "frontend" / "dist" / "index.html"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
SERVER_ENV = {
    "HOST_GRACE_SECONDS": "1.5", "PLAYER_GRACE_SECONDS": "30", "BOT_DELAY_SECONDS": "0.05",
    "BOT_SLAP_DELAY_SECONDS": "0.4", "SOCKET_RATE_PER_SECOND": "1000",
    "SOCKET_RATE_BURST": "1000", "REST_RATE_PER_MINUTE": "100000",
    "SECRET_KEY": "e2e-tests-only-secret",
}
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/api/health", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not become healthy in time")


def start_server(log_path: Path) -> tuple[subprocess.Popen, str]:
    """Starts `lounge serve` on a free port; tries again on another port if it does not come up
    (another process may take the port between choosing and binding it)."""
    env = {
        **os.environ, **SERVER_ENV, "FRONTEND_DIST": str(DIST.parent),
        # A database of its own, so that no other server process shares its file.
        "DATABASE_URL": f"sqlite:///{log_path.parent / 'lounge.db'}",
    }
    for _attempt in range(3):
        port = free_port()
        command = [sys.executable, "-m", "backend.cli", "serve",
                   "--host", "127.0.0.1", "--port", str(port)]
        with open(log_path, "w") as log:
            proc = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, proc)
            return proc, url
        except RuntimeError:
            proc.kill()
            proc.wait(timeout=10)
    raise RuntimeError(f"the server did not start: {log_path.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A `lounge serve` process on a free loopback port, serving the built web client."""
    if not DIST.is_file():
        pytest.fail("frontend/dist is missing: run `npm ci && npm run build` in frontend/ first")
    log_path = tmp_path_factory.mktemp("server") / "server.log"
    proc, url = start_server(log_path)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    assert "Traceback" not in log_path.read_text(), log_path.read_text()[-4000:]


@pytest.fixture(scope="session")
def browser() -> Iterator[sync_api.Browser]:
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs it)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


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
        path: str = "/", viewport: dict | None = None, name: str | None = None
    ) -> sync_api.Page:
        context = browser.new_context(viewport=viewport or DESKTOP, base_url=server_url)
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
