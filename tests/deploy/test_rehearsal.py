"""The deploy rehearsal: what the platform files name exists and works, two browsers play
Tic-Tac-Toe over a WebSocket through the TLS proxy, and REST limits are per client behind it."""

from __future__ import annotations

import http.client
import json
import re
import shlex
import ssl
import subprocess

import pytest
import requests

from tests.live_server import BIN, REPO

from .conftest import Deployment, app_json, procfile

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from tests.e2e.helpers import host_room, join_by_code, play_until_result  # noqa: E402


def test_the_platform_files_name_what_exists_and_works(deployment: Deployment):
    kinds = procfile()
    assert shlex.split(kinds["web"])[:2] == ["lounge", "serve"] and "$PORT" in kinds["web"]
    assert shlex.split(kinds["release"]) == ["lounge", "db", "upgrade"]
    # The release phase ran before the web process, against the add-on's database.
    assert deployment.release.returncode == 0, deployment.release.stdout
    current = subprocess.run([str(BIN / "lounge"), "db", "current", "--database-url",
                              deployment.database_url], capture_output=True, text=True,
                             timeout=60, cwd=REPO)
    assert current.returncode == 0 and "(latest: " in current.stdout
    revision, latest = current.stdout.split("revision: ")[1].split(" (latest: ")
    assert revision == latest.strip().rstrip(")"), current.stdout

    spec = app_json()
    assert {"plan": "heroku-postgresql", "as": "DATABASE"} in spec["addons"]
    assert spec["env"]["SECRET_KEY"]["generator"] == "secret"
    assert spec["env"]["FORWARDED_ALLOW_IPS"]["value"] == "*"
    (check,) = spec["healthchecks"]["web"]
    health = requests.get(deployment.url + check["path"], timeout=5, verify=False)
    assert health.status_code == 200 and check["content"] in health.text
    assert health.json()["status"] == "ok"
    # What the buildpacks run: the project from this checkout, the client's build.
    assert (REPO / "requirements.txt").read_text().splitlines()[-1] == "-e ."
    build = json.loads((REPO / "package.json").read_text())["scripts"]["build"]
    assert "npm --prefix frontend" in build and (REPO / "frontend" / "package.json").is_file()


def test_two_browsers_play_tic_tac_toe_over_a_websocket_through_the_tls_proxy(
        deployment: Deployment, browser):
    errors: list[str] = []
    sockets: list[str] = []
    frames: list[int] = []
    contexts = []
    try:
        pages = []
        for name in ("Ada", "Grace"):
            context = browser.new_context(base_url=deployment.url, ignore_https_errors=True)
            contexts.append(context)
            context.set_default_timeout(10_000)
            context.add_init_script(f"localStorage.setItem('lounge.name', {name!r})")
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda m: errors.append(m.text)
                    if "Content Security Policy" in m.text else None)

            def on_websocket(ws, page=page) -> None:
                sockets.append(ws.url)
                ws.on("framereceived", lambda _: frames.append(1))

            page.on("websocket", on_websocket)
            page.goto("/")
            pages.append(page)
        ada, grace = pages
        code = host_room(ada, "Ada", "Tic-Tac-Toe", public=False)
        join_by_code(grace, "Grace", code)
        grace.get_by_role("button", name="I’m ready").click()
        ada.get_by_role("button", name="Start game").click()
        expect(grace.get_by_test_id("turn")).to_have_text("Ada’s turn")
        play_until_result([ada, grace], max_actions=40, max_seconds=30)
        for page in pages:
            expect(page.get_by_test_id("result")).to_be_visible()
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors
    wss = f"wss://127.0.0.1:{deployment.url.rsplit(':', 1)[1]}/socket.io/"
    assert len([url for url in sockets if url.startswith(wss)]) >= 2, sockets
    assert len(frames) > 10
    # nginx upgraded the connections, and the lounge saw the https origin (else a 400).
    upgraded = r'"GET /socket\.io/\?[^"]*transport=websocket[^"]*" 101 '
    access = deployment.nginx_access(expect=upgraded)
    assert re.search(upgraded, access), access


def https_post(deployment: Deployment, path: str, source: str) -> int:
    """A POST through the proxy from the loopback address ``source`` (another client)."""
    host, port = deployment.url.removeprefix("https://").split(":")
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    conn = http.client.HTTPSConnection(host, int(port), context=context, timeout=5,
                                       source_address=(source, 0))
    try:
        conn.request("POST", path, body=b"", headers={"X-Forwarded-For": "192.0.2.66"})
        return conn.getresponse().status
    finally:
        conn.close()


def test_rest_limits_are_per_client_behind_the_proxy(deployment: Deployment):
    from .conftest import REST_RATE

    # Each forges an X-Forwarded-For: nginx appends the address it saw, which is what counts.
    first = [https_post(deployment, "/api/session", "127.0.0.2") for _ in range(REST_RATE + 1)]
    assert first == [201] * REST_RATE + [429]
    assert https_post(deployment, "/api/session", "127.0.0.3") == 201
    log = deployment.app_output()
    assert "access: 127.0.0.2 POST /api/session 429" in log
    assert "access: 127.0.0.3 POST /api/session 201" in log
    assert "192.0.2.66" not in log


def test_the_dockerfile_runs_the_procfiles_commands():
    """The image cannot be built here (its base images come from a registry the tests do not
    use): check that what it copies exists and that it runs what the rehearsal runs."""
    text = (REPO / "Dockerfile").read_text()
    for line in text.splitlines():
        if line.startswith("COPY ") and "--from=" not in line:
            for source in line.split()[1:-1]:
                assert (REPO / source).exists(), line
    kinds = procfile()
    command = json.loads(text.split("\nCMD ", 1)[1].splitlines()[0])[-1]
    release, web = command.split(" && exec ")
    assert release == kinds["release"]
    assert web.replace('"$PORT"', "$PORT") == kinds["web"]
    assert "/api/health" in text
