"""``lounge play``: the terminal client's input loop.

One thread does everything visible: it waits for a key or a server event (the Socket.IO thread
only queues them), updates the model, and redraws the screen. ``add_arguments`` and ``run`` are
the hooks of ``backend/cli.py``.
"""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import signal
import sys
import time
from typing import TextIO

from . import commands
from .client import Incoming, Link, Rest, ServerError
from .commands import Action, SlapGuard
from .keys import EOF, INTERRUPT, MAX_LINE, Keyboard, LineEditor
from .model import Model
from .render import frame
from .text import clean, lower_first

TICK = 0.05  # seconds between looks at the queue while no key is pressed
JOIN_TIMEOUT = 15.0  # the first join's answer; and how long getting back in goes unremarked
REJOIN_WAIT = 5.0  # a rejoin with no answer by then is sent again
REJOIN_PAUSE = 1.0  # before a join refused with "try again", or not sent, goes again
TRY_AGAIN = ("internal", "rate_limited")  # a rejoin refused so is sent again
CLEAR, HOME, ERASE_LINE, ERASE_BELOW = "\x1b[2J", "\x1b[H", "\x1b[K", "\x1b[J"
INSTANT_AFTERGLOW = 1.5  # seconds an s or space is still swallowed after the game ended
LOST = "Lost the connection to the server: trying again…"
BACK = "Connected again: you are back in the room"
BACK_IN = "You are back in the room"  # after a rejoin with no connection lost
REJOINING = "Connected again: getting back into the room…"
LOST_ROOM = "Not done: the server had lost track of you in the room. Getting you back in…"
NOT_BACK = "Not sent: you are not back in the room yet (a moment…)"
STILL_OUT = ("Still getting back into the room: the server has not let this client back in "
             "yet. It keeps trying (Ctrl-C quits).")
NOT_SENT = ("Not sent: there is no connection to the server. Type it again once you are back "
            "in the room.")
MODEL_EVENTS = ("room", "seats", "state", "chat", "closed")  # each read by Model.on_<event>


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--server", default="http://127.0.0.1:5000",
                        help="the lounge server’s address (default %(default)s)")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--create", metavar="GAME",
                       help="create a room for GAME, a slug of GET /api/games (e.g. tic-tac-toe)")
    which.add_argument("--join", metavar="CODE", help="join the room with this code")
    parser.add_argument("--name", required=True, help="your name at the table")
    parser.add_argument("--spectate", action="store_true", help="watch instead of playing")
    parser.add_argument("--public", action="store_true",
                        help="list a created room among the public rooms")


def run(args: argparse.Namespace) -> int:
    """Create or join the room, then play until the room closes or the player quits."""
    name = args.name.strip()
    if not 1 <= len(name) <= 32:
        print("Your name must be 1 to 32 characters.", file=sys.stderr)
        return 2
    if args.join is not None and not args.join.strip():
        print("Say which room to join: --join CODE, with the code the host shares.",
              file=sys.stderr)
        return 2
    games: dict = {}
    try:
        rest = Rest(args.server)
        user_id, token = rest.new_session()
        games = rest.games()
        code = args.join.strip() if args.join else ""
        if code:
            _check_room(rest, code)
        if args.create:
            room = rest.create_room(token, args.create.strip().lower(), name, bool(args.public))
            code = str(room.get("code") or "")
    except _NoRoom as exc:
        print(exc, file=sys.stderr)
        return 1
    except ServerError as exc:
        print(_start_problem(exc, games), file=sys.stderr)
        return 1
    levels = games.get("bot_levels")
    model = Model(user_id)
    model.bot_levels = [str(x) for x in levels] if isinstance(levels, list) else []
    model.games = games_by_slug(games)
    inbox: queue.Queue = queue.Queue()
    link = Link(rest.base, token, inbox, code)
    app = App(model, link, inbox, code, name, args.spectate)
    return app.main()


