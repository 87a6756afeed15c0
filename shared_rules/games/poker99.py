"""Poker 99: play a card, keep the running total within 0..99, and outlast everyone.

State ``G`` (plain data, never changed in place):

- ``total``: the running total, 0..99.
- ``hands``: one list of cards per seat (private: each seat sees only its own).
- ``deck``: the draw deck, drawn from the end (secret: everyone sees only its size).
- ``discards``: the played cards under the last one, and the hands of players who went out or
  left (secret, so those cards are never shown).
- ``last``: the last play, ``{"card", "seat", "choice"}``, or None before the first play.
- ``status``: per seat ``"in"``, ``"out"`` or ``"left"``.
- ``reshuffles``: how many times the played cards became a new draw deck.
"""

from .. import describe as log
from ..cards import CARD_SET, DECK, card_name, deal_unseen
from ..engine import Game, Move, Turn
from ..errors import InvalidMove
from . import load_rules

MAX_TOTAL = 99
HAND_SIZE = 5
SIGNED = {"10": 10, "Q": 20}  # ranks that add or subtract, and by how much
STILL = frozenset({"4", "J"})  # ranks that add 0 (the 5 too, see _effect)
NUMBERS = {"A": 1, "2": 2, "3": 3, "6": 6, "7": 7, "8": 8, "9": 9}
SIGNS = ("+", "-")


def setup(t: Turn) -> dict:
    deck = t.shuffle(DECK)
    n = t.num_players
    hands = [deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(n)]
    return {
        "total": 0, "hands": hands, "deck": deck[n * HAND_SIZE:], "discards": [], "last": None,
        "status": ["in"] * n, "reshuffles": 0,
    }


# -- what a card does ---------------------------------------------------------------------------


def _effect(card: str) -> tuple[str, int]:
    """What a card does, as (kind, amount): "add" an amount, "set" the total to it, "signed"
    (add or subtract it), or "name" (the 5: add 0 and choose who plays next)."""
    rank = card[:-1]
    if rank in SIGNED:
        return "signed", SIGNED[rank]
    if rank == "K":
        return "set", MAX_TOTAL
    if card == "AS":
        return "set", 1
    if rank == "5":
        return "name", 0
    return "add", 0 if rank in STILL else NUMBERS[rank]


EFFECTS: dict[str, tuple[str, int]] = {card: _effect(card) for card in DECK}


def outcomes(card: str, total: int) -> list[tuple[str | None, int]]:
    """Every (sign, new total) a card could give from ``total``, in range or not; the sign is
    None for cards that take no "+" or "-"."""
    kind, amount = EFFECTS[card]
    if kind == "signed":
        return [("+", total + amount), ("-", total - amount)]
    if kind == "set":
        return [(None, amount)]
    return [(None, total + amount)]


def in_range(total: int) -> bool:
    return 0 <= total <= MAX_TOTAL


def can_play(hand: list[str], total: int) -> bool:
    """Whether any card of the hand keeps the total within 0..99."""
    for card in hand:
        kind, amount = EFFECTS[card]
        if kind in ("set", "name") or total + amount <= MAX_TOTAL:
            return True
        if kind == "signed" and total - amount >= 0:
            return True
    return False


def _range_error(card: str, new_total: int) -> InvalidMove:
    if new_total > MAX_TOTAL:
        return InvalidMove(f"The {card_name(card)} would take the total to {new_total}, "
                           f"above {MAX_TOTAL}")
    return InvalidMove(f"The {card_name(card)} would take the total to {new_total}, below 0")


# -- checking a play ----------------------------------------------------------------------------


def _check_card(G: dict, seat: int, card: str) -> None:
    if card not in CARD_SET:
        raise InvalidMove(f"{card!r} is not a card: write cards like 7H, 10C or QS")
    if card not in G["hands"][seat]:
        raise InvalidMove(f"You do not hold the {card_name(card)}")


