"""Cluster mode: several ``lounge serve`` processes serving one lounge, on Redis and
PostgreSQL (switched on by ``REDIS_URL``; see docs/deployment.md).

- :mod:`.leases`: who owns which room (PostgreSQL leases with a fencing epoch);
- :mod:`.bus`: Redis between the processes (Flask-SocketIO's message queue and the lounge's
  own channels);
- :mod:`.notifier`: how an owner tells connections on any process, and the room directory;
- :mod:`.node`: routing events to owners, taking rooms over, handing them over.
"""

from __future__ import annotations

import logging
import os
import signal
from typing import Any

from .bus import ClusterBus
from .leases import LeaseBook
from .node import ClusterNode, new_node_id
from .notifier import ClusterNotifier, Directory

log = logging.getLogger(__name__)

__all__ = ["ClusterBus", "ClusterNode", "ClusterNotifier", "Directory", "LeaseBook",
           "new_node_id", "stop_on_sigterm"]


def stop_on_sigterm(node: ClusterNode, spawn: Any) -> None:
    """On SIGTERM (a deploy, a scale-down) hand the rooms over, then exit."""

    def stop() -> None:
        try:
            node.hand_over()
        except Exception:
            log.exception("the hand-over failed")
        finally:
            logging.shutdown()
            os._exit(0)

    signal.signal(signal.SIGTERM, lambda *_: spawn(stop))
