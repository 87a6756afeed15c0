"""Malformed JSON at any depth and absurd numbers, in REST bodies, query strings and Socket.IO
payloads: always a ``bad_request`` answer, never a 500 nor a traceback in the log."""

from __future__ import annotations

import json
import re

import pytest
import requests
import websocket

from tests.live_server import Server
from tests.server.harness import new_session

from .helpers import HonestTable, median_ms

HUGE = "1" + "0" * 5000  # a 5,000-digit number
ROOM = '{"game": "tic-tac-toe", "name": "Ada", "public": false}'


def nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


def nested_objects(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


BODIES = [
    *("[" * depth for depth in (10, 1_000, 1_025, 5_000, 60_000)),  # never closed
    *(nested(depth) for depth in (100, 1_000, 1_100, 30_000)),
    *(nested_objects(depth) for depth in (1_000, 5_000, 10_000)),
    *(ROOM.replace("false", nested(depth)) for depth in (300, 3000)),
    ROOM.replace('"Ada"', HUGE), ROOM.replace("false", HUGE),
    '{"game": "tic-tac-toe", "name": "Ada", "public": 1e999}',
    '{"game": "tic-tac-toe", "name": "Ada", "public": -1e999}',
    '{"game": "tic-tac-toe", "name": "Ada", "public": 123456789012345678901234567890}',
    '{"game": "tic-tac-toe", "name": "Ada", "public": NaN}',
    '{"game": "tic-tac-toe", "name": "Ada", "public": Infinity}',
    '{"game": "tic-tac-toe", "name": "Ada", "public": 0x10}',
    '{"game": "tic-tac-toe", "name": "Ada"', "", "null", '"a string"', "[]", "\ufeff{}",
]
LIMITS = [HUGE, "9" * 5000, "-1", "0", "101", "+5", " 5", "5 ", "1e3", "²", "٣", "0x10", "",
          "5.0", nested(50)]


@pytest.fixture(scope="module")
def server():
    srv = Server(SOCKET_RATE_PER_SECOND=100000, SOCKET_RATE_BURST=100000,
                 REST_RATE_PER_MINUTE=1000000, ACCESS_LOG=0)
    yield srv
    output = srv.stop()
    assert "Traceback" not in output, output[-3000:]
    assert "unhandled error" not in output and "failed" not in output, output[-3000:]


def is_bad_request(answer: requests.Response) -> bool:
    return answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request"


def test_malformed_or_absurd_rest_bodies_are_bad_requests(server):
    token = new_session(server.url)["token"]
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    answers = [requests.post(f"{server.url}/api/rooms", data=body.encode(), headers=headers,
                             timeout=10) for body in BODIES]
    wrong = [(body[:40], a.status_code, a.text[:80]) for body, a in zip(BODIES, answers,
                                                                        strict=True)
             if not is_bad_request(a)]
    assert not wrong
    # Invalid UTF-8 too.
    assert is_bad_request(requests.post(f"{server.url}/api/rooms", data=b'{"name": "\xff\xfe"}',
                                        headers=headers, timeout=10))
    # The server still works.
    ok = requests.post(f"{server.url}/api/rooms", headers=headers, timeout=10,
                       json={"game": "tic-tac-toe", "name": "Ada", "public": False})
    assert ok.status_code == 201
    # A chunked body (no Content-Length) is read as any other: it was taken for no body at all.
    headers["Authorization"] = f"Bearer {new_session(server.url)['token']}"  # one room each
    chunked = requests.post(f"{server.url}/api/rooms", headers=headers, timeout=10,
                            data=iter([b'{"game": "tic-tac-', b'toe", "name": "Chunky"}']))
    assert chunked.status_code == 201 and chunked.json()["seats"][0]["name"] == "Chunky"
    too_big = requests.post(f"{server.url}/api/rooms", headers=headers, timeout=10,
                            data=iter([b'{"game": "tic-tac-toe", "name": "', b"x" * 70_000]))
    assert too_big.status_code == 413 and too_big.json()["error"]["code"] == "payload_too_large"


def test_api_without_a_slash_is_a_json_404_not_the_page(server):
    for path in ("/api", "/api/", "/api/nothing"):
        answer = requests.get(f"{server.url}{path}", timeout=10)
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"


def test_absurd_numbers_in_query_strings_are_bad_requests(server):
    room = "0" * 32
    for limit in LIMITS:
        answer = requests.get(f"{server.url}/api/matches", params={"room": room, "limit": limit},
                              timeout=10)
        assert is_bad_request(answer), (limit[:40], answer.status_code, answer.text[:80])
    for since in [s for s in LIMITS if s not in ("0", "101")]:  # those two are times
        answer = requests.get(f"{server.url}/api/matches", params={"room": room, "since": since},
                              timeout=10)
        assert is_bad_request(answer), (since[:40], answer.status_code, answer.text[:80])
    answer = requests.get(f"{server.url}/api/matches", params={"room": room, "limit": "7",
                                                               "since": "101"}, timeout=10)
    assert answer.status_code == 200 and answer.json() == {"matches": []}


def test_an_address_too_long_is_a_json_error_and_a_long_one_is_served(server):
    """Past 8,192 characters an address is answered 414 with a JSON error (eventlet's own answer
    had an empty body), whichever route it names, and counted as sent (a percent-escape is three
    characters, though the path decodes to one); one just under the bound is served, and a path
    with a part too long for a file name is a page or a 404 (it was a 500 with a traceback)."""
    pad = "x" * 9_000
    for path in (f"/api/matches?room={pad}", f"/{pad}", f"/api/games?{pad}",
                 f"/socket.io/?EIO=4&transport=polling&t={pad}", "/" + "%20" * 3_000):
        answer = requests.get(f"{server.url}{path}", timeout=10)
        assert answer.status_code == 414, (path[:40], answer.status_code)
        assert answer.json() == {"error": {"code": "bad_request", "message":
                                           "That address is too long: at most 8,192 characters"}}
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
    answer = requests.get(f"{server.url}/api/games?{'x' * 8_000}", timeout=10)
    assert answer.status_code == 200 and answer.json()["games"]
    for path in ("/" + "A" * 3_000, "/r/" + "B" * 300 + "/x", "/assets/" + "c" * 300 + ".js"):
        answer = requests.get(f"{server.url}{path}", timeout=10)  # a name too long for a file
        assert answer.status_code in (200, 404), (path[:40], answer.status_code)


def test_headers_too_long_are_a_json_error(server):
    """A header line past 8 KiB, or 64 KiB of headers, is answered 431 with a JSON error and
    the security headers (eventlet's own answer was an empty 400), before any route runs."""
    for headers in ({"Authorization": "Bearer " + "a" * 9_000},
                    {f"X-Pad-{i}": "p" * 4_000 for i in range(20)}):
        answer = requests.post(f"{server.url}/api/rooms", data=ROOM, headers=headers,
                               timeout=10)
        assert answer.status_code == 431, answer.status_code
        assert answer.json()["error"] == {"code": "bad_request", "message":
                                          "That request's headers are too long: at most 8 KiB "
                                          "a line"}
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert requests.get(f"{server.url}/api/games", timeout=10).ok


ACK = re.compile(r"^43(\d+)(\[.*\])$", re.S)


def socket_cases() -> list[str]:
    """Socket.IO event packets (after the Engine.IO message type) with an ack id to answer."""
    chats = [
        *(f'["chat",{{"text":{nested(d, chr(34) + "hi" + chr(34))}}}]'
          for d in (10, 200, 300, 1_000, 1_023, 1_024, 1_025, 5_000)),
        *(f'["chat",{nested_objects(d)}]' for d in (200, 300, 1_000, 2_000)),
        '["chat",' + "[" * 3000, '["chat",{"text":"hi"', '["chat",{"text":"hi"}]]]',
        f'["move",{{"move":"place","args":[{HUGE}]}}]',
        '["move",{"move":"place","args":[1e999]}]', '["move",{"move":"place","args":[-1e999]}]',
        '["move",{"move":"place","args":[123456789012345678901234567890]}]',
        '["move",{"move":"place","args":[NaN]}]', '["remove_seat",{"seat":1e400}]',
        '["ready",{"ready":tru}]', '["join",{"room":"\\ud800"}]', "[", "[]", "[1]", "{}",
        '"chat"', "null",
    ]
    return chats


def test_malformed_or_absurd_socket_payloads_are_bad_requests(server):
    table = HonestTable(server.url)
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{server.port}/socket.io/?EIO=4&transport=websocket", timeout=5)
    cases = socket_cases()
    answered: dict[int, dict] = {}
    try:
        assert ws.recv().startswith("0{")
        ws.send("40" + json.dumps({"token": new_session(server.url)["token"]}))
        assert ws.recv().startswith("40{")
        for ack_id, case in enumerate(cases, start=1):
            ws.send(f"42{ack_id}{case}")
            while ack_id not in answered:
                message = ws.recv()
                if message == "2":
                    ws.send("3")
                match = ACK.match(message)
                if match:
                    answered[int(match.group(1))] = json.loads(match.group(2))[0]
            table.move()
        # An ack id too long to be one is still answered, with the packet refused.
        ws.send("42" + "7" * 5000 + '["chat",{"text":"hi"}]')
        long_id = ACK.match(ws.recv())
        assert long_id and json.loads(long_id.group(2))[0]["error"]["code"] == "bad_request"
    finally:
        ws.close()
        table.close()
    wrong = [(case[:50], answered[i]) for i, case in enumerate(cases, start=1)
             if answered[i]["ok"] or answered[i]["error"]["code"] != "bad_request"]
    assert not wrong
    print(f"\n{len(cases)} malformed socket payloads, each answered bad_request; honest move "
          f"median {median_ms(table.latencies):.1f} ms meanwhile")
    assert median_ms(table.latencies) < 50
