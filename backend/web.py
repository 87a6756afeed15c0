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


@web.get("/")
@web.get("/<path:path>")
def spa(path: str = "") -> ResponseReturnValue:
    """A file of the built client, index.html for client-side routes, or a note that it is not
    built."""
    if path.startswith(("api/", "socket.io")):
        raise LoungeError("not_found", "There is no such page")
    dist = dist_folder()
    index = dist / "index.html"
    if not index.is_file():
        return NOT_BUILT, 200, {"Content-Type": "text/html; charset=utf-8"}
    if path and (dist / path).is_file():
        return send_from_directory(dist, path)  # refuses paths that escape the folder
    return send_from_directory(dist, "index.html")
