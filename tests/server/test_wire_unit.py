"""Engine.IO's connection queues under eventlet (:func:`backend.wire.untimed_writer_waits`)."""

from __future__ import annotations

import eventlet
import socketio
from eventlet.hubs import get_hub

from backend.wire import untimed_writer_waits


def _pending_timers() -> list[float]:
    hub = get_hub()
    return [timer.seconds for _, timer in [*hub.next_timers, *hub.timers] if not timer.called]


def test_a_writer_waiting_for_its_next_packet_sets_no_timer():
    server = socketio.Server(async_mode="eventlet")
    untimed_writer_waits(server)
    queue = server.eio.create_queue()
    got: list[str] = []
    waiter = eventlet.spawn(lambda: got.append(queue.get(timeout=45)))
    eventlet.sleep(0)  # the getter is waiting now
    assert 45 not in _pending_timers()
    queue.put("packet")
    waiter.wait()
    assert got == ["packet"]
    queue.task_done()
    queue.join()  # Engine.IO's close(wait=True) joins the queue: still there


def test_other_async_modes_keep_their_own_queues():
    server = socketio.Server(async_mode="threading")
    make = server.eio.create_queue
    untimed_writer_waits(server)
    assert server.eio.create_queue == make