class App:
    """The loop: keys and server events in, actions out, the screen redrawn after each change."""

    def __init__(self, model: Model, link: Link, inbox: queue.Queue, code: str, name: str,
                 spectate: bool, out: TextIO | None = None) -> None:
        self.model = model
        self.link = link
        self.inbox = inbox
        self.code = code
        self.name = name
        self.spectate = spectate
        self.out = out or sys.stdout
        self.editor = LineEditor()
        self.joined = False  # the first join was answered ok
        self.join_sent_at: float | None = None  # the join waiting for its answer
        self.join_due: float | None = None  # when a join refused or not sent goes again
        self.rejoin_since: float | None = None  # getting back into the room since then
        self.back_words = BACK  # what the pane says when the rejoin is answered ok
        self.exit_code: int | None = None
        self.farewell = ""
        self.dirty = True
        self.tick = 0  # the second a countdown was last drawn
        self.cleared = False
        self.color = self.out.isatty() and os.environ.get("TERM") != "dumb" \
            and "NO_COLOR" not in os.environ
        self.slaps = SlapGuard()
        self.instant = False  # whether Slapjack's one-key moves apply now
        self.instant_ended = -1e9  # when they last stopped applying (monotonic)
        self.away_when_back_sent = False
        self.told: set[str] = set()  # what the pane said of this outage (each said once)

    # -- running -----------------------------------------------------------------------------

    def main(self) -> int:
        try:
            self.link.connect()
        except ServerError as exc:
            print(_start_problem(exc, {}), file=sys.stderr)
            return 1
        signal.signal(signal.SIGWINCH, lambda *_: self._mark_dirty())
        signal.signal(signal.SIGTERM, _raise_interrupt)
        try:
            with Keyboard(sys.stdin.fileno(), self.out) as keyboard:
                signal.signal(signal.SIGTSTP, lambda *_: self._suspend(keyboard))
                self._loop(keyboard)
        except KeyboardInterrupt:
            self._quit()
        finally:
            self.link.close()
            self._write("\n" if self.out.isatty() else "")
        if self.farewell:
            print(self.farewell, file=self.out, flush=True)
        return self.exit_code or 0

    def _loop(self, keyboard: Keyboard) -> None:
        while self.exit_code is None:
            self._drain()
            if self.exit_code is not None:
                break
            self._check_join()
            if self.model.say_host_away():
                self.dirty = True
            if self.model.ticking() and int(time.monotonic()) != self.tick:
                self.tick = int(time.monotonic())  # a countdown on screen: once a second
                self.dirty = True
            if self.dirty:
                self.draw()
            keys = keyboard.read(TICK)
            if keys is None:
                self._quit()
                break
            for key in keys:
                try:
                    self.on_key(key)
                except Exception as exc:  # a bug of ours must not end the player's game
                    self.model.note(f"Could not handle that key: {exc!r}"[:200], "error")
                if self.exit_code is not None:
                    break

    def _drain(self) -> None:
        handled = False
        for _ in range(500):  # bounded: a flood never starves the keyboard
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
            try:
                self.on_incoming(item)
            except Exception as exc:  # never crash on what the server sends
                self.model.note(f"Could not handle a {item.kind} message: {exc!r}"[:200],
                                "error")
            self.dirty = True
            handled = True
        if handled:
            self._track_instant()

    def _suspend(self, keyboard: Keyboard) -> None:
        """Ctrl-Z: give the terminal back to the shell, and take it again on ``fg``."""
        keyboard.pause()
        self._write("\n")
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)  # stops here until the shell continues us
        signal.signal(signal.SIGTSTP, lambda *_: self._suspend(keyboard))
        keyboard.resume()
        self.cleared = False
        self.dirty = True

    def _mark_dirty(self) -> None:
        self.dirty = True

    # -- the server --------------------------------------------------------------------------

    def on_incoming(self, item: Incoming) -> None:
        """Hand one thing from the connection to what deals with it: a change of the
        connection or an acknowledgement to this loop, a room's news to the model."""
        if item.kind == "ack":
            self.on_ack(item.event or "", item.data, item.sent)
        elif item.kind in MODEL_EVENTS:
            getattr(self.model, f"on_{item.kind}")(item.data)
        elif item.kind == "connect":
            self.on_connect()
        elif item.kind == "disconnect":
            self.on_disconnect()
        elif item.kind == "connect_error":
            self.on_connect_error(item.data)
        if item.kind == "closed":
            lines = self.model.lines
            self.draw()
            self._finish(0, lines[-1].text if lines else "The room was closed.")

    def on_connect(self) -> None:
        """Connected, for the first time (join) or again (get back into the room)."""
        self.model.connected = True
        self.told.clear()
        if self.joined:
            self._rejoin(REJOINING, BACK)
        else:
            self._send_join()

    def on_disconnect(self) -> None:
        """The connection dropped; the client reconnects by itself."""
        self.model.connected = False
        # nothing is pending on a dead connection: the next connect starts over
        self.join_sent_at = self.join_due = self.rejoin_since = None
        if self.exit_code is None:
            self._note_once(LOST, "error")

    def on_connect_error(self, data: object) -> None:
        """A reconnection attempt failed. The library's own words ("Connection error") mean
        the server is still away, which the pane already says; a refusal from the server
        (its code and sentence) is said once."""
        info = data if isinstance(data, dict) else {}
        said = clean(info.get("message"), 120)
        if info.get("code") == "unauthorized":  # e.g. the server restarted with a new key
            self._finish(1, f"Cannot connect: {lower_first(said)}. Start the client again.")
        elif info.get("code") and said:
            self._note_once(f"The server refused the connection: {lower_first(said)}", "error")
        else:
            self._note_once(LOST, "error")

    def _note_once(self, text: str, style: str) -> None:
        """A note said once while the connection is down (each retry fails the same way)."""
        if text not in self.told:
            self.told.add(text)
            self.model.note(text, style)

    def _send_join(self) -> None:
        payload = {"room": self.code, "name": self.name, "spectate": self.spectate}
        now = time.monotonic()
        if self.link.send("join", payload):
            self.join_sent_at, self.join_due = now, None
        else:  # the connection dropped just now, or not quite: try again in a moment
            self.join_sent_at, self.join_due = None, now + REJOIN_PAUSE

    def _rejoin(self, why: str, back: str) -> None:
        """Put this connection back into the room; ``back`` is said once the server says so.
        Until then the room's events would be answered not_in_room: none is sent."""
        self.rejoin_since = time.monotonic()
        self.back_words = back
        self.model.rejoining = True
        self.told.clear()
        self.model.note(why)
        self._send_join()

    def _check_join(self) -> None:
        """Give up on a first join, or send a join again, as time goes by. Getting back in is
        never given up for time: the room's grace period may outlast a slow way back (in a
        cluster whose Redis is away), and a room gone answers not_found."""
        now = time.monotonic()
        if not self.joined and self.join_sent_at is not None \
                and now - self.join_sent_at > JOIN_TIMEOUT:
            self._finish(1, "The server did not answer the join in time.")
        if self.rejoin_since is not None and now - self.rejoin_since > JOIN_TIMEOUT \
                and STILL_OUT not in self.told:
            # Not given up: a room that closes meanwhile answers not_found, which ends it.
            self._note_once(STILL_OUT, "error")
            self.dirty = True
        if self.exit_code is not None:
            return
        if (self.join_due is not None and now >= self.join_due) or (
                self.rejoin_since is not None and self.join_sent_at is not None
                and now - self.join_sent_at > REJOIN_WAIT):
            self._send_join()

    def on_ack(self, event: str, reply: object, sent: object = None) -> None:
        if not isinstance(reply, dict):
            self.model.note(f"The server gave no clear answer to {event}", "error")
            return
        if reply.get("ok") is True:
            if event == "join":
                self._joined(reply)
            else:
                seat = reply.get("seat")  # the seat add_local gave
                self._done(event, sent if isinstance(sent, dict) else {},
                           seat if isinstance(seat, int) else None)
            return
        err = reply.get("error") if isinstance(reply.get("error"), dict) else {}
        message = clean(err.get("message"), 200) or f"The server refused {event}"
        if event == "join":
            self._join_refused(err.get("code"), message)
            return
        if err.get("code") == "not_in_room" and self.joined:
            self._not_in_room()
            return
        if event == "move" and isinstance(sent, dict) and sent.get("move") == "slap":
            self.slaps.forget(sent.get("seat"))  # a refused slap took nothing: slap again
        self.model.note(message, "error")

    def _join_refused(self, code: object, message: str) -> None:
        """A first join refused ends the client; a rejoin refused with "try again" goes again
        (in a cluster, the room may be moving to another process)."""
        if not self.joined:
            self._finish(1, _refusal(f"Cannot join room {clean(self.code, 12)}", self.code,
                                     message))
        elif self.rejoin_since is None:
            return  # the answer to a join sent twice, the other answered ok: we are in
        elif code in TRY_AGAIN:
            self.join_sent_at, self.join_due = None, time.monotonic() + REJOIN_PAUSE
        else:
            self._finish(1, _refusal(f"Cannot get back into room {clean(self.code.upper(), 12)}",
                                     self.code, message))

    def _not_in_room(self) -> None:
        """The server has lost this connection's place in the room (e.g. another process of a
        cluster took the room over): get back in rather than leave every move refused."""
        if self.rejoin_since is None:
            self._rejoin(LOST_ROOM, BACK_IN)
        else:
            self._note_once(NOT_BACK, "error")

    def _done(self, event: str, sent: dict, reply_seat: int | None = None) -> None:
        """Say what a command did when nothing else on the screen shows it (``reply_seat``:
        the seat the server's answer gave, for add_local)."""
        if event == "set_turn_time":
            seconds = sent.get("seconds")
            self.model.note(f"Turn time set to {seconds} s" if seconds else "Turn time off",
                            "good")
        elif event == "back":
            self.model.note("Welcome back: you play your own turns again"
                            if self.away_when_back_sent
                            else "You were not away: no bot was playing for you", "good")
        elif event == "stand_in":
            name = self.model.seat_name(sent.get("seat"))
            self.model.note(f"A bot plays for {name} until they are back", "good")
        elif event == "ready":
            self.model.note(self._ready_words(sent.get("ready") is True), "good")
        elif event == "add_local":
            self._local_added(str(sent.get("name") or ""), reply_seat=reply_seat)

    def _ready_words(self, ready: bool) -> str:
        if self.model.is_host:  # the server accepts it and changes nothing: say why
            return ("The host is always ready: type /start when everyone is" if ready
                    else "The host is always ready: /unready changes nothing for you")
        return "You are ready: the host starts the game" if ready else "You are not ready"

    def _local_added(self, asked: str, reply_seat: int | None) -> None:
        """Say where the hot-seat player sits, and under which name when theirs was taken."""
        name = self.model.seat_name(reply_seat) if isinstance(reply_seat, int) else asked
        where = f" at seat {reply_seat}" if isinstance(reply_seat, int) else ""
        if name.lower() != asked.lower() and not name.startswith("Seat "):
            self.model.note(f"The name {asked} was taken: the hot-seat player is {name}{where}",
                            "good")
        else:
            self.model.note(f"{asked} joins{where}: you play their turns too", "good")

    def _joined(self, reply: dict) -> None:
        first, back = not self.joined, self.rejoin_since is not None
        self.joined = True
        self.join_sent_at = self.join_due = self.rejoin_since = None
        self.model.rejoining = False
        self.model.on_joined(reply)
        if back:
            self.model.note(self.back_words, "good")
        elif first:
            seats = self.model.my_seats
            where = f"at seat {', '.join(clean(s, 3) for s in seats)}"
            if self.model.spectator:  # asked for, or the server had no seat to give
                where = "as a spectator" if self.spectate else \
                    "as a spectator (no seat was free, or a game is on)"
            self.model.note(f"You joined room {clean(self.code.upper(), 12)} {where}. "
                            "Type /help for commands.", "good")

    # -- the keyboard ------------------------------------------------------------------------

    def on_key(self, key: str) -> None:
        if key == INTERRUPT or (key == EOF and not self.editor.text):
            self._quit()
            return
        if not self.editor.text and self._slapjack_key(key):
            return
        full = self.editor.overflowed
        line = self.editor.feed(key)
        self.dirty = True
        if self.editor.overflowed and not full:
            self.model.note(f"The line is full: a message is at most {MAX_LINE} "
                            "characters", "error")
        if line is not None:
            self.perform(commands.parse(line, self.model))

    def instant_keys(self) -> bool:
        """Whether Slapjack's one-key moves apply: I play in a Slapjack game that is on."""
        model = self.model
        return model.game == "slapjack" and model.status == "playing" \
            and not model.spectator and model.result() is None

    def _track_instant(self) -> None:
        """Note when the one-key moves stop applying (the game ended, I left the game)."""
        now = self.instant_keys()
        if self.instant and not now:
            self.instant_ended = time.monotonic()
        self.instant = now

    def _slapjack_key(self, key: str) -> bool:
        """Slapjack's one-key moves, taken only while nothing is typed. Just after they stop
        applying, an s or a space meant as a slap or a play is swallowed, not typed: it would
        start the next line ("ss/rematch" went out as chat)."""
        if key not in ("s", "S", " "):
            return False
        if not self.instant_keys():
            return time.monotonic() - self.instant_ended < INSTANT_AFTERGLOW
        model = self.model
        if key in ("s", "S"):
            self.perform(commands.slap(model) or commands.note("You cannot slap now"))
        else:
            self.perform(commands.play_card(model) or commands.note(self._why_no_play()))
        return True

    def _why_no_play(self) -> str:
        """Why the space bar plays nothing: no cards left (the view's count), or not my turn."""
        state = self.model.main_state() or {}
        view = state.get("view") if isinstance(state.get("view"), dict) else {}
        seat = state.get("seat")
        counts = view.get("stacks_count")
        if isinstance(counts, list) and isinstance(seat, int) and 0 <= seat < len(counts) \
                and counts[seat] == 0:
            return "You have no cards to play"
        return "It is not your turn" if view.get("current") != seat else "You cannot play now"

    def perform(self, action: Action | None) -> None:
        if action is None:
            return
        self.dirty = True
        if action.kind == "send":
            self._send(action.event, action.payload)
        elif action.kind == "help":
            for line in commands.help_lines(self.model.game):
                self.model.note(line)
        elif action.kind == "quit":
            self._quit()
        else:
            self.model.note(action.text, "error")

    def _send(self, event: str, payload: dict) -> None:
        if self.rejoin_since is not None:  # it would be answered not_in_room
            self._note_once(NOT_BACK, "error")
            return
        slap_seat = self._slap_seat(event, payload)
        if slap_seat is not False and not self.slaps.allow(
                slap_seat, self._slap_seen(slap_seat, payload), time.monotonic()):
            return  # this seat already slapped this pile, or did a moment ago
        if event == "back":
            self.away_when_back_sent = self.model.away
        if not self.link.send(event, payload):
            if slap_seat is not False:
                self.slaps.forget(slap_seat)
            self._note_once(NOT_SENT, "error")

    def _slap_seat(self, event: str, payload: dict) -> int | None | bool:
        """The seat a slap is for (None: my only seat), or False for anything but a slap."""
        if event != "move" or payload.get("move") != "slap":
            return False
        return payload.get("seat") if isinstance(payload.get("seat"), int) else None

    def _slap_seen(self, seat: int | None, payload: dict) -> tuple:
        """(round, version) of the view a slap names: one slap per seat per view."""
        state = self.model.states.get(seat if seat is not None else
                                      (self.model.my_seats or [None])[0]) or {}
        args = payload.get("args") or [state.get("version")]
        return (state.get("round"), args[0])

    # -- ending ------------------------------------------------------------------------------

    def _quit(self) -> None:
        """Leave on purpose (the host's leaving closes the room for everyone), then stop. The
        same words for /quit, Ctrl-C and Ctrl-D: each leaves the room."""
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the leave
        message = "Bye."
        if self.joined and self.model.closed_reason is None:
            self.link.call("leave", {}, timeout=2.0)
            message = f"You left room {clean(self.code.upper(), 12)}."
            if self.model.is_host:
                message += " As you were its host, it is closed for everyone."
        self._finish(0, message)

    def _finish(self, code: int, message: str) -> None:
        if self.exit_code is None:
            self.exit_code = code
            self.farewell = message

    # -- drawing -----------------------------------------------------------------------------

    def draw(self) -> None:
        self.dirty = False
        size = shutil.get_terminal_size((100, 30))
        try:
            lines = frame(self.model, size.columns, size.lines, self.color)
        except Exception as exc:  # a drawing bug: show it in one line, keep playing
            lines = [f"Gaming Lounge: the screen could not be drawn ({exc!r})"[:size.columns]]
        prompt = self._prompt(size.columns)
        if self.out.isatty():
            body = (ERASE_LINE + "\n").join(lines[:max(1, size.lines - 1)])
            start = HOME if self.cleared else CLEAR + HOME
            self.cleared = True
            self._write(start + body + ERASE_LINE + "\n" + prompt + ERASE_BELOW)
        else:
            self._write("\n".join(lines) + "\n" + prompt + "\n")

    def _prompt(self, width: int) -> str:
        label = "(s: slap, space: play) > " if self.instant_keys() else "> "
        room = max(10, width - len(label) - 1)
        return label + self.editor.text[-room:]

    def _write(self, text: str) -> None:
        try:
            self.out.write(text)
            self.out.flush()
        except OSError:
            pass  # the terminal went away; the loop ends on the next read


