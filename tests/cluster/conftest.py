"""Cluster tests: lounge processes behind a real HAProxy (``tests/balancer.py``)."""

from __future__ import annotations

import secrets

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from backend.balancer import haproxy_path

POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


@pytest.fixture(autouse=True)
def _haproxy():
    if haproxy_path() is None:
        pytest.skip("HAProxy is not installed (make haproxy)")


@pytest.fixture
def postgres_url():
    """A PostgreSQL URL whose tables all live in a new schema, dropped at the end."""
    schema = f"lounge_test_{secrets.token_hex(4)}"
    admin = create_engine(POSTGRES.replace("postgresql:", "postgresql+psycopg:"),
                          isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except OperationalError as exc:
        admin.dispose()
        pytest.skip(f"PostgreSQL is not reachable on 127.0.0.1:5432 ({exc.orig})")
    yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
    with admin.connect() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()
