"""Where rooms live: a small interface and its in-memory implementation.

The durable store (:mod:`backend.db.store`) keeps live rooms in an in-memory one and also
keeps finished games (:class:`HistoryStore`). A store holds rooms by id (the host's user id)
and by join code, and each room's chat history.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from .closing import ClosedNote

if TYPE_CHECKING:
    from .rooms import Room

CHAT_HISTORY = 100


class RoomStore(Protocol):
    """What the lounge needs from room storage."""

    def get(self, room_id: str) -> Room | None: ...

    def by_code(self, code: str) -> Room | None: ...

    def save(self, room: Room) -> None:
        """Keep the room as it is now; a durable store returns once that is committed."""
        ...

    def start_save(self, room: Room) -> Callable[[], None]:
        """Start saving the room as it is now; the function returned waits until it is
        saved (and raises if it could not be). The room must not change meanwhile."""
        ...

    def delete(self, room_id: str, note: ClosedNote | None = None) -> None:
        """Forget a room; ``note``: why it closed, told at its code from now on (for a day)."""
        ...

    def rooms(self) -> Iterator[Room]: ...

    def count(self) -> int: ...

    def append_chat(self, room_id: str, message: dict) -> None: ...

    def chat_history(self, room_id: str) -> list[dict]: ...

    def closed_note(self, code: str) -> ClosedNote | None:
        """Why the room that had this code closed, if it closed within a day and no room has
        had the code since (None otherwise)."""
        ...


@runtime_checkable
class HistoryStore(RoomStore, Protocol):
    """A store that also keeps finished games (to watch again) and when each room last
    changed: what the history API and the housekeeping need."""

    def finished_match(self, match_id: str) -> dict | None:
        """A finished match as stored: its summary, seed and log; None if there is none."""
        ...

    def finished_matches(self, room_id: str, limit: int = 50, since: int = 0) -> list[dict]: ...

    def last_active(self, room_id: str) -> int | None: ...

    def purge(self, matches_before: int, users_before: int, notes_before: int = 0
              ) -> dict[str, int]: ...


class MemoryRoomStore:
    """Rooms in a dict: they last as long as the process."""

    def __init__(self, history: int = CHAT_HISTORY) -> None:
        self._rooms: dict[str, Room] = {}
        self._codes: dict[str, str] = {}
        self._chat: dict[str, deque[dict]] = {}
        self._notes: dict[str, ClosedNote] = {}  # by code, oldest first
        self._history = history

    def get(self, room_id: str) -> Room | None:
        """A room by its id."""
        return self._rooms.get(room_id)

    def by_code(self, code: str) -> Room | None:
        """A room by its join code (any case)."""
        room_id = self._codes.get(code.upper())
        return None if room_id is None else self._rooms.get(room_id)

    def save(self, room: Room) -> None:
        """Store a new or changed room."""
        if room.closed:
            return  # a late message about a closed room must not bring it back
        if room.id not in self._rooms:
            self._notes.pop(room.code, None)  # a new room with the code: its note is over
        self._rooms[room.id] = room
        self._codes[room.code] = room.id

    def start_save(self, room: Room) -> Callable[[], None]:
        """Save the room; nothing is left to wait for."""
        self.save(room)
        return _saved

    def delete(self, room_id: str, note: ClosedNote | None = None) -> None:
        """Forget a room, its code and its chat; ``note``: why it closed."""
        room = self._rooms.pop(room_id, None)
        if room is not None and self._codes.get(room.code) == room_id:
            del self._codes[room.code]
        self._chat.pop(room_id, None)
        if note is not None:
            self.note_closed(note)

    def rooms(self) -> Iterator[Room]:
        """Every stored room."""
        return iter(list(self._rooms.values()))

    def count(self) -> int:
        """How many rooms are stored."""
        return len(self._rooms)

    def append_chat(self, room_id: str, message: dict) -> None:
        """Add a message to a room's chat history."""
        if room_id not in self._rooms:
            raise KeyError(room_id)
        self._chat.setdefault(room_id, deque(maxlen=self._history)).append(message)

    def chat_history(self, room_id: str) -> list[dict]:
        """A room's last messages, oldest first."""
        return list(self._chat.get(room_id, ()))

    def note_closed(self, note: ClosedNote) -> None:
        """Remember why the room with this code closed; the notes past their day go."""
        self._notes.pop(note.code, None)
        self._notes[note.code] = note
        while self._notes and not next(iter(self._notes.values())).current():
            self._notes.pop(next(iter(self._notes)))

    def closed_note(self, code: str) -> ClosedNote | None:
        """Why the room that had this code closed, if it was noted within a day."""
        note = self._notes.get(code.upper())
        return note if note is not None and note.current() else None


def _saved() -> None:
    """A save that is already done."""
