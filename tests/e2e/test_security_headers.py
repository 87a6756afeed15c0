"""The security headers on every page and API answer, and the web client still working under
its Content-Security-Policy in Chromium."""

from __future__ import annotations

import re

import requests
from playwright.sync_api import expect

from backend.edge import CONTENT_SECURITY_POLICY

from .helpers import host_room

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.effectiveDirective + ' ' + e.blockedURI));
"""


def test_every_answer_has_the_security_headers(server_url):
    index = requests.get(server_url, timeout=5).text
    script = re.search(r'src="(/assets/[^"]+\.js)"', index).group(1)
    paths = ["/", "/r/ABCDEF", "/rules/tic-tac-toe", script, "/favicon.svg", "/api/health",
             "/api/games", "/api/no-such-thing", "/api/matches",
             "/socket.io/?EIO=4&transport=polling"]
    for path in paths:
        answer = requests.get(server_url + path, timeout=5)
        headers = answer.headers
        assert headers.get("Content-Security-Policy") == CONTENT_SECURITY_POLICY, path
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers.get("X-Content-Type-Options") == "nosniff", path
        assert headers.get("Referrer-Policy") == "no-referrer", path
        assert headers.get("X-Frame-Options") == "DENY", path
    assert "<script>" not in index and "style=" not in index  # nothing inline to allow


def test_the_app_works_under_its_content_security_policy(open_tab, browser, server_url):
    page = open_tab("/", name="Ada")
    page.add_init_script(RECORD_VIOLATIONS)
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.reload()
    host_room(page, "Ada", "Tic-Tac-Toe", public=False)
    expect(page.get_by_test_id("room-code")).to_be_visible()
    page.get_by_role("textbox", name="Message").fill("hello under CSP")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_text("hello under CSP").first).to_be_visible()
    assert page.evaluate("window.__csp") == []
    assert not [text for text in console if "Content Security Policy" in text], console

    # The policy is in force: an injected inline script does not run.
    page.evaluate("""() => { const s = document.createElement('script');
                     s.textContent = 'window.__injected = true'; document.body.append(s); }""")
    page.wait_for_function("window.__csp.length > 0")
    assert page.evaluate("window.__injected") is None
    assert page.evaluate("window.__csp")[0].startswith("script-src")

    # And no other site may frame the lounge.
    context = browser.new_context()
    try:
        framer = context.new_page()
        framer.set_content(f'<iframe src="{server_url}/" width="400" height="300"></iframe>')
        framer.wait_for_timeout(1000)
        frame = framer.frames[1]
        assert frame.url != f"{server_url}/" or frame.locator("#root").count() == 0
    finally:
        context.close()
