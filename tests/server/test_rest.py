"""The REST API of the real server."""

from __future__ import annotations

import requests

from .harness import TIMEOUT, create_room, new_session, start_game


def get(url: str, path: str, **kwargs) -> requests.Response:
    return requests.get(f"{url}{path}", timeout=TIMEOUT, **kwargs)


def post(url: str, path: str, **kwargs) -> requests.Response:
    return requests.post(f"{url}{path}", timeout=TIMEOUT, **kwargs)


def bearer(session: dict) -> dict:
    return {"Authorization": f"Bearer {session['token']}"}


def test_a_session_is_a_public_uuid_and_a_signed_token(url):
    one, two = new_session(url), new_session(url)
    assert one["user_id"] != two["user_id"] and len(one["user_id"]) == 36
    assert one["user_id"] not in one["token"].split(".")[-1]


def test_games_lists_every_game_with_rules_and_bot_levels(url):
    body = get(url, "/api/games").json()
    slugs = {g["slug"] for g in body["games"]}
    assert "tic-tac-toe" in slugs
    ttt = next(g for g in body["games"] if g["slug"] == "tic-tac-toe")
    assert ttt["min_players"] == ttt["max_players"] == 2 and ttt["rules"].startswith("#")
    assert {"easy", "normal"} <= set(body["bot_levels"])


def test_games_say_everything_generic_about_each_game(url):
    games = {g["slug"]: g for g in get(url, "/api/games").json()["games"]}
    poker = games["poker99"]
    assert poker["summary"] and poker["private"] == ["hands"] and poker["undoable"] is False
    assert (poker["min_players"], poker["max_players"], poker["real_time"]) == (2, 6, False)
    play = poker["moves"][0]
    assert play["name"] == "play" and play["args"] == ["card", "choice"]
    assert play["min_args"] == 1 and "play {card:card}" in play["words"]
    assert play["labels"]["+"] == "(adding)"
    assert games["tic-tac-toe"]["undoable"] is True and games["slapjack"]["real_time"] is True
    assert [m["name"] for m in games["nine-locks"]["moves"]] == ["play", "pick_up", "unlock",
                                                                  "key"]


def test_creating_a_room_needs_a_valid_token(url):
    for headers in ({}, {"Authorization": "Bearer nonsense"}, {"Authorization": "Basic x"}):
        response = post(url, "/api/rooms", json={"game": "tic-tac-toe", "name": "A"},
                        headers=headers)
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "unauthorized"


def test_a_room_is_keyed_by_its_host_and_found_by_code_in_any_case(url):
    host = new_session(url)
    room = create_room(url, host["token"], "tic-tac-toe", name="  Ada ", public=True)
    assert room["id"] == room["host"] == host["user_id"]
    assert len(room["code"]) == 6 and not set(room["code"]) & set("01OIL")
    assert room["status"] == "waiting" and room["seats"][0]["name"] == "Ada"
    assert get(url, f"/api/rooms/{room['code'].lower()}").json()["id"] == room["id"]
    assert get(url, f"/api/rooms/{room['id']}").json()["code"] == room["code"]
    assert room["id"] in {r["id"] for r in get(url, "/api/rooms").json()["rooms"]}


def test_a_host_has_one_open_room_at_a_time(url):
    host = new_session(url)
    create_room(url, host["token"], "tic-tac-toe")
    again = post(url, "/api/rooms", json={"game": "tic-tac-toe", "name": "A"},
                 headers=bearer(host))
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_hosting"


def test_private_rooms_are_not_listed(url):
    host = new_session(url)
    room = create_room(url, host["token"], "tic-tac-toe", public=False)
    listed = get(url, "/api/rooms").json()
    assert room["id"] not in {r["id"] for r in listed["rooms"] + listed["playing"]}


