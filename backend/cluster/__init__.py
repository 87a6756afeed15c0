"""Cluster mode: several ``lounge serve`` processes serving one lounge, on Redis and
PostgreSQL (switched on by ``REDIS_URL``; see docs/deployment.md).

- :mod:`.leases`: who owns which room (PostgreSQL leases with a fencing epoch);
- :mod:`.bus`: Redis between the processes (Flask-SocketIO's message queue and the lounge's
  own channels), on plain sockets of its own (:mod:`.link` opens them, :mod:`.resp` packs and
  parses Redis's protocol);
- :mod:`.directory`: every open room's room object in Redis, for REST on any process;
- :mod:`.notifier`: how an owner tells connections on any process (and what a process does with
  what it is told);
- :mod:`.node`: the rooms this process holds: heartbeats, taking rooms over, handing them over;
- :mod:`.routing`: the cluster's :class:`~backend.router.Router`: each event to its room's
  owner, and the answer back.
"""

from __future__ import annotations

import logging
import os
import signal
from typing import Any

from .bus import ClusterBus
from .directory import Directory
from .leases import LeaseBook
from .node import ClusterNode, new_node_id
from .notifier import ClusterNotifier
from .routing import ClusterRouter

log = logging.getLogger(__name__)

__all__ = ["ClusterBus", "ClusterNode", "ClusterNotifier", "ClusterRouter", "Directory",
           "LeaseBook", "new_node_id", "stop_on_sigterm"]


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
