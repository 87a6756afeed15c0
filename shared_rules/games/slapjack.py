"""Slapjack: play the top card of your stack, slap Jacks, pairs and sandwiches, win all 52 cards.

A real-time game: ``slap`` may come from any seat at any moment. State ``G`` (plain data, never
changed in place):

- ``stacks``: one face-down stack per seat, top card first (secret from everyone, the owner too:
  views carry only ``stacks_count``).
- ``pile``: the face-up central pile, bottom card first (public).
- ``version``: the match version after the last action, so that ``legal_moves`` can offer
  ``slap(version)``; the engine's own ``version`` field replaces it in views (same value).
- ``pile_version``: the version at which the pile was last taken or slapped (a late slap does
  not count). A slap naming an older version is late; a play does not change it, because a slap
  is judged on the pile as it is when it arrives.
- ``pile_slapped``: whether someone has already slapped this pile since the last card was played.
- ``plays``: how many cards have been played, for the 2,000-play limit.
- ``events``: the last few slaps and departures, public, without card names.
"""

from .. import describe as log
from ..cards import DECK, rank
from ..engine import Game, Move, Turn
from ..errors import InvalidMove
from . import load_rules

PLAY_LIMIT = 2000
BAD_SLAP_COST = 3
EVENTS_KEPT = 8
REASON_WORDS = {"jack": "a jack", "pair": "a pair", "sandwich": "a sandwich"}
# A late slap: the pile was slapped already (perhaps wrongly, perhaps by the same player), or
# taken since the version the slap named.
LATE_WORDS = {"slapped": "a pile already slapped", "taken": "too late"}


def setup(t: Turn) -> dict:
    """Deal the whole shuffled deck one card at a time from seat 0: the first seats may get one
    card more."""
    deck = t.shuffle(DECK)
    n = t.num_players
    return {
        "stacks": [deck[seat::n] for seat in range(n)], "pile": [], "version": 0,
        "pile_version": 0, "pile_slapped": False, "plays": 0, "events": [],
    }


# -- reading the pile ---------------------------------------------------------------------------

def slap_reason(pile: list[str]) -> str | None:
    """Why a slap on this pile (bottom card first) is good: "jack", "pair", "sandwich", or None."""
    if not pile:
        return None
    top = rank(pile[-1])
    if top == "J":
        return "jack"
    if len(pile) >= 2 and rank(pile[-2]) == top:
        return "pair"
    if len(pile) >= 3 and rank(pile[-3]) == top:
        return "sandwich"
    return None


def can_win_pile(G: dict) -> bool:
    """Whether a slap judged on the pile as it is now would be good."""
    return not G["pile_slapped"] and slap_reason(G["pile"]) is not None


# -- moves --------------------------------------------------------------------------------------

def play(G: dict, t: Turn) -> dict:
    """The current seat turns the top card of its stack onto the pile."""
    stack = G["stacks"][t.seat]
    if not stack:
        raise InvalidMove("You have no cards left to play")
    stacks = list(G["stacks"])
    stacks[t.seat] = stack[1:]
    version = t.version + 1
    return {**G, "stacks": stacks, "pile": [*G["pile"], stack[0]], "version": version,
            "pile_slapped": False, "plays": G["plays"] + 1}


def play_options(G: dict, ctx: dict, seat: int) -> list[tuple]:
    return [()] if G["stacks"][seat] else []


def slap(G: dict, t: Turn, version: int | None = None) -> dict:
    """Any seat slaps the pile it saw at ``version`` (None: the pile as it is now).

    The slap is judged on the pile as it is when it arrives. It is late only if the pile was
    taken or slapped since ``version``, or has already been slapped: a card played meanwhile on
    a pile that stays slappable (a jack on a jack, a pair on a pair) does not make it late."""
    if version is not None:
        _check_version(version, t.version)
    late = _late(G, version)
    reason = None if late else slap_reason(G["pile"])
    if reason is not None:
        return _good_slap(G, t, reason)
    return _bad_slap(G, t, late)


