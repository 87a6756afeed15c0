"""The built single-page app served by Flask, and the app factory's settings."""

from __future__ import annotations

from backend import create_app
from backend.config import Config


def app_with_dist(tmp_path, build: bool):
    dist = tmp_path / "dist"
    if build:
        (dist / "assets").mkdir(parents=True)
        (dist / "index.html").write_text("<html>lounge spa</html>")
        (dist / "assets" / "app.js").write_text("console.log('hi')")
    return create_app(Config(ASYNC_MODE="threading", FRONTEND_DIST=str(dist),
                             DATABASE_URL="memory"))  # never the real instance database


def test_the_spa_serves_its_files_and_index_for_client_routes(tmp_path):
    client = app_with_dist(tmp_path, build=True).test_client()
    assert b"lounge spa" in client.get("/").data
    assert b"lounge spa" in client.get("/room/ABCDEF").data
    assert client.get("/assets/app.js").data == b"console.log('hi')"
    (tmp_path / "secret.txt").write_text("TOPSECRET")
    for path in ("/../secret.txt", "/%2e%2e/secret.txt", "/assets/../../secret.txt"):
        assert b"TOPSECRET" not in client.get(path).data
    assert b"lounge spa" not in client.get("/api/unknown").data
    assert client.get("/api/unknown").get_json()["error"]["code"] == "not_found"


def test_the_build_is_cached_by_its_hashes_and_a_missing_asset_is_not_the_page(tmp_path):
    """After a deploy a browser must load the new index.html, which names the new assets;
    an old page asking for an asset that is gone gets a 404, not HTML in place of a script."""
    client = app_with_dist(tmp_path, build=True).test_client()
    for path in ("/", "/r/ABCDEF"):
        page = client.get(path)
        assert page.status_code == 200 and page.headers["Cache-Control"] == "no-cache"
    asset = client.get("/assets/app.js")
    assert asset.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    gone = client.get("/assets/index-0ld.js")
    assert gone.status_code == 404 and b"lounge spa" not in gone.data
    assert gone.get_json()["error"] == {
        "code": "not_found", "message": "There is no file /assets/index-0ld.js: reload the page"}


def test_without_a_build_the_root_says_the_frontend_is_not_built(tmp_path):
    response = app_with_dist(tmp_path, build=False).test_client().get("/")
    assert response.status_code == 200 and b"not built" in response.data


def test_the_debug_match_endpoint_is_off_by_default(tmp_path):
    client = app_with_dist(tmp_path, build=False).test_client()
    token = client.post("/api/session").get_json()["token"]
    room = client.post("/api/rooms", json={"game": "tic-tac-toe", "name": "A"},
                       headers={"Authorization": f"Bearer {token}"}).get_json()
    assert client.get(f"/api/debug/rooms/{room['id']}/match").status_code == 404
