"""Serving the built single-page app: its files, and index.html for every client-side route."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, current_app, send_from_directory
from flask.typing import ResponseReturnValue

from .errors import LoungeError

web = Blueprint("web", __name__)

NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Gaming Lounge</title></head>
<body><h1>Gaming Lounge</h1>
<p>The server is running, but the web client is not built yet.
Build it with <code>npm run build</code> in <code>frontend/</code>.</p>
<p>The API is at <a href="/api/games">/api/games</a>.</p></body></html>
"""


def dist_folder() -> Path:
    """Where the built web client is."""
    return Path(current_app.extensions["lounge"].config.FRONTEND_DIST)


ASSETS = "assets/"  # Vite's output: every name holds its content's hash, so it never changes
YEAR = 365 * 24 * 3600


@web.get("/")
@web.get("/<path:path>")
def spa(path: str = "") -> ResponseReturnValue:
    """A file of the built client, index.html for client-side routes, or a note that it is not
    built. index.html is checked again at every load, so that after a deploy a browser asks for
    the new build's assets; those are kept for a year. An asset that is not there is a 404 (a
    page from an older build), never index.html in its place."""
    if path == "api" or path.startswith(("api/", "socket.io")):
        raise LoungeError("not_found", "There is no such page")
    dist = dist_folder()
    if not (dist / "index.html").is_file():
        return NOT_BUILT, 200, {"Content-Type": "text/html; charset=utf-8"}
    if path and _is_file(dist / path):
        kept = path.startswith(ASSETS)
        # send_from_directory refuses paths that escape the folder
        response = send_from_directory(dist, path, max_age=YEAR if kept else None)
        if kept:
            response.cache_control.immutable = True
        return response
    if path.startswith(ASSETS):
        raise LoungeError("not_found", f"There is no file /{path[:80]}: reload the page")
    response = send_from_directory(dist, "index.html")
    response.cache_control.no_cache = True
    return response


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False for a name the file system refuses (a part longer
    than 255 bytes), which ``Path.is_file`` raises for."""
    try:
        return path.is_file()
    except OSError:
        return False
