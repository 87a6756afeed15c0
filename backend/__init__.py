"""The lounge's game server: ``create_app(config)`` builds the Flask + Socket.IO app.

The import is lazy so that ``lounge serve`` can monkey-patch for eventlet or gevent before Flask
and Socket.IO are loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

    from .config import Config


def create_app(config: Config | None = None) -> Flask:
    """A new lounge app (see :func:`backend.app.create_app`)."""
    from .app import create_app as build

    return build(config)


__all__ = ["create_app"]