def _check_target(t: Turn, card: str, choice: int | str | None) -> None:
    """A 5 names who plays next: any other player still in."""
    if choice is None:
        raise InvalidMove(f"With the {card_name(card)} you choose who plays next: "
                          "add their seat number")
    if not isinstance(choice, int):
        raise InvalidMove(f"The {card_name(card)} takes the seat number of who plays next, "
                          f"not {choice!r}")
    if choice == t.seat:
        raise InvalidMove(f"With the {card_name(card)} you must choose another player, "
                          "not yourself")
    if not 0 <= choice < t.num_players:
        raise InvalidMove(f"There is no seat {choice}")
    if not t.in_play(choice):
        raise InvalidMove(f"Seat {choice} is no longer in the game")


def _new_total(card: str, choice: int | str | None, total: int) -> int:
    """The total after playing ``card`` with ``choice``, checking the choice fits the card."""
    kind, amount = EFFECTS[card]
    if kind == "signed":
        if choice not in SIGNS:
            raise InvalidMove(f"Say whether the {card_name(card)} adds or subtracts "
                              f"{amount}: \"+\" or \"-\"")
        new = total + amount if choice == "+" else total - amount
    else:
        if kind != "name" and choice is not None:
            raise InvalidMove(f"The {card_name(card)} takes no choice: play it on its own")
        new = amount if kind == "set" else total + amount
    if not in_range(new):
        raise _range_error(card, new)
    return new


# -- the move -----------------------------------------------------------------------------------


def _draw(G: dict, discards: list, t: Turn) -> tuple[str | None, list, list, int]:
    """The drawn card (None if there is none), the new deck, discards and reshuffle count.
    An empty deck is first rebuilt from the played cards under the last one."""
    deck, reshuffles = G["deck"], G["reshuffles"]
    if not deck and discards:
        deck, discards, reshuffles = t.shuffle(discards), [], reshuffles + 1
    if not deck:
        return None, deck, discards, reshuffles
    return deck[-1], deck[:-1], discards, reshuffles


def play(G: dict, t: Turn, card: str, choice: int | str | None = None) -> dict:
    """Play a card from your hand, change the total, then draw one card."""
    seat = t.seat
    _check_card(G, seat, card)
    if card[:-1] == "5":
        _check_target(t, card, choice)
    total = _new_total(card, choice, G["total"])
    last = G["last"]
    discards = G["discards"] if last is None else [*G["discards"], last["card"]]
    drawn, deck, discards, reshuffles = _draw(G, discards, t)
    hand = [c for c in G["hands"][seat] if c != card]
    if drawn is not None:
        hand.append(drawn)
    hands = list(G["hands"])
    hands[seat] = hand
    rank = card[:-1]
    if rank == "4":
        t.reverse()
    elif rank == "5":
        t.end_turn(choice)
    return {
        "total": total, "hands": hands, "deck": deck, "discards": discards,
        "last": {"card": card, "seat": seat, "choice": choice}, "status": G["status"],
        "reshuffles": reshuffles,
    }


def play_options(G: dict, ctx: dict, seat: int) -> list[tuple]:
    total = G["total"]
    found: list[tuple] = []
    for card in G["hands"][seat]:
        kind, amount = EFFECTS[card]
        if kind == "name":
            gone = (*ctx["out"], *ctx["left"], seat)
            found += [(card, s) for s in range(ctx["num_players"]) if s not in gone]
        elif kind == "signed":
            if total + amount <= MAX_TOTAL:
                found.append((card, "+"))
            if total - amount >= 0:
                found.append((card, "-"))
        elif kind == "set" or total + amount <= MAX_TOTAL:
            found.append((card,))
    return found


# -- turns, leaving, the end --------------------------------------------------------------------


def _retire(G: dict, seat: int, status: str) -> dict:
    """The seat's cards go to the played cards (unseen) and its status changes."""
    hands = list(G["hands"])
    discards = [*G["discards"], *hands[seat]]
    hands[seat] = []
    statuses = list(G["status"])
    statuses[seat] = status
    return {**G, "hands": hands, "discards": discards, "status": statuses}


