"""The lounge's own work per move, in one process: a loop of moves through the service
(``LoungeService.move``: the room's lock, the rules, the game log, the per-seat states, the
save to the in-memory store) with each message encoded as the transport encodes it, and no
transport: no sockets, no event loop, no validation. A finished game is followed by a rematch,
as in the load benchmarks. Each figure is the median of several runs, in CPU microseconds of
this process a move (``time.process_time``).

    .venv/bin/python bench/service_loop.py [--game tic-tac-toe] [--players 2] [--runs 7]
                                           [--moves 10000]

Under load a server spends about three times this on the same work (see
docs/performance.md): this is for comparing two versions of the code, run one after the other
on a quiet machine, not for the server's cost.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
warnings.filterwarnings("ignore")  # eventlet's own deprecation notice, on import

from backend import wire  # noqa: E402
from backend.app import create_app  # noqa: E402
from backend.config import from_env  # noqa: E402
from backend.rooms import Room  # noqa: E402
from backend.service import Caller, LoungeService, Told  # noqa: E402


class Encoder:
    """A notifier that encodes each message as ``LoungeSockets.send`` does, and drops it."""

    def __init__(self) -> None:
        self.messages = 0

    def tell(self, room: Room, messages: list[Told]) -> None:
        for _conn, event, data in messages:
            wire.event_packet(event, data)
            self.messages += 1

    def dismiss(self, room: Room, conns: list[str]) -> None:
        pass

    def closed(self, room: Room, conns: list[str], reason: str) -> None:
        pass


def seated_room(service: LoungeService, slug: str, players: int,
                index: int = 0) -> tuple[Room, list[Caller]]:
    """A started room of ``players`` users, each on a connection of their own (``index``: the
    room's number, when there are several, each with users of its own)."""
    host_id = f"bench-host-{index:021d}"
    room_id = service.create_room(host_id, slug, "Player 1", False)["id"]
    first = index * players  # the connections' numbers
    callers = [Caller(f"conn-{first}", host_id, room_id)]
    callers += [Caller(f"conn-{first + i}", f"bench-user-{index:010d}{i:011d}", room_id)
                for i in range(1, players)]
    for i, caller in enumerate(callers):
        service.join(caller, {"name": f"Player {i + 1}"})
        if i:
            service.ready(caller, {"ready": True})
    service.start(callers[0], {})
    return service.store.get(room_id), callers


def play(service: LoungeService, room: Room, callers: list[Caller], moves: int,
         rand: random.Random) -> None:
    """``moves`` random legal moves, each by the first seat that has one (by its player: a
    rematch moves the seats round)."""
    by_user = {caller.user_id: caller for caller in callers}
    done = 0
    while done < moves:
        match = room.match
        if match.result is not None:
            service.rematch(callers[0], {})
            continue
        seat, options = next((seat, options) for seat in match.active_seats
                             if (options := match.legal_moves(seat)))
        choice = rand.choice(options)
        service.move(by_user[room.seats[seat].user_id],
                     {"move": choice["move"], "args": choice.get("args", []), "seat": seat})
        done += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tic-tac-toe")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--moves", type=int, default=10000)
    args = parser.parse_args(argv)
    app = create_app(from_env({"DATABASE_URL": "memory", "ACCESS_LOG": "0",
                               "SECRET_KEY": "bench-only-secret-key-0123456789abcdef"}))
    service: LoungeService = app.extensions["lounge"].service
    encoder = service.notifier = Encoder()
    room, callers = seated_room(service, args.game, args.players)
    rand = random.Random(1)
    play(service, room, callers, args.moves // 5, rand)  # warm up
    figures = []
    for _ in range(args.runs):
        start, told = time.process_time(), encoder.messages
        play(service, room, callers, args.moves, rand)
        figures.append((time.process_time() - start) / args.moves * 1e6)
        per_move = (encoder.messages - told) / args.moves
    print(f"{args.game}, {args.players} players: {statistics.median(figures):.1f} µs a move "
          f"(runs {min(figures):.1f} to {max(figures):.1f}; {per_move:.2f} messages a move)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
