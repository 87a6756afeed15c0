"""What each reader of a room is told: the room object, each seat's state, the game log's news
and which seats a connection plays.

A seat's state holds ``shared_rules``' view of the match for that seat, in which hidden cards
are already removed, and only that seat's connections get it (spectators get the spectator
view). The service (:mod:`backend.service`) sends what :func:`deliveries` returns once the
change is saved. Called with ``room.lock`` held.
"""

from __future__ import annotations

from .errors import LoungeError
from .gamelog import GameLog
from .rooms import Room, now_ms
from .turns import timed_seat

Delivery = tuple[str, dict]  # (connection, state)
Told = tuple[str | None, str, dict]  # (connection, or None for everyone; event; data)


def summary(room: Room) -> dict:
    """The room object of the protocol (no cards, ever)."""
    game = room.game
    return {
        "id": room.id, "code": room.code, "game": game.slug, "title": game.title,
        "min_players": game.min_players, "max_players": game.max_players,
        "host": room.host, "public": room.public, "status": room.status,
        "seats": [_seat(room, i) for i in range(len(room.seats))],
        "spectators": len(room.spectators), "created": room.created, "round": room.round,
        "removed": [{"user_id": u, "name": n} for u, n in room.removed.items()],
        "turn_seconds": room.turn_seconds, "notice": room.notice,
        # A count as well as the time: the client's clock need not agree with ours.
        "closes_at": room.closes_at,
        "closes_in_ms": None if room.closes_at is None else max(0, room.closes_at - now_ms()),
    }


def _seat(room: Room, index: int) -> dict:
    seat = room.seats[index]
    connected = seat.kind == "bot" or room.is_connected(seat.user_id)
    ready = seat.ready or seat.kind != "human" or room.is_hosts_seat(seat)
    return {"seat": index, "name": seat.name, "kind": seat.kind, "user_id": seat.user_id,
            "level": seat.level, "connected": connected and not seat.left,
            "ready": ready, "left": seat.left, "away": seat.away, "colour": seat.colour}


def state(room: Room, seat: int | None, full_log: bool = False) -> dict:
    """The state message for one seat (None: the spectator view), with the log lines of the
    latest change (``full_log``: the whole log, for a connection that just joined)."""
    m = room.match
    if m is None:
        raise LoungeError("bad_state", "No game has started in this room")
    if full_log:
        log = _ensure_log(room).full(seat)
    else:
        log = room.log_news.get(seat) or {"log": [], "log_undone": []}
    game_log = room.game_log
    view = game_log.view(seat) if game_log is not None and game_log.match is m else m.view(seat)
    return {"round": room.round, "seat": seat, "view": view,
            "legal_moves": m.legal_moves(seat), "active_seats": m.active_seats,
            "result": m.result, "version": m.version,
            "can_undo": seat is not None and room.can_undo(seat),
            "stand_in": room.stand_ins.get(m.version),
            "turn_timer": turn_timer(room), **log}


def turn_timer(room: Room) -> dict | None:
    """The running turn's clock, for the clients to draw: whose turn, when it runs out (server
    time, and milliseconds left now, as clocks differ), and whether a bot will then play for
    a player who is away."""
    if room.turn_deadline is None:
        return None
    seat = timed_seat(room)
    if seat is None:
        return None
    return {"seat": seat, "ends_at": room.turn_deadline,
            "ms_left": max(0, room.turn_deadline - now_ms()), "away": room.seats[seat].away}


def deliveries(room: Room, only: str | None = None, full_log: bool = False) -> list[Delivery]:
    """(connection, state) pairs: every connection gets exactly its seats' states, or the
    spectator view. ``only`` limits it to one connection."""
    if room.match is None:
        return []
    cache: dict[int | None, dict] = {}
    out = []
    for conn, user_id in room.connections.items():
        if only is not None and conn != only:
            continue
        seats: list[int | None] = list(room.seats_of(user_id)) or [None]
        for seat in seats:
            if seat not in cache:
                cache[seat] = state(room, seat, full_log)
            out.append((conn, cache[seat]))
    return out


# -- what a change tells ---------------------------------------------------------------------

def prepare(room: Room) -> list[Delivery]:
    """The states a change gives its connections, each its own, with the change's log lines
    (none when neither the match nor the turn's clock moved since they were last told)."""
    moved = room.mark() != room.told_mark
    if moved:
        update_log(room)
    else:
        room.log_news = {}  # states sent again for a new clock carry no log lines
    clock = room.turn_deadline != room.told_deadline
    return deliveries(room) if moved or clock else []


def news(room: Room, states: list[Delivery], seats_changed: bool) -> list[Told]:
    """Everything a saved change tells, in order: the room object and each connection's own
    seats first when the seats changed (the states may be about them), then the states, then
    the room object when only its status changed. The room remembers what it told."""
    told: list[Told] = []
    if seats_changed:
        told.append((None, "room", summary(room)))
        told += [(conn, "seats", seats) for conn, seats in seat_changes(room)]
    told += [(conn, "state", state) for conn, state in states]
    if not seats_changed and room.status != room.told_status:
        told.append((None, "room", summary(room)))
    room.told_mark, room.told_status = room.mark(), room.status
    room.told_deadline = room.turn_deadline
    return told


def forget_news(room: Room) -> None:
    """A change that could not be saved (the room went back as it was): its log goes too."""
    room.game_log = None


def seats_message(room: Room, conn: str) -> dict:
    """What a connection is told of its own seats (the ``seats`` event, and ``join``)."""
    user_id = room.connections.get(conn, "")
    seats = room.seats_of(user_id)
    room.told_seats[conn] = seats
    return {"my_seats": seats, "spectator": not seats, "left_game": room.left_game(user_id),
            "left_out": user_id in room.left_out}


def seat_changes(room: Room) -> list[tuple[str, dict]]:
    """(connection, seats message) for every connection whose seats changed since it was last
    told; forgets connections that are gone."""
    for conn in [c for c in room.told_seats if c not in room.connections]:
        del room.told_seats[conn]
    return [(conn, seats_message(room, conn)) for conn, user_id in room.connections.items()
            if room.told_seats.get(conn) != room.seats_of(user_id)]


# -- the game log ---------------------------------------------------------------------------

def update_log(room: Room) -> None:
    """Write the log up to the match; what each reader is told of it goes in ``log_news``
    (the new lines, or the whole log of a new game)."""
    if room.match is None:
        room.game_log, room.log_news = None, {}
        return
    log = room.game_log
    if log is not None and log.follows(room.round, room.match):
        _follow_spectators(room, log)  # before this change's lines
        room.log_news = log.advance(room.match, room.names(), room.stand_ins)
        return
    log = room.game_log = _new_log(room)
    room.log_news = {reader: log.full(reader) for reader in log.readers}


def _ensure_log(room: Room) -> GameLog:
    """The game log, written up to the match (from its start after a restart)."""
    log = room.game_log
    if log is None or not log.follows(room.round, room.match):
        log = room.game_log = _new_log(room)
    elif log.match is not room.match:
        log.advance(room.match, room.names(), room.stand_ins)
    _follow_spectators(room, log)
    return log


def _new_log(room: Room) -> GameLog:
    return GameLog(room.round, room.match, room.names(), room.stand_ins, room.spectated())


def _follow_spectators(room: Room, log: GameLog) -> None:
    """Start the spectators' lines once a connection here sees the spectator view."""
    if not log.spectated and room.spectated():
        log.add_spectators(room.names(), room.stand_ins)
