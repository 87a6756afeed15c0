"""The lounge's rooms: opening one (a free code, one room per host), finding one by code or id,
the public lists, closing, and each room's chat, over a :class:`~backend.store.RoomStore`."""

from __future__ import annotations

import threading

from shared_rules import GAMES

from .closing import ClosedNote
from .errors import NO_ROOM, LoungeError
from .rooms import CODE_LENGTH, WAITING, Room, new_code, now_ms
from .store import RoomStore


class Lounge:
    """Creating, finding and closing rooms, and their chat, over a :class:`RoomStore`."""

    def __init__(self, store: RoomStore, hard_seconds: float = 1.0) -> None:
        self.store = store
        self.hard_seconds = hard_seconds
        self._create_lock = threading.Lock()

    def create_room(self, host_id: str, slug: str, host_name: str, public: bool) -> Room:
        """Open a room keyed by its host's id; already_hosting if one is still open."""
        game = GAMES.get(slug)
        if game is None:
            raise LoungeError("bad_request", f"There is no game called {slug!r}")
        with self._create_lock:
            existing = self.store.get(host_id)
            if existing is not None and not existing.closed:
                raise LoungeError("already_hosting", f"You already host room {existing.code}: "
                                                     "leave it before opening another")
            room = Room(host_id, self._free_code(), game, host_name, public)
            room.hard_seconds = self.hard_seconds
            self.store.save(room)
        return room

    def _free_code(self) -> str:
        for _ in range(100):
            code = new_code()  # a closed room's note goes if its code is drawn again
            if self.store.by_code(code) is None:
                return code
        raise LoungeError("internal", "No free room code: try again")

    def find(self, key: str) -> Room:
        """A room by its id or its code (any case); not_found otherwise."""
        room = self.store.get(key) if len(key) > CODE_LENGTH else self.store.by_code(key)
        if room is None or room.closed:
            raise self.no_room(key)
        return room

    def no_room(self, key: str) -> LoungeError:
        """not_found for a code or id; for the code of a room that closed within a day, saying
        why (:meth:`~backend.store.RoomStore.closed_note`)."""
        note = self.store.closed_note(key) if len(key) <= CODE_LENGTH else None
        return LoungeError("not_found", note.message() if note else f"{NO_ROOM} {key!r}")

    def public_rooms(self, waiting: bool = True, limit: int = 100) -> list[Room]:
        """Public rooms still waiting for players, or (``waiting=False``) with a game on or just
        over, to watch; newest first."""
        rooms = [r for r in self.store.rooms()
                 if r.public and (r.status == WAITING) == waiting and not r.closed]
        rooms.sort(key=lambda r: r.created, reverse=True)
        return rooms[:limit]

    def close(self, room: Room, reason: str) -> None:
        """Close a room for good: it is gone from the store, and its code says why for a day
        (``reason``: the ``closed`` event's)."""
        room.closed = True
        room.connections.clear()
        if self.store.get(room.id) is room:
            self.store.delete(room.id, ClosedNote.of(room.code, reason, room.game.slug))

    def chat(self, room: Room, user_id: str, text: str) -> dict:
        """Add a chat message from the user; the message as sent to the room."""
        room.chat_seq += 1
        message = {"id": room.chat_seq, "user_id": user_id, "name": room.member_name(user_id),
                   "text": text, "ts": now_ms()}
        self.store.append_chat(room.id, message)
        return message

    def chat_history(self, room: Room) -> list[dict]:
        """The room's last chat messages, oldest first."""
        return self.store.chat_history(room.id)
