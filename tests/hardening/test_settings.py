"""Settings that make a deployment unsafe are refused; the dev server's origins are opt-in."""

from __future__ import annotations

import socket
import subprocess
from dataclasses import fields

import pytest
import requests

from backend.config import NOT_NEGATIVE, POSITIVE, Config, from_env
from tests.live_server import LOUNGE, REPO, Server, free_port


def serve(environ: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([*LOUNGE, "serve", "--port", str(free_port())], env=environ, cwd=REPO,
                          capture_output=True, text=True, timeout=30)


def test_a_short_secret_key_refuses_to_start_with_a_clear_message(tmp_path):
    environ = {"PATH": "/usr/bin:/bin", "DATABASE_URL": f"sqlite:///{tmp_path}/lounge.db",
               "SECRET_KEY": "x" * 31}
    done = serve(environ)
    assert done.returncode == 2
    assert "SECRET_KEY is too short (31 bytes)" in done.stderr
    assert "at least 32 random bytes" in done.stderr and "Traceback" not in done.stderr
    # Bytes, not characters: 11 three-byte characters are 33 bytes.
    assert Config(SECRET_KEY="€" * 11).SECRET_KEY == "€" * 11
    with pytest.raises(ValueError, match="too short"):
        from_env({"SECRET_KEY": "password"})


@pytest.mark.parametrize("url", ["sqlite:///{tmp}/no-such-folder/lounge.db",
                                 "postgresql://postgres@127.0.0.1:{port}/test"])
def test_a_database_that_cannot_be_used_refuses_to_start_in_one_line(tmp_path, url):
    """A missing SQLite folder, or a PostgreSQL that is not running: one line naming the
    cause and the setting, no traceback."""
    url = url.format(tmp=tmp_path, port=free_port())
    done = serve({"PATH": "/usr/bin:/bin", "DATABASE_URL": url, "SECRET_KEY": "k" * 32})
    assert done.returncode == 1
    assert "lounge serve: cannot use the database (" in done.stderr, done.stderr
    assert "Check that it is running and that DATABASE_URL names it." in done.stderr
    assert "Traceback" not in done.stderr and "Lounge serving" not in done.stdout


def test_a_port_in_use_refuses_to_start_before_anything_else_starts(tmp_path):
    """Said in one line, and before the app is built: no database is opened (in a cluster, no
    rooms are taken by a process that cannot serve them)."""
    taken = socket.create_server(("127.0.0.1", 0))
    port = taken.getsockname()[1]
    try:
        done = subprocess.run([*LOUNGE, "serve", "--port", str(port)], cwd=REPO, timeout=30,
                              capture_output=True, text=True,
                              env={"PATH": "/usr/bin:/bin", "SECRET_KEY": "k" * 32,
                                   "DATABASE_URL": f"sqlite:///{tmp_path}/lounge.db"})
    finally:
        taken.close()
    assert done.returncode == 2
    assert f"lounge serve: cannot listen on 127.0.0.1:{port} (Address already in use): " \
           "choose another --port (or PORT)" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "lounge.db").exists()


def test_a_redis_url_that_is_not_redis_is_refused():
    with pytest.raises(ValueError, match="REDIS_URL must start with redis:// or rediss://"):
        from_env({"REDIS_URL": "http://127.0.0.1:6379",
                  "DATABASE_URL": "postgresql://postgres@127.0.0.1:5432/test"})
    assert from_env({"REDIS_URL": "rediss://:pw@127.0.0.1:6380/0",
                     "DATABASE_URL": "postgresql://postgres@127.0.0.1:5432/test"}).clustered


def test_an_unset_secret_key_is_random_with_a_warning():
    srv = Server(SECRET_KEY="")
    try:
        assert requests.post(f"{srv.url}/api/session", timeout=5).status_code == 201
    finally:
        output = srv.stop()
    assert "SECRET_KEY is not set: using a random key" in output
    assert len(Config().SECRET_KEY.encode()) >= 32


def test_the_vite_dev_servers_origins_are_allowed_only_when_asked():
    assert Config().CORS_ORIGINS == () and from_env({}).CORS_ORIGINS == ()
    srv = Server()
    try:
        for origin in ("http://localhost:5173", "http://127.0.0.1:5173"):
            answer = requests.get(f"{srv.url}/api/games", headers={"Origin": origin}, timeout=5)
            assert "Access-Control-Allow-Origin" not in answer.headers
            handshake = requests.get(f"{srv.url}/socket.io/?EIO=4&transport=polling",
                                     headers={"Origin": origin}, timeout=5)
            assert handshake.status_code == 400
    finally:
        srv.stop()


@pytest.mark.parametrize("name", NOT_NEGATIVE)
def test_a_negative_duration_or_count_is_refused_by_name(name):
    with pytest.raises(ValueError, match=f"^{name} cannot be negative$"):
        from_env({name: "-1"})
    from_env({name: "0"})  # none of them needs more than nothing


@pytest.mark.parametrize("name", POSITIVE)
def test_a_limit_or_period_of_zero_is_refused_by_name(name):
    with pytest.raises(ValueError, match=f"^{name} must be positive$"):
        from_env({name: "0"})


@pytest.mark.parametrize(("environ", "message"), [
    ({"PORT": "70000"}, "PORT must be between 1 and 65535"),
    ({"ASYNC_MODE": "asyncio"}, "ASYNC_MODE must be one of eventlet, gevent, threading"),
    ({"TURN_TIMES": "30,0"}, "TURN_TIMES must be whole numbers of seconds"),
    ({"TURN_TIMES": "thirty"}, "TURN_TIMES must be whole numbers of seconds"),
    ({"FORWARDED_ALLOW_IPS": "10.0.0.0/8,proxy"}, "FORWARDED_ALLOW_IPS: 'proxy' is not an address"),
    ({"CLUSTER_NAME": "a lounge"}, "CLUSTER_NAME may hold only letters, digits, - and _"),
    ({"LEASE_SECONDS": "0"}, "LEASE_SECONDS must be at least 1"),
])
def test_other_bad_settings_are_refused_with_what_is_wrong(environ, message):
    with pytest.raises(ValueError, match=message):
        from_env(environ)


def test_every_setting_is_in_the_protocols_table_of_settings():
    """docs/protocol.md's "Settings" is the full list that docs/deployment.md points to."""
    text = (REPO / "docs" / "protocol.md").read_text()
    table = text.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    missing = [f.name for f in fields(Config) if f"`{f.name}`" not in table]
    assert missing == []
