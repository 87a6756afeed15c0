"""The lounge's tables (SQLAlchemy 2 declarative models). Times are milliseconds since 1970;
JSON values (seeds, arguments, players, results) are stored as text."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

ID = String(36)


class Base(DeclarativeBase):
    pass


class User(Base):
    """Someone who took a seat: the public user id of a token, the last name they used."""

    __tablename__ = "users"
    id: Mapped[str] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    created: Mapped[int] = mapped_column(BigInteger)
    seen: Mapped[int] = mapped_column(BigInteger, index=True)


class RoomRow(Base):
    """An open room, keyed by its host's user id."""

    __tablename__ = "rooms"
    id: Mapped[str] = mapped_column(ID, primary_key=True)
    code: Mapped[str] = mapped_column(String(6), unique=True)
    game: Mapped[str] = mapped_column(String(40))
    public: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(10))
    round: Mapped[int] = mapped_column(Integer)
    created: Mapped[int] = mapped_column(BigInteger)
    updated: Mapped[int] = mapped_column(BigInteger, index=True)
    turn_seconds: Mapped[int] = mapped_column(Integer, default=0)  # 0: no turn timer
    turn_deadline: Mapped[int | None] = mapped_column(BigInteger)  # the turn being played
    removed: Mapped[str] = mapped_column(Text, default="{}")  # JSON: user id -> name
    left_out: Mapped[str] = mapped_column(Text, default="[]")  # JSON: user ids (Room.left_out)
    host_came: Mapped[bool] = mapped_column(Boolean, default=True)  # the host has joined it


class SeatRow(Base):
    """One place at a room's table, in seat order."""

    __tablename__ = "seats"
    room_id: Mapped[str] = mapped_column(ID, ForeignKey("rooms.id", ondelete="CASCADE"),
                                         primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    name: Mapped[str] = mapped_column(String(80))
    user_id: Mapped[str | None] = mapped_column(ID, index=True)
    level: Mapped[str | None] = mapped_column(String(10))
    ready: Mapped[bool] = mapped_column(Boolean)
    left: Mapped[bool] = mapped_column(Boolean)
    away: Mapped[bool] = mapped_column(Boolean, default=False)  # a bot plays its turns
    colour: Mapped[int | None] = mapped_column(Integer)  # its avatar's (None: saved before)


class MatchRow(Base):
    """One game: enough to rebuild it exactly (game, players, seed, and its moves)."""

    __tablename__ = "matches"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    room_id: Mapped[str] = mapped_column(ID, index=True)  # the host's id: kept after closing
    round: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(40))
    num_players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(Text)
    players: Mapped[str] = mapped_column(Text)
    result: Mapped[str | None] = mapped_column(Text)
    moves: Mapped[int] = mapped_column(Integer, default=0)
    started: Mapped[int] = mapped_column(BigInteger)
    finished: Mapped[int | None] = mapped_column(BigInteger, index=True)


class MoveRow(Base):
    """One entry of a match's action log; ``version`` is the match version it led to. On
    SQLite the rows are kept in their key's order, without a rowid (migration 0005)."""

    __tablename__ = "match_moves"
    __table_args__ = {"sqlite_with_rowid": False}
    match_id: Mapped[str] = mapped_column(String(16),
                                          ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(40))
    args: Mapped[str] = mapped_column(Text)
    actor: Mapped[str | None] = mapped_column(String(16))  # "stand_in": a bot played it


class ChatRow(Base):
    """One chat message of a room (the last hundred are kept)."""

    __tablename__ = "chat_messages"
    room_id: Mapped[str] = mapped_column(ID, ForeignKey("rooms.id", ondelete="CASCADE"),
                                         primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[str] = mapped_column(ID)
    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    ts: Mapped[int] = mapped_column(BigInteger)


class ClosedRoomRow(Base):
    """Why the room that had a code closed (a reason of the ``closed`` event), told at that
    code for a day (:mod:`backend.closing`); a new room with the code removes it."""

    __tablename__ = "closed_rooms"
    code: Mapped[str] = mapped_column(String(6), primary_key=True)
    reason: Mapped[str] = mapped_column(String(20))
    game: Mapped[str] = mapped_column(String(40))
    closed: Mapped[int] = mapped_column(BigInteger, index=True)


class RoomLease(Base):
    """Cluster mode: which process owns a room, and the epoch (fencing token) of that
    ownership; ``expires`` is ``infinity`` while the owner holds it (its heartbeat in
    ``lounge_nodes`` keeps it), in the past once released. Every save of the room checks the
    epoch (``lounge_fence``)."""

    __tablename__ = "room_leases"
    room_id: Mapped[str] = mapped_column(ID, primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    epoch: Mapped[int] = mapped_column(BigInteger)
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class Node(Base):
    """Cluster mode: a running ``lounge serve`` process, alive while ``expires`` is ahead."""

    __tablename__ = "lounge_nodes"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    started: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
