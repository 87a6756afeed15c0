"""A deploy rehearsal: the Procfile's own commands, behind Debian's nginx terminating TLS with a
self-signed certificate, as a Heroku-like router does."""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
import urllib3
from sqlalchemy.exc import OperationalError

from tests.live_server import BIN, REPO, free_port
from tests.postgres import Schema

NGINX = Path(os.environ.get("NGINX", "/usr/sbin/nginx"))
POSTGRES = "postgres://postgres@127.0.0.1:5432/test"  # Heroku's spelling of the URL
REST_RATE = 6  # writes a minute per client: low, to see each client get its own bucket

NGINX_CONF = """
daemon off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log info;
events {{ worker_connections 256; }}
http {{
    access_log {tmp}/access.log;
    client_body_temp_path {tmp}/client_body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    server {{
        listen 127.0.0.1:{port} ssl;
        ssl_certificate {tmp}/cert.pem;
        ssl_certificate_key {tmp}/key.pem;
        location / {{
            proxy_pass http://127.0.0.1:{app_port};
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-Host $http_host;  # never the client's own
            proxy_set_header X-Forwarded-Port $server_port;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 120s;
        }}
    }}
}}
"""


def procfile() -> dict[str, str]:
    """The Procfile's process types and their commands."""
    kinds = {}
    for line in (REPO / "Procfile").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            kind, _, command = line.partition(":")
            kinds[kind.strip()] = command.strip()
    return kinds


def app_json() -> dict:
    return json.loads((REPO / "app.json").read_text())


@dataclass
class Deployment:
    url: str  # https://127.0.0.1:<nginx port>
    app_port: int
    tmp: Path
    release: subprocess.CompletedProcess
    web: subprocess.Popen
    database_url: str

    def app_output(self) -> str:
        return (self.tmp / "web.log").read_text(errors="replace")

    def nginx_access(self, expect: str | None = None, seconds: float = 10) -> str:
        """nginx's access log; with ``expect`` (a regular expression), once a line matches it or
        ``seconds`` have passed: nginx logs a WebSocket only once both ends have closed it."""
        path = self.tmp / "access.log"
        deadline = time.monotonic() + seconds
        while True:
            text = path.read_text(errors="replace") if path.exists() else ""
            if expect is None or re.search(expect, text) or time.monotonic() > deadline:
                return text
            time.sleep(0.1)


@contextlib.contextmanager
def postgres_schema() -> Iterator[str | None]:
    """A schema of its own in the local PostgreSQL (the add-on's stand-in), or None."""
    try:
        schema = Schema("lounge_deploy")
    except OperationalError:
        yield None
        return
    try:
        yield schema.name
    finally:
        schema.drop()


def wait_until_up(url: str, process: subprocess.Popen, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if requests.get(url, timeout=1, verify=False).ok:
                return
        except requests.RequestException:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@pytest.fixture(scope="package")
def deployment() -> Iterator[Deployment]:
    if not NGINX.is_file():
        pytest.skip(f"no nginx at {NGINX} (make test installs it)")
    urllib3.disable_warnings(urllib3.exceptions.InsecureRequestWarning)
    kinds = procfile()
    with postgres_schema() as schema, tempfile.TemporaryDirectory(
            prefix="lounge-deploy-") as folder:
        tmp = Path(folder)
        os.chmod(tmp, 0o755)  # nginx's workers read and write their temp folders here
        database_url = (f"{POSTGRES}?options=-csearch_path%3D{schema}" if schema
                        else f"sqlite:///{tmp}/lounge.db")
        # What the platform sets: app.json's generated key and fixed values, the add-on's URL.
        environ = {"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(tmp),
                   "DATABASE_URL": database_url, "SECRET_KEY": secrets.token_urlsafe(32),
                   "REST_RATE_PER_MINUTE": str(REST_RATE)}
        for name, spec in app_json()["env"].items():
            if "value" in spec:
                environ[name] = spec["value"]
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                        "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                        "-keyout", str(tmp / "key.pem"), "-out", str(tmp / "cert.pem")],
                       check=True, capture_output=True, timeout=30)
        release = subprocess.run(["sh", "-c", kinds["release"]], env=environ, cwd=REPO,
                                 capture_output=True, text=True, timeout=60)
        app_port, port = free_port(), free_port()
        with open(tmp / "web.log", "wb") as log:
            web = subprocess.Popen(["sh", "-c", f"exec {kinds['web']}"],
                                   env={**environ, "PORT": str(app_port)}, cwd=REPO,
                                   stdout=log, stderr=subprocess.STDOUT)
        (tmp / "nginx.conf").write_text(NGINX_CONF.format(tmp=tmp, port=port,
                                                          app_port=app_port))
        nginx = subprocess.Popen([str(NGINX), "-p", str(tmp), "-c", str(tmp / "nginx.conf"),
                                  "-e", str(tmp / "error.log")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"https://127.0.0.1:{port}"
        try:
            wait_until_up(f"http://127.0.0.1:{app_port}/api/health", web, 40)
            wait_until_up(f"{url}/api/health", nginx, 20)
            yield Deployment(url, app_port, tmp, release, web, database_url)
        finally:
            stop(nginx)
            stop(web)
            output = (tmp / "web.log").read_text(errors="replace")
        assert "Traceback" not in output, output[-3000:]
