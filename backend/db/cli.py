"""``lounge db``: the database's schema (upgrade, downgrade, current revision) and contents.

The database is the one ``DATABASE_URL`` names, as for ``lounge serve`` (which upgrades it at
start by itself).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from sqlalchemy import Engine

from .database import (
    MEMORY,
    current_revision,
    database_url,
    downgrade,
    head_revision,
    make_engine,
    upgrade,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("upgrade", "downgrade", "current", "status"),
                        help="upgrade to the latest schema (or --revision), downgrade to "
                             "--revision, show the current revision, or count the rows")
    parser.add_argument("--revision", default=None,
                        help="target revision (upgrade: default head; downgrade: required, "
                             "'base' removes every table)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""),
                        help="default: DATABASE_URL, or the SQLite file of the instance folder")


def instance_path() -> str:
    """The instance folder the server uses (Flask's, for the app module)."""
    from flask import Flask

    return Flask("backend.app").instance_path


def run(args: argparse.Namespace) -> int:
    try:
        url = database_url(args.database_url, instance_path())
    except ValueError as exc:
        print(exc)
        return 2
    if url == MEMORY:
        print("DATABASE_URL=memory keeps no database: nothing to do")
        return 0
    engine = make_engine(url)
    print(f"database: {engine.url.render_as_string(hide_password=True)}")
    if args.action == "upgrade":
        return _migrate(upgrade, engine, args.revision or "head")
    if args.action == "downgrade":
        if not args.revision:
            print("say which revision to go down to: --revision REV (or base)")
            return 2
        return _migrate(downgrade, engine, args.revision)
    if args.action == "status":
        return _status(engine)
    _revision(engine)
    return 0


def _migrate(step: Callable[[Engine, str], None], engine: Engine, revision: str) -> int:
    """Upgrade or downgrade to ``revision``, then say where the schema is."""
    from alembic.util import CommandError

    try:
        step(engine, revision)
    except CommandError as exc:  # an unknown revision, say: Alembic's own words suffice
        print(f"lounge db: {exc}", file=sys.stderr)
        return 2
    _revision(engine)
    return 0


def _revision(engine: Engine) -> None:
    print(f"revision: {current_revision(engine) or 'none'} (latest: {head_revision(engine)})")


def _status(engine: Engine) -> int:
    from .queries import count_rows

    revision = current_revision(engine)
    print(f"revision: {revision or 'none'} (latest: {head_revision(engine)})")
    if revision is None:
        return 1
    with engine.connect() as connection:
        for table, rows in count_rows(connection).items():
            print(f"{table:<14} {rows}")
    return 0
