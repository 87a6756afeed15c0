"""Who owns which room: leases in PostgreSQL, each with an epoch (a fencing token).

A process holds its rooms while it is alive: it is listed in ``lounge_nodes`` with an expiry
that its heartbeat pushes back (one row a process, whatever its rooms: idle rooms cost the
database nothing), and a room's lease names its owner. A room whose owner's heartbeat stopped,
or that its owner released, may be claimed by any process, which raises its epoch. Every save
of a leased room checks the epoch in the same transaction (``lounge_fence``, migration 0002), so
an owner that stalled past its heartbeat can never write again.

A lease's own ``expires`` is ``infinity`` while it is held, and in the past once released (or
for a room leased out before it had an owner); leases renewed one by one, as they were before,
still run out when their time comes.

Every call runs on this object's own engine (not the store's writer), so that heartbeats never
wait behind a busy writer. All times are the database's.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, text

from ..db.database import make_engine

BACKFILL = text("""
    INSERT INTO room_leases (room_id, owner, epoch, expires)
    SELECT id, '', 0, now() - interval '1 day' FROM rooms
    ON CONFLICT (room_id) DO NOTHING""")
# Also after a stall long enough for the row to have been forgotten: the process is back.
HEARTBEAT = text("""
    INSERT INTO lounge_nodes (id, started, expires)
    VALUES (:node, now(), now() + make_interval(secs => :seconds))
    ON CONFLICT (id) DO UPDATE SET expires = EXCLUDED.expires""")
HELD = text("""
    SELECT room_id, epoch FROM room_leases WHERE owner = :node AND expires > now()""")
# A lease is free when it was released (or ran out) or when its owner's heartbeat stopped.
CLAIM = text("""
    UPDATE room_leases SET owner = :node, epoch = epoch + 1, expires = 'infinity'
    WHERE room_id IN (SELECT room_id FROM room_leases
                      WHERE (expires < now() OR owner IN (
                                 SELECT id FROM lounge_nodes WHERE expires < now()))
                        AND (:any OR room_id = ANY(:ids))
                      LIMIT :limit FOR UPDATE SKIP LOCKED)
    RETURNING room_id, epoch""")
GIVE = text("""
    UPDATE room_leases SET owner = :to, epoch = epoch + 1, expires = 'infinity'
    WHERE room_id = :room AND owner = :node AND epoch = :epoch AND expires > now()
    RETURNING epoch""")
RELEASE = text("""
    UPDATE room_leases SET expires = now() - interval '1 day'
    WHERE owner = :node AND room_id = ANY(:ids)""")
OWNER = text("""
    SELECT l.owner, l.epoch, l.expires > now() AND coalesce(n.expires > now(), false) AS live
    FROM room_leases l LEFT JOIN lounge_nodes n ON n.id = l.owner WHERE l.room_id = :room""")
ROOM_BY_CODE = text("SELECT id FROM rooms WHERE code = :code")
ROOM_BY_ID = text("SELECT id FROM rooms WHERE id = :room")
DEAD_NODES = text("SELECT id FROM lounge_nodes WHERE expires < now()")
# Long-dead processes are forgotten; their rooms (claimed long since, unless no process was
# running meanwhile) are released first, so that they stay free to claim without the row.
FORGOTTEN = "SELECT id FROM lounge_nodes WHERE expires < now() - interval '10 minutes'"
RELEASE_FORGOTTEN = text(f"""
    UPDATE room_leases SET expires = now() - interval '1 day' WHERE owner IN ({FORGOTTEN})""")
FORGET_NODES = text(f"DELETE FROM lounge_nodes WHERE id IN ({FORGOTTEN})")
# A process that leaves releases whatever it still holds: a lease whose owner is not listed is
# never found by CLAIM, which looks for rooms released or owned by a listed, dead process.
LEAVE_ROOMS = text("""
    UPDATE room_leases SET expires = now() - interval '1 day'
    WHERE owner = :node AND expires > now()""")
LEAVE = text("DELETE FROM lounge_nodes WHERE id = :node")
ORPHANS = text("""
    DELETE FROM room_leases l WHERE l.room_id = ANY(:ids)
    AND NOT EXISTS (SELECT 1 FROM rooms r WHERE r.id = l.room_id)""")


@dataclass(frozen=True)
class Owner:
    """A room's lease: who holds it, at which epoch, and whether it is still held (not
    released, and its owner alive)."""

    node: str
    epoch: int
    live: bool


class LeaseBook:
    """The lease and process tables, for one process (``node``)."""

    def __init__(self, url: str, node: str, seconds: float) -> None:
        self.engine: Engine = make_engine(url)
        self.node = node
        self.seconds = seconds

    def register(self) -> None:
        """List this process, and lease out any room that has no lease yet (rooms made before
        the lounge ran as a cluster), as free to claim."""
        with self.engine.begin() as conn:
            conn.execute(HEARTBEAT, {"node": self.node, "seconds": self.seconds})
            conn.execute(BACKFILL)

    def renew(self) -> dict[str, int]:
        """This process's heartbeat, which keeps every lease it holds; the rooms it holds,
        with their epochs (including any handed to it that it has not heard of)."""
        with self.engine.begin() as conn:
            conn.execute(HEARTBEAT, {"node": self.node, "seconds": self.seconds})
            return {row.room_id: row.epoch for row in conn.execute(HELD, {"node": self.node})}

    def claim(self, ids: list[str] | None = None, limit: int = 100) -> dict[str, int]:
        """Take over rooms whose lease is free (only these ``ids``, if given); the rooms
        taken, with their new epochs."""
        params = {"node": self.node, "any": ids is None, "ids": ids or [], "limit": limit}
        with self.engine.begin() as conn:
            return {row.room_id: row.epoch for row in conn.execute(CLAIM, params)}

    def give(self, room_id: str, epoch: int, to: str) -> int | None:
        """Hand a room this process holds at ``epoch`` straight to process ``to``; the new
        epoch (None if this process no longer held it)."""
        with self.engine.begin() as conn:
            return conn.execute(GIVE, {"room": room_id, "node": self.node, "epoch": epoch,
                                       "to": to}).scalar()

    def release(self, ids: list[str]) -> None:
        """Give rooms up at once (a process stopping on purpose), free for others to claim."""
        if ids:
            with self.engine.begin() as conn:
                conn.execute(RELEASE, {"node": self.node, "ids": ids})

    def drop_orphans(self, ids: list[str]) -> None:
        """Remove the leases of rooms that no longer exist."""
        with self.engine.begin() as conn:
            conn.execute(ORPHANS, {"ids": ids})

    def owner(self, room_id: str) -> Owner | None:
        """The room's lease; None when the room has none (it does not exist)."""
        with self.engine.connect() as conn:
            row = conn.execute(OWNER, {"room": room_id}).first()
        return None if row is None else Owner(row.owner, row.epoch, row.live)

    def room_id(self, key: str, by_code: bool) -> str | None:
        """The id of the room with this code (or id), if it exists."""
        query, params = (ROOM_BY_CODE, {"code": key.upper()}) if by_code else (
            ROOM_BY_ID, {"room": key})
        with self.engine.connect() as conn:
            return conn.execute(query, params).scalar()

    def dead_nodes(self) -> set[str]:
        """Processes whose heartbeat has stopped (long-dead ones are forgotten)."""
        with self.engine.begin() as conn:
            dead = {row.id for row in conn.execute(DEAD_NODES)}
            conn.execute(RELEASE_FORGOTTEN)
            conn.execute(FORGET_NODES)
        return dead

    def leave(self) -> None:
        """This process is stopping: it is no longer listed, and holds nothing."""
        with self.engine.begin() as conn:
            conn.execute(LEAVE_ROOMS, {"node": self.node})
            conn.execute(LEAVE, {"node": self.node})
