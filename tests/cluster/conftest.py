"""Cluster tests run against the machine's Redis and PostgreSQL (``.ci/run`` starts them)."""

from __future__ import annotations

from contextlib import ExitStack

import pytest
import redis
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from backend.balancer import haproxy_path
from tests.postgres import POSTGRES, Schema

from .nodes import REDIS, Cluster, behind_balancer


@pytest.fixture(scope="session")
def services() -> None:
    """Skip (with the reason) when Redis or PostgreSQL is not running."""
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis is not reachable at {REDIS} ({exc})")
    engine = create_engine(POSTGRES)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except OperationalError as exc:
        pytest.skip(f"PostgreSQL is not reachable on 127.0.0.1:5432 ({exc.orig})")
    finally:
        engine.dispose()


@pytest.fixture
def cluster_of(services):
    """A factory of clusters, all stopped at the end; their output must hold no traceback
    unless a test says it may (``cluster.tracebacks_allowed = True``)."""
    made: list[Cluster] = []

    def make(count: int = 2, **env: object) -> Cluster:
        cluster = Cluster(count, **env)
        made.append(cluster)
        return cluster

    yield make
    for cluster in made:
        outputs = cluster.stop()
        if not getattr(cluster, "tracebacks_allowed", False):
            for output in outputs:
                assert "Traceback" not in output, output[-4000:]


@pytest.fixture
def haproxy() -> None:
    """Skip when HAProxy is not installed (``make haproxy`` installs it)."""
    if haproxy_path() is None:
        pytest.skip("HAProxy is not installed (make haproxy)")


@pytest.fixture
def postgres_url():
    """A PostgreSQL URL whose tables all live in a new schema, dropped at the end."""
    schema = Schema()
    yield schema.url
    schema.drop()


@pytest.fixture
def balanced_of(services, haproxy):
    """A factory of clusters behind the balancer of ``lounge cluster``
    (:func:`~tests.cluster.nodes.behind_balancer`): ``make(count, **env)`` ->
    ``(balanced, schema)``. All are killed at the end, and their output must hold no
    traceback."""
    with ExitStack() as stack:
        yield lambda count=2, **env: stack.enter_context(behind_balancer(count, **env))
