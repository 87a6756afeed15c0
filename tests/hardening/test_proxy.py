"""Behind a TLS-terminating proxy: the scheme, host and client address come from the forwarded
headers of trusted proxies (FORWARDED_ALLOW_IPS) only."""

from __future__ import annotations

import json
import time

import pytest
import requests
import websocket

from backend.config import Config
from backend.edge import Edge, is_own_origin
from tests.live_server import Server

HANDSHAKE = "/socket.io/?EIO=4&transport=polling"
SITE = "lounge.example"
RATE = 3  # REST writes a minute per client address


def start(**env: object):
    srv = Server(REST_RATE_PER_MINUTE=RATE, **env)
    yield srv
    output = srv.stop()
    assert "Traceback" not in output, output[-3000:]


@pytest.fixture(scope="module")
def behind_proxy():
    """A server whose peer (this test, on 127.0.0.1) is its trusted proxy."""
    yield from start(FORWARDED_ALLOW_IPS="127.0.0.1")


@pytest.fixture(scope="module")
def direct():
    """A server with the default settings: no proxy is trusted."""
    yield from start()


def handshake(url: str, origin: str, **headers: str) -> int:
    return requests.get(url + HANDSHAKE, headers={"Origin": origin, **headers},
                        timeout=5).status_code


def new_sessions(url: str, forwarded_for: list[str]) -> list[int]:
    return [requests.post(f"{url}/api/session", headers={"X-Forwarded-For": address},
                          timeout=5).status_code for address in forwarded_for]


def test_the_sites_own_https_origin_is_accepted_behind_a_trusted_proxy(behind_proxy):
    url = behind_proxy.url
    https = {"Host": SITE, "X-Forwarded-Proto": "https"}
    assert handshake(url, f"https://{SITE}", **https) == 200
    # Heroku's router also says which port the client used: the default one is implied.
    assert handshake(url, f"https://{SITE}", **https, **{"X-Forwarded-Port": "443"}) == 200
    assert handshake(url, f"https://{SITE}:8443", **https) == 400
    assert handshake(url, "https://evil.example", **https) == 400
    assert handshake(url, f"https://{SITE}", Host=SITE) == 400  # the proxy said plain http
    # The WebSocket transport too, as a browser opens it through the proxy.
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{behind_proxy.port}/socket.io/?EIO=4&transport=websocket",
        host=SITE, origin=f"https://{SITE}", header=["X-Forwarded-Proto: https"], timeout=5)
    try:
        assert ws.recv().startswith("0{")  # Engine.IO's open packet
    finally:
        ws.close()


def test_forwarded_headers_from_an_untrusted_peer_change_nothing(direct):
    url = direct.url
    assert handshake(url, f"https://{SITE}", Host=SITE, **{"X-Forwarded-Proto": "https",
                                                           "X-Forwarded-Host": SITE}) == 400
    assert handshake(url, f"http://127.0.0.1:{direct.port}") == 200
    with pytest.raises(websocket.WebSocketBadStatusException):
        websocket.create_connection(
            f"ws://127.0.0.1:{direct.port}/socket.io/?EIO=4&transport=websocket",
            host=SITE, origin=f"https://{SITE}", header=["X-Forwarded-Proto: https"], timeout=5)
    # A new forged address for every write: still one bucket, the peer's.
    forged = [f"198.51.100.{n}" for n in range(RATE + 2)]
    assert new_sessions(url, forged) == [201] * RATE + [429, 429]
    time.sleep(0.3)  # the access log is written as each answer starts
    log = direct.output()
    assert "access: 127.0.0.1 POST /api/session 429" in log
    assert "198.51.100." not in log


def test_the_rest_limit_and_the_log_use_the_clients_address_behind_a_trusted_proxy(
        behind_proxy):
    url = behind_proxy.url
    assert new_sessions(url, ["203.0.113.7"] * (RATE + 1)) == [201] * RATE + [429]
    # Another client behind the same proxy has a bucket of its own.
    assert new_sessions(url, ["203.0.113.8"]) == [201]
    # The proxy appends the address it saw: what the client put before it is not believed.
    assert new_sessions(url, [f"10.9.9.{n}, 203.0.113.7" for n in range(3)]) == [429] * 3
    time.sleep(0.3)
    log = behind_proxy.output()
    assert "access: 203.0.113.7 POST /api/session 201" in log
    assert "access: 203.0.113.7 POST /api/session 429" in log
    assert "access: 203.0.113.8 POST /api/session 201" in log
    assert "10.9.9." not in log


def test_which_peers_are_trusted():
    def app(environ, start_response):
        return []

    edge = Edge(app, ("10.0.0.0/8", "192.0.2.1", "fd00::/8"), log=False)
    assert edge.trusts("10.1.2.3") and edge.trusts("192.0.2.1") and edge.trusts("fd00::1")
    for peer in ("192.0.2.2", "127.0.0.1", "::1", "", "not-an-address"):
        assert not edge.trusts(peer)
    assert Edge(app, ("*",), log=False).trusts("198.51.100.1")
    assert not Edge(app, (), log=False).trusts("127.0.0.1")
    with pytest.raises(ValueError, match="FORWARDED_ALLOW_IPS"):
        Config(FORWARDED_ALLOW_IPS=("10.0.0.0/40",))


def test_own_origin_compares_scheme_host_and_port():
    environ = {"wsgi.url_scheme": "https", "HTTP_HOST": "Lounge.Example:443"}
    assert is_own_origin("https://lounge.example", environ)
    assert not is_own_origin("http://lounge.example", environ)
    assert not is_own_origin("https://lounge.example:444", environ)
    for junk in ("null", "", "https://", "https://lounge.example:99999", "javascript:1"):
        assert not is_own_origin(junk, environ)


def test_no_client_can_write_a_line_of_its_own_into_the_access_log(direct):
    """What a client sends (its path, its method) is logged with its controls, spaces and
    anything not ASCII escaped: a line break or a terminal's escape in a path stays in it."""
    forged = "/x%0Aaccess:%20203.0.113.9%20POST%20/api/rooms%20201%200.1ms%1B%5B31m%E2%80%AE"
    assert requests.get(direct.url + forged, timeout=5).status_code == 404  # no such page
    time.sleep(0.3)
    log = direct.output()
    assert "access: 127.0.0.1 GET /x%0Aaccess:%20203.0.113.9%20POST" in log
    assert "\naccess: 203.0.113.9" not in log and "\x1b" not in log and "\u202e" not in log


def test_health_checks_answered_200_are_not_logged(direct):
    """A balancer checks every process every second: its lines would bury everyone else's."""
    for _ in range(3):
        assert requests.get(direct.url + "/api/health", timeout=5).ok
    assert requests.get(direct.url + "/api/games", timeout=5).ok
    time.sleep(0.3)
    log = direct.output()
    assert "access: 127.0.0.1 GET /api/games 200" in log
    assert "GET /api/health" not in log


def test_an_error_no_handler_caught_is_a_json_500_and_logged(caplog):
    def broken(environ, start_response):
        raise KeyError("Session is disconnected")

    answers = []
    body = Edge(broken, log=False)({"REQUEST_METHOD": "POST", "PATH_INFO": "/socket.io/"},
                                   lambda status, headers, exc_info=None: answers.append(status))
    assert answers == ["500 Internal Server Error"]
    error = json.loads(b"".join(body))["error"]
    assert error == {"code": "internal", "message": "Something went wrong on the server"}
    assert "POST /socket.io/ failed" in caplog.text and "Session is disconnected" in caplog.text