def on_turn_begin(G: dict, t: Turn) -> dict:
    """A player who cannot keep the total within 0..99 is out, and the turn passes on."""
    seat = t.seat
    if can_play(G["hands"][seat], G["total"]):
        return G
    players_in = sum(1 for s in range(t.num_players) if t.in_play(s))
    if players_in < 2:  # the last one standing has already won
        return G
    t.set_out(seat)
    t.end_turn()
    return _retire(G, seat, "out")


def on_drop(G: dict, t: Turn, seat: int) -> dict:
    if G["status"][seat] != "in":
        return G
    return _retire(G, seat, "left")


def end_if(G: dict, ctx: dict) -> dict | None:
    # The engine declares the last player still in the winner (out_is_eliminated).
    return None


def view(v: dict, seat: int | None) -> dict:
    hand = v["hands"]
    return {"max_total": MAX_TOTAL, "hand_size": HAND_SIZE,
            "last_card": None if v["last"] is None else v["last"]["card"],
            # So that a client can say "add 10" without knowing what a card is worth.
            "signed_amounts": None if hand is None else {
                card: EFFECTS[card][1] for card in hand if EFFECTS[card][0] == "signed"}}


def determinize(v: dict, t: Turn) -> dict:
    """A full state agreeing with one seat's view: every card it has not seen (all but its hand
    and the last card played) dealt at random into the other hands, the deck and the discards."""
    seat = v["seat"]
    own = list(v["hands"] or [])
    seen = set(own)
    if v["last"] is not None:
        seen.add(v["last"]["card"])
    unseen = t.shuffle(c for c in DECK if c not in seen)
    hands, (deck, discards) = deal_unseen(unseen, seat, own, v["hands_count"],
                                          [v["deck_count"], v["discards_count"]])
    return {
        "total": v["total"], "hands": hands, "deck": deck, "discards": discards,
        "last": None if v["last"] is None else dict(v["last"]), "status": list(v["status"]),
        "reshuffles": v["reshuffles"],
    }


def describe(prev: dict, nxt: dict, names: list[str], actor: int | None) -> list[str]:
    """The log lines of an action: the card played and the total, and who went out."""
    lines = []
    last = nxt.get("last")
    if last and nxt["turn"] != prev["turn"] and last != prev.get("last"):
        choice = last.get("choice")
        extra = ""
        if choice in ("+", "-"):
            extra = " (adding)" if choice == "+" else " (subtracting)"
        elif isinstance(choice, int):
            extra = f", choosing {log.who(names, choice)}"
        lines.append(f"{log.who(names, last['seat'])} played {log.card_name(last['card'])}{extra}: "
                     f"total {nxt['total']}")
    before = prev.get("status") or []
    for seat, status in enumerate(nxt.get("status") or []):
        was = before[seat] if seat < len(before) else None
        if status == "out" and was != "out" and seat not in nxt["left"]:
            lines.append(f"{log.who(names, seat)} is out")
    return lines


GAME = Game(
    slug="poker99",
    title="Poker 99",
    summary="Keep the total at 99 or under, or you are out.",
    min_players=2,
    max_players=6,
    rules=load_rules("poker99"),
    setup=setup,
    moves={"play": Move(play, play_options, args=(str, (int, str)), names=("card", "choice"),
                        min_args=1,
                        words=("play {card:card}, {choice:seat} plays next",
                               "play {card:card} {choice:label}", "play {card:card}"),
                        labels={"+": "(adding)", "-": "(subtracting)"})},
    end_if=end_if,
    view=view,
    describe=describe,
    secret=("deck", "discards"),
    private=("hands",),
    on_turn_begin=on_turn_begin,
    on_drop=on_drop,
    out_is_eliminated=True,
    determinize=determinize,
    max_log=25_000,  # ten times the longest bot game seen (docs/rules-engine.md)
)
