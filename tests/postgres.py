"""A schema of its own in the local PostgreSQL (127.0.0.1:5432, database ``test``), for every
suite whose tests need PostgreSQL: tables never collide between tests or runs."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import create_engine, text

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


class Schema:
    """A new schema, dropped by :meth:`drop`. ``url`` keeps every table in it. Raises
    ``sqlalchemy.exc.OperationalError`` when PostgreSQL is not reachable."""

    def __init__(self, prefix: str = "lounge_test") -> None:
        self.name = f"{prefix}_{secrets.token_hex(4)}"
        self.admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
        try:
            with self.admin.connect() as conn:
                conn.execute(text(f'CREATE SCHEMA "{self.name}"'))
        except Exception:
            self.admin.dispose()
            raise
        self.url = f"{POSTGRES}?options=-csearch_path%3D{self.name}"

    def query(self, sql: str, **params: Any) -> list[Any]:
        """Rows of a query run in the schema."""
        with self.admin.connect() as conn:
            conn.execute(text(f'SET search_path TO "{self.name}"'))
            return list(conn.execute(text(sql), params))

    def drop(self) -> None:
        """Drop the schema and everything in it."""
        with self.admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{self.name}" CASCADE'))
        self.admin.dispose()