def test_a_public_room_is_listed_to_join_then_to_watch_then_not_at_all(players, room_of, url):
    host, guest = players(2)
    room = room_of(host, public=True)

    def listed() -> tuple[list[str], list[str]]:
        rooms = get(url, "/api/rooms").json()
        return [r["code"] for r in rooms["rooms"]], [r["code"] for r in rooms["playing"]]

    waiting, playing = listed()
    assert room["code"] in waiting and room["code"] not in playing
    start_game(room, host, [guest])
    waiting, playing = listed()
    assert room["code"] not in waiting and room["code"] in playing
    host.ok("leave")
    waiting, playing = listed()
    assert room["code"] not in waiting + playing


def test_bad_room_requests_get_clear_errors(url):
    headers = bearer(new_session(url))
    bad_bodies = [{"game": "chess", "name": "A"}, {"game": "tic-tac-toe"},
                  {"game": "tic-tac-toe", "name": "x" * 33}, {"game": "tic-tac-toe", "name": "  "},
                  {"game": "tic-tac-toe", "name": "A", "public": "yes"},
                  {"game": "tic-tac-toe", "name": "A", "host": "someone"}, [1, 2], "text"]
    for body in bad_bodies:
        response = post(url, "/api/rooms", json=body, headers=headers)
        assert response.status_code == 400, body
        assert response.json()["error"]["code"] == "bad_request"
        assert response.json()["error"]["message"]
    raw = post(url, "/api/rooms", data="{not json", headers={**headers,
                                                             "Content-Type": "application/json"})
    assert raw.status_code == 400


def test_an_error_names_a_few_problems_and_counts_the_rest(url):
    """Unknown fields are named in the error; a body of thousands, or a very long name, gives
    a short sentence all the same."""
    headers = bearer(new_session(url))
    many = {"game": "tic-tac-toe", "name": "A", **{f"k{i}": 1 for i in range(2000)}}
    message = post(url, "/api/rooms", json=many, headers=headers).json()["error"]["message"]
    assert len(message) < 200 and message.endswith("Unknown field.; and 1995 more"), message
    long = {"game": "tic-tac-toe", "name": "A", "y" * 3000: 1}
    message = post(url, "/api/rooms", json=long, headers=headers).json()["error"]["message"]
    assert message == "y" * 40 + "…: Unknown field."


def test_unknown_rooms_paths_and_methods_are_json_errors(url):
    assert get(url, "/api/rooms/ZZZZZZ").json()["error"]["code"] == "not_found"
    assert get(url, "/api/nothing").status_code == 404
    response = requests.delete(f"{url}/api/games", timeout=TIMEOUT)
    assert response.status_code == 405 and response.headers["Allow"] == "GET"
    assert response.json()["error"] == {"code": "method_not_allowed",
                                        "message": "/api/games takes GET, not DELETE"}
    response = requests.put(f"{url}/api/session", timeout=TIMEOUT)
    assert response.status_code == 405 and response.headers["Allow"] == "POST"
    response = requests.post(f"{url}/", timeout=TIMEOUT)  # Werkzeug's own 405 keeps its Allow
    assert response.status_code == 405 and "GET" in response.headers["Allow"].split(", ")
    assert response.json()["error"]["code"] == "method_not_allowed"
    response = requests.post(f"{url}/api/nothing", timeout=TIMEOUT)
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_health_and_openapi(url):
    assert get(url, "/api/health").json()["status"] == "ok"
    doc = get(url, "/api/openapi.json").json()
    assert doc["openapi"].startswith("3.") and "/api/rooms" in doc["paths"]


def test_the_spa_route_answers_html_for_client_side_paths(url):
    for path in ("/", "/room/ABCDEF"):
        response = get(url, path)
        assert response.status_code == 200 and "text/html" in response.headers["Content-Type"]


def test_cors_allows_the_configured_dev_origin_only(url):
    ok = get(url, "/api/games", headers={"Origin": "http://localhost:5173"})
    assert ok.headers.get("Access-Control-Allow-Origin") == "http://localhost:5173"
    other = get(url, "/api/games", headers={"Origin": "http://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