def _late(G: dict, version: int | None) -> str | None:
    """Why a slap naming ``version`` is late: the pile was already "slapped", or "taken" (or
    slapped) since that version; None when it is not."""
    if G["pile_slapped"]:
        return "slapped"
    return "taken" if version is not None and version < G["pile_version"] else None


def _check_version(version: int, now: int) -> None:
    if version < 0:
        raise InvalidMove(f"There is no version {version}: versions start at 0")
    if version > now:
        raise InvalidMove(f"There is no version {version} yet: the table is at version {now}")


def _good_slap(G: dict, t: Turn, reason: str) -> dict:
    """The slapper takes the whole pile under their stack and plays next."""
    seat, pile, version = t.seat, G["pile"], t.version + 1
    stacks = list(G["stacks"])
    stacks[seat] = stacks[seat] + pile
    t.end_turn(seat)
    text = f"Seat {seat} slapped {REASON_WORDS[reason]} and took {_cards(len(pile))}"
    event = _event(version, seat, "good", len(pile), text, reason)
    return {**G, "stacks": stacks, "pile": [], "version": version, "pile_version": version,
            "pile_slapped": False, "events": _log(G, event)}


def _bad_slap(G: dict, t: Turn, late: str | None) -> dict:
    """A wrong or late slap (``late``: the pile was already "slapped", or "taken" since the
    version the slap named): the slapper's top three cards go face up under the pile."""
    seat, version = t.seat, t.version + 1
    stack = G["stacks"][seat]
    given = stack[:BAD_SLAP_COST]
    stacks = list(G["stacks"])
    stacks[seat] = stack[BAD_SLAP_COST:]
    if seat == t.current and not stacks[seat]:
        t.end_turn()  # a player with no cards cannot take their turn: it passes on
    kind = "late" if late else "bad"
    what = LATE_WORDS.get(late, "wrongly")
    text = (f"Seat {seat} slapped {what} and put {_cards(len(given))} under the pile" if given
            else f"Seat {seat} slapped {what} but had no cards to give")
    event = _event(version, seat, kind, len(given), text, late)
    if late:  # aimed at an earlier pile: it does not count as slapping this one
        return {**G, "stacks": stacks, "pile": given + G["pile"], "version": version,
                "events": _log(G, event)}
    return {**G, "stacks": stacks, "pile": given + G["pile"], "version": version,
            "pile_version": version, "pile_slapped": True, "events": _log(G, event)}


def slap_options(G: dict, ctx: dict, seat: int) -> list[tuple]:
    if not G["stacks"][seat] and seat != ctx["current"] and not can_win_pile(G):
        return []  # a player with no cards may slap only to win the pile back
    return [(), (G["version"],)]


def idle_slap(G: dict, ctx: dict, seat: int, args: tuple) -> str | None:
    """A wrong or late slap by a player with no cards would cost nothing and change nothing:
    it is refused instead of being played (and logged)."""
    if G["stacks"][seat] or seat == ctx["current"]:
        return None
    if not _late(G, args[0] if args else None) and slap_reason(G["pile"]) is not None:
        return None
    return "You have no cards: only a good slap can bring you back"  # short: read mid-game


# -- events -------------------------------------------------------------------------------------

def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _event(version: int, seat: int, kind: str, cards: int, text: str,
           reason: str | None = None) -> dict:
    return {"version": version, "seat": seat, "kind": kind, "reason": reason, "cards": cards,
            "text": text}


def _log(G: dict, event: dict) -> list[dict]:
    return [*G["events"][-(EVENTS_KEPT - 1):], event]


# -- hooks --------------------------------------------------------------------------------------

def end_if(G: dict, ctx: dict) -> dict | None:
    """All 52 cards in one stack; the play limit; or no cards in any stack and no pile to win."""
    counts = [len(stack) for stack in G["stacks"]]
    if len(DECK) in counts:
        return {"winner": counts.index(len(DECK))}
    if G["plays"] >= PLAY_LIMIT:
        return _most_cards(counts)
    if not any(counts) and not can_win_pile(G):
        return {"draw": True}
    return None