def closed_with_reason(code: str, message: str) -> bool:
    """Whether the server's refusal says why the room with this code closed (docs/protocol.md:
    "Room K7MPQ2 has closed: ..."): a sentence that says it all."""
    return message.startswith(f"Room {code.strip().upper()} has closed: ")


def _refusal(start: str, code: str, message: str) -> str:
    """Why a join was refused, after ``start`` ("Cannot join room K7MPQ2"), unless the server's
    sentence says it all."""
    return message if closed_with_reason(code, message) else f"{start}: {lower_first(message)}"


class _NoRoom(Exception):
    """There is no room with the code given to --join: what to print."""


def _check_room(rest: Rest, code: str) -> None:
    """Say at once when the room to join does not exist, before the screen is drawn (the
    join itself may still fail, and says why)."""
    try:
        rest.room(code)
    except ServerError as exc:
        if exc.code != "not_found":
            raise
        if closed_with_reason(code, exc.message):
            raise _NoRoom(clean(exc.message)) from None
        # said here otherwise: a code with a slash reaches no room's URL
        shown = clean(code, 12)
        raise _NoRoom(f"Cannot join room {shown}: there is no room '{shown}'") from None


def games_by_slug(games: dict) -> dict[str, dict]:
    """The games of ``GET /api/games`` by slug (anything not shaped like a game left out)."""
    listed = games.get("games") if isinstance(games, dict) else None
    return {g["slug"]: g for g in listed if isinstance(g, dict) and isinstance(g.get("slug"), str)
            } if isinstance(listed, list) else {}


def _start_problem(exc: ServerError, games: dict) -> str:
    """Why the client cannot start, in one sentence (the server's own when it gave one)."""
    if exc.code in ("unreachable", "bad_url"):
        return exc.message  # already a whole sentence: "Cannot reach the server at …"
    return f"Cannot start: {lower_first(exc.message)}{_game_list(games, exc)}"


def _game_list(games: dict, exc: ServerError) -> str:
    """For a refused ``--create``: the games the server has."""
    listed = games.get("games") if isinstance(games, dict) else None
    if exc.code != "bad_request" or not isinstance(listed, list):
        return ""
    slugs = [clean(g.get("slug"), 32) for g in listed if isinstance(g, dict)]
    return f". Games: {', '.join(slugs)}" if slugs else ""


def _raise_interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    """``python -m backend.terminal``: the same as ``lounge play``."""
    parser = argparse.ArgumentParser(prog="lounge play", description="play in a lounge room")
    add_arguments(parser)
    return run(parser.parse_args(argv))
