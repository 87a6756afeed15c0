"""How the server runs concurrent work in its async mode: start a task, sleep, make a queue
or an event. The service, the bots and the database workers are handed one, so that none of
them needs to know about Socket.IO or eventlet."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

SPIN_SECONDS = 0.0005


@dataclass(frozen=True)
class Runtime:
    """How to start a task, sleep, make a queue and make an event in the server's async mode.
    ``make_quick_event`` makes one for waits shorter than a wake-up from sleep (a commit), which
    may spin for a moment before it sleeps; ``make_event`` one that sleeps at once."""

    spawn: Callable[..., Any]
    make_queue: Callable[[], Any]
    make_event: Callable[[], Any]
    sleep: Callable[[float], Any] = time.sleep
    make_quick_event: Callable[[], Any] | None = None
    green: bool = False  # tasks are green threads of one event loop (eventlet, gevent)

    def __post_init__(self) -> None:
        if self.make_quick_event is None:
            object.__setattr__(self, "make_quick_event", self.make_event)

    @classmethod
    def of_socketio(cls, socketio: Any) -> Runtime:
        """The runtime of a Flask-SocketIO server's async mode."""
        eio = socketio.server.eio
        if socketio.async_mode != "eventlet":
            return cls(socketio.start_background_task, eio.create_queue, eio.create_event,
                       socketio.sleep, green=socketio.async_mode == "gevent")
        event, quick = _eventlet_events()
        return cls(socketio.start_background_task, eio.create_queue, event, socketio.sleep,
                   quick, green=True)

    @classmethod
    def threads(cls) -> Runtime:
        """Plain threads: for the command line and tests outside a server."""

        def spawn(target: Callable[..., Any], *args: Any) -> threading.Thread:
            thread = threading.Thread(target=target, args=args, daemon=True)
            thread.start()
            return thread

        return cls(spawn, queue.Queue, threading.Event, time.sleep)


def _eventlet_events() -> tuple[Callable[[], Any], Callable[[], Any]]:
    """eventlet's own one-shot event, with ``set``: waking a waiter costs a third of what its
    green ``threading.Event`` costs, which counts on every move; and the quick one.

    In the quick one, one waiter at a time keeps the loop turning for up to SPIN_SECONDS before
    it sleeps: a commit takes less than that, and an idle process that sleeps wakes up slowly
    (on the benchmark machine, a tenth of a millisecond: a fifth of a move). Only one, because many
    spinning waiters would cost the loop more than their sleeps cost them."""
    from eventlet import sleep
    from eventlet.event import Event

    spinning = [False]

    class Done(Event):
        def set(self) -> None:
            if not self.ready():
                self.send(None)

    class QuickDone(Done):
        def wait(self, timeout: float | None = None) -> Any:
            if not spinning[0] and not self.ready():
                spinning[0] = True
                try:
                    deadline = time.perf_counter() + SPIN_SECONDS
                    while not self.ready() and time.perf_counter() < deadline:
                        sleep(0)
                finally:
                    spinning[0] = False
            return super().wait(timeout)

    return Done, QuickDone
