"""Databases for the durable-store tests: a fresh SQLite file, and a schema of its own in the
PostgreSQL database ``test`` on 127.0.0.1:5432 (shared, so each test drops its schema after)."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import OperationalError

from tests.postgres import Schema

from .helpers import close_stores


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'lounge.db'}"


@pytest.fixture
def postgres_url():
    """A URL whose tables all live in a new schema, dropped at the end."""
    try:
        schema = Schema()
    except OperationalError as exc:
        pytest.skip(f"PostgreSQL is not reachable on 127.0.0.1:5432 ({exc.orig})")
    yield schema.url
    schema.drop()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request) -> str:
    """Each test that takes it runs once on SQLite and once on PostgreSQL."""
    return request.getfixturevalue(f"{request.param}_url")


@pytest.fixture(autouse=True)
def _close_stores():
    yield
    close_stores()
