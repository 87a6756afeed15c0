"""Databases for the durable-store tests: a fresh SQLite file, and a schema of its own in the
PostgreSQL database ``test`` on 127.0.0.1:5432 (shared, so each test drops its schema after)."""

from __future__ import annotations

import secrets

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from .helpers import close_stores

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def postgres_schema_url(schema: str) -> str:
    return f"{POSTGRES}?options=-csearch_path%3D{schema}"


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'lounge.db'}"


@pytest.fixture
def postgres_url():
    """A URL whose tables all live in a new schema, dropped at the end."""
    schema = f"lounge_test_{secrets.token_hex(4)}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except OperationalError as exc:
        admin.dispose()
        pytest.skip(f"PostgreSQL is not reachable on 127.0.0.1:5432 ({exc.orig})")
    yield postgres_schema_url(schema)
    with admin.connect() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request) -> str:
    """Each test that takes it runs once on SQLite and once on PostgreSQL."""
    return request.getfixturevalue(f"{request.param}_url")


@pytest.fixture(autouse=True)
def _close_stores():
    yield
    close_stores()
