"""The one real lounge server of a test package: each package says its settings by overriding
``server_settings``; the server starts at the package's first use and stops after its last.
The one browser of a test process is :func:`tests.browser.browser`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser import browser  # noqa: F401  (a fixture, for every package)
from tests.live_server import Server


@pytest.fixture(scope="package")
def server_settings() -> dict:
    """The settings of the package's server (none here: the production defaults)."""
    return {}


@pytest.fixture(scope="package")
def server(server_settings: dict) -> Iterator[Server]:
    srv = Server(**server_settings)
    yield srv
    output = srv.stop()
    assert "Traceback" not in output, output[-4000:]