def _most_cards(counts: list[int]) -> dict:
    best = max(counts)
    leaders = [seat for seat, count in enumerate(counts) if count == best]
    return {"winner": leaders[0]} if len(leaders) == 1 else {"draw": True}


def on_drop(G: dict, t: Turn, seat: int) -> dict:
    """The leaver's stack goes face up under the pile; the pile's version does not change."""
    stack = G["stacks"][seat]
    stacks = list(G["stacks"])
    stacks[seat] = []
    version = t.version + 1
    text = f"Seat {seat} left; their {_cards(len(stack))} went under the pile"
    event = _event(version, seat, "left", len(stack), text)
    return {**G, "stacks": stacks, "pile": stack + G["pile"], "version": version,
            "events": _log(G, event)}


def skip(G: dict, seat: int) -> bool:
    """A seat with no cards is passed over when the turn moves on."""
    return not G["stacks"][seat]


def view(v: dict, seat: int | None) -> dict:
    """Conveniences for clients, derived from the public pile."""
    pile = v["pile"]
    return {"top": pile[-1] if pile else None, "pile_count": len(pile), "play_limit": PLAY_LIMIT}


def determinize(v: dict, t: Turn) -> dict:
    """Every card not on the pile, dealt at random into stacks of the sizes the view shows."""
    pile = list(v["pile"])
    counts = v["stacks_count"]
    unseen = t.shuffle(sorted(set(DECK) - set(pile)))
    if len(pile) + sum(counts) != len(DECK) or len(unseen) != sum(counts):
        raise ValueError("The view does not account for all 52 cards")
    stacks, start = [], 0
    for count in counts:
        stacks.append(unseen[start:start + count])
        start += count
    return {
        "stacks": stacks, "pile": pile, "version": v["version"],
        "pile_version": v["pile_version"], "pile_slapped": v["pile_slapped"],
        "plays": v["plays"], "events": [dict(e) for e in v["events"]],
    }


def describe(prev: dict, nxt: dict, names: list[str], actor: int | None) -> list[str]:
    """The log lines of an action: the card turned up, and the rules' own events."""
    lines = []
    if nxt["plays"] > prev["plays"] and nxt.get("top"):
        mover = log.who(names, actor if actor is not None else prev.get("current"))
        lines.append(f"{mover} turned up {log.card_name(nxt['top'])}")
    for event in nxt.get("events") or []:
        if event["version"] > prev["version"]:
            lines.append(_seat_names(event["text"], names))
    return lines


def _seat_names(text: str, names: list[str]) -> str:
    """The rules' "Seat 2" (numbered from 0 in the rules' texts) as the player's name."""
    words = text.split(" ")
    out = []
    i = 0
    while i < len(words):
        number = words[i + 1].rstrip(".,:;!") if i + 1 < len(words) else ""
        if words[i] == "Seat" and number.isdigit():
            tail = words[i + 1][len(number):]
            out.append(log.who(names, int(number)) + tail)
            i += 2
        else:
            out.append(words[i])
            i += 1
    return " ".join(out)


GAME = Game(
    slug="slapjack",
    title="Slapjack",
    summary="Fast hands: slap the Jacks, pairs and sandwiches.",
    min_players=2,
    max_players=6,
    rules=load_rules("slapjack"),
    setup=setup,
    moves={
        "play": Move(play, play_options, words=("turn up your top card",)),
        "slap": Move(slap, slap_options, args=(int,), names=("version",), min_args=0,
                     anyone=True, ends_turn=False, idle=idle_slap, words=("slap the pile",)),
    },
    end_if=end_if,
    view=view,
    describe=describe,
    secret=("stacks",),
    on_drop=on_drop,
    skip=skip,
    determinize=determinize,
    max_log=25_000,  # ten times the longest bot game seen (docs/rules-engine.md)
)
