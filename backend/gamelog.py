"""The game log of a room's current game, written on the server for each reader (each seat,
and the spectators), from the match log: every line comes from two views that reader may
see (:mod:`shared_rules.describe`), so no line names a card hidden from its reader.

Clients get the whole log with the first state after they join, then only the new lines with
each state; a take-back removes the lines of the move it took back. The spectators' lines are
written only once someone sees the spectator view: from the game's start when they come.
"""

from __future__ import annotations

from shared_rules import BEGINS, Match, StandInLines, describe, new_match

Reader = int | None
Line = dict  # {"version": int, "text": str}


def opening_line(round_: int, match: Match, names: list[str]) -> str:
    """The log's first line. A rematch moved every seat one place round the table: it says so,
    and who starts, which the table alone does not make plain."""
    if round_ <= 1:
        return BEGINS
    first = match.ctx.get("current")
    starts = f", so {names[first]} starts" if isinstance(first, int) and first < len(names) else ""
    return f"Game {round_} begins: everyone moved one seat round{starts}"


class GameLog:
    """The lines of one game for every reader, and what each was last told."""

    def __init__(self, round_: int, match: Match, names: list[str],
                 stand_ins: dict[int, str] | None = None, spectators: bool = True,
                 seats: bool = True) -> None:
        self.round = round_
        self.readers: list[Reader] = [None] * spectators + [*range(match.num_players)] * seats
        self.lines: dict[Reader, list[Line]] = {r: [] for r in self.readers}
        self.played: list[int] = []  # the versions of moves a take-back could remove
        # the log starts from the game's start: the match itself when it is there (a new game)
        self.match = match if match.version == 0 else new_match(
            match.game.slug, match.num_players, match.seed)
        self.views: dict[Reader, dict] = {}  # each reader's view of self.match, once asked
        self.stood_in = StandInLines()
        opening = opening_line(round_, self.match, names)
        for reader in self.readers:
            self.lines[reader].append({"version": 0, "text": opening})
        self.advance(match, names, stand_ins)

    def follows(self, round_: int, match: Match) -> bool:
        """Whether ``match`` is this log's game, at or after what it has described."""
        return round_ == self.round and match.version >= self.match.version and (
            match.version > self.match.version or match is self.match)

    def advance(self, match: Match, names: list[str],
                stand_ins: dict[int, str] | None = None) -> dict[Reader, dict]:
        """Describe every action from where the log is to ``match`` (``stand_ins``: the
        versions a bot played for a player, and why); per reader, the news:
        ``{"log": [new lines], "log_undone": [versions whose lines are gone]}``."""
        stand_ins = stand_ins or {}
        news: dict[Reader, dict] = {r: {"log": [], "log_undone": []} for r in self.readers}
        for entry in match.log_tail(match.version - self.match.version):
            # The last entry leads to the room's own match: no need to play it again.
            after = match if self.match.version + 1 == match.version else self.match.act(entry)
            before_views = {r: self.view(r) for r in self.readers}
            said = self.stood_in.line(stand_ins.get(after.version), names, entry["seat"],
                                      self.match.ctx["turn"])
            self.match, self.views = after, {}
            if entry["move"] == "undo" and self.played:
                taken = self.played.pop()
                for reader in self.readers:
                    self.lines[reader] = [x for x in self.lines[reader]
                                          if x["version"] != taken]
                    news[reader]["log_undone"].append(taken)
            elif entry["move"] != "drop":
                self.played.append(after.version)
            for reader in self.readers:
                for text in said + describe(after.game, before_views[reader], self.view(reader),
                                            names, entry["seat"], entry["move"]):
                    line = {"version": after.version, "text": text}
                    self.lines[reader].append(line)
                    news[reader]["log"].append(line)
        if self.match is not match:  # the room's own object, so the next change follows it
            self.match, self.views = match, {}
        return news

    @property
    def spectated(self) -> bool:
        """Whether the spectators' lines are written."""
        return None in self.lines

    def add_spectators(self, names: list[str], stand_ins: dict[int, str] | None = None) -> None:
        """Write the spectators' lines too from now on, starting with those of the moves so
        far (someone sees the spectator view)."""
        if not self.spectated:
            replay = GameLog(self.round, self.match, names, stand_ins, seats=False)
            self.readers.insert(0, None)
            self.lines[None] = replay.lines[None]

    def view(self, reader: Reader) -> dict:
        """The reader's view of the match this log has reached (computed once: the state
        sent to that reader is made of the same view)."""
        view = self.views.get(reader)
        if view is None:
            view = self.views[reader] = self.match.view(reader)
        return view

    def full(self, reader: Reader) -> dict:
        """The whole log of one reader, to replace what a client has."""
        return {"log": list(self.lines.get(reader, [])), "log_full": True}
