"""Nine Locks: play cards onto a 3×3 grid of piles that lock at five cards; a 9 is a key.

State ``G`` (plain data, never changed in place):

- ``piles``: the face-up cards of each of the 9 piles, bottom first (``[]`` while face down).
- ``pile_states``: ``"down"``, ``"unlocked"`` or ``"locked"`` for each pile.
- ``facedown`` (secret): the hidden card of each face-down pile, ``None`` once turned up.
- ``deck`` (secret): the draw deck; its last card is the top.
- ``visible``: each seat's visible hand (everyone sees it).
- ``hidden`` (private): each seat's hidden hand (only its owner sees it).
"""

from __future__ import annotations

from .. import describe as log
from ..cards import CARD_SET, DECK, RANKS, card_name, is_red, rank
from ..engine import Game, Move, Turn
from ..errors import InvalidMove
from . import load_rules

NUM_PILES = 9
CENTRE = 4
HAND_SIZE = 3
LOCK_EVERY = 5
KEY_RANK = "9"
DOWN, UNLOCKED, LOCKED = "down", "unlocked", "locked"


def _fits(card: str, top: str) -> bool:
    """Same colour and one rank apart (wrapping K-A), or same rank in the other colour."""
    if is_red(card) == is_red(top):
        gap = (RANKS.index(rank(card)) - RANKS.index(rank(top))) % len(RANKS)
        return gap in (1, len(RANKS) - 1)
    return rank(card) == rank(top)


# For each top card, the set of cards that may go on it: the rule is checked by one lookup.
FITS: dict[str, frozenset[str]] = {
    top: frozenset(card for card in DECK if _fits(card, top)) for top in DECK
}


# -- setup ---------------------------------------------------------------------------------------


def setup(t: Turn) -> dict:
    """Deal two hands of three to each seat, a 3×3 grid face down but the centre, the deck."""
    deck = t.shuffle(DECK)
    n = t.num_players
    visible = [deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(n)]
    dealt = n * HAND_SIZE
    hidden = [deck[dealt + i * HAND_SIZE:dealt + (i + 1) * HAND_SIZE] for i in range(n)]
    dealt *= 2
    facedown: list[str | None] = deck[dealt:dealt + NUM_PILES]
    piles: list[list[str]] = [[] for _ in range(NUM_PILES)]
    pile_states = [DOWN] * NUM_PILES
    # Turning the centre at the deal is not a reveal by a player: a 9 there gives no key.
    piles[CENTRE] = [facedown[CENTRE]]
    pile_states[CENTRE] = UNLOCKED
    facedown[CENTRE] = None
    return {
        "piles": piles, "pile_states": pile_states, "facedown": facedown,
        "deck": deck[dealt + NUM_PILES:], "visible": visible, "hidden": hidden,
    }


# -- checking arguments --------------------------------------------------------------------------


def _check_pile(pile: int) -> None:
    if not 0 <= pile < NUM_PILES:
        raise InvalidMove(f"There is no pile {pile}: piles are 0 to 8")


def _check_card(card: str) -> None:
    if card not in CARD_SET:
        raise InvalidMove(f"{card!r} is not a card: write rank then suit, like 10H or QS")


def _a(card: str) -> str:
    """The card's name after a capital article: "An 8 of clubs", "A 7 of clubs"."""
    name = card_name(card)
    return ("An " if name[0] in "a8" else "A ") + name


def _the(card: str) -> str:
    return "the " + card_name(card)


# -- the moves -----------------------------------------------------------------------------------


def play(G: dict, t: Turn, card: str, pile: int) -> dict:
    """Put a held card on an unlocked pile it fits; a 9 then needs the key."""
    _check_card(card)
    _check_pile(pile)
    seat = t.seat
    visible, hidden = G["visible"], G["hidden"]
    in_visible = card in visible[seat]
    if not in_visible and card not in hidden[seat]:
        raise InvalidMove(f"You do not hold {_the(card)}")
    state = G["pile_states"][pile]
    if state == DOWN:
        raise InvalidMove(f"Pile {pile + 1} is face down: you can only play on an unlocked pile")
    if state == LOCKED:
        raise InvalidMove(f"Pile {pile + 1} is locked: you can only play on an unlocked pile")
    top = G["piles"][pile][-1]
    if card not in FITS[top]:
        raise InvalidMove(f"{_a(card)} cannot go on {_the(top)}")

    new = dict(G)
    hand = list(visible if in_visible else hidden)
    hand[seat] = [c for c in hand[seat] if c != card]
    new["visible" if in_visible else "hidden"] = hand
    piles = list(G["piles"])
    piles[pile] = [*piles[pile], card]
    new["piles"] = piles
    if len(piles[pile]) % LOCK_EVERY == 0:
        new["pile_states"] = _with_state(G["pile_states"], pile, LOCKED)
    # Emptying the visible hand wins at once, so a winning 9 needs no key.
    if rank(card) == KEY_RANK and (not in_visible or hand[seat]):
        t.set_stage("key")
    return new


def play_options(G: dict, ctx: dict, seat: int) -> list[tuple]:
    """Every held card with every unlocked pile it fits."""
    cards = G["visible"][seat] + G["hidden"][seat]
    piles = G["piles"]
    found: list[tuple] = []
    for pile, state in enumerate(G["pile_states"]):
        if state == UNLOCKED:
            fits = FITS[piles[pile][-1]]
            if not fits.isdisjoint(cards):
                found += [(card, pile) for card in cards if card in fits]
    return found


def pick_up(G: dict, t: Turn) -> dict:
    """Draw the top card of the deck; then a pile must be unlocked, if any can be."""
    deck = G["deck"]
    if not deck:
        raise InvalidMove("The deck is empty: you cannot pick up")
    seat = t.seat
    card = deck[-1]
    # The card goes to the hand with fewer cards, the hidden one on a tie.
    to_visible = len(G["visible"][seat]) < len(G["hidden"][seat])
    key = "visible" if to_visible else "hidden"
    hands = list(G[key])
    hands[seat] = [*hands[seat], card]
    new = dict(G, deck=deck[:-1])
    new[key] = hands
    if _unlock_targets(G["pile_states"]):
        t.set_stage("unlock")
    return new


def pick_up_options(G: dict, ctx: dict, seat: int) -> list[tuple]:
    """Picking up is allowed whenever the deck is not empty."""
    return [()] if G["deck"] else []


def unlock(G: dict, t: Turn, pile: int) -> dict:
    """After a pick-up: turn up a face-down pile, or once there is none unlock a locked one."""
    if t.stage != "unlock":
        raise InvalidMove("You can unlock a pile only right after picking up")
    _check_pile(pile)
    states = G["pile_states"]
    state = states[pile]
    if DOWN in states and state != DOWN:
        raise InvalidMove(f"Pile {pile + 1} is already face up: choose a face-down pile to unlock")
    if state != LOCKED and DOWN not in states:
        raise InvalidMove(f"Pile {pile + 1} is not locked: choose a locked pile to unlock")
    if state == LOCKED:
        return dict(G, pile_states=_with_state(states, pile, UNLOCKED))
    return _turn_up(G, t, pile)


def unlock_options(G: dict, ctx: dict, seat: int) -> list[tuple]:
    """The piles a pick-up allows to unlock, in stage "unlock" only."""
    if ctx["stage"] != "unlock":
        return []
    return [(pile,) for pile in _unlock_targets(G["pile_states"])]


def key(G: dict, t: Turn, pile: int) -> dict:
    """After a 9: turn up a face-down pile, unlock a locked one or lock an unlocked one."""
    if t.stage != "key":
        raise InvalidMove("You can use the key only right after playing or turning up a 9")
    _check_pile(pile)
    state = G["pile_states"][pile]
    if state == DOWN:
        return _turn_up(G, t, pile)
    flipped = LOCKED if state == UNLOCKED else UNLOCKED
    return dict(G, pile_states=_with_state(G["pile_states"], pile, flipped))


def key_options(G: dict, ctx: dict, seat: int) -> list[tuple]:
    """Any pile, in stage "key" only."""
    return [(pile,) for pile in range(NUM_PILES)] if ctx["stage"] == "key" else []


def _turn_up(G: dict, t: Turn, pile: int) -> dict:
    """Turn a face-down pile face up, unlocked; a 9 turned up means the key is used (again)."""
    card = G["facedown"][pile]
    facedown = list(G["facedown"])
    facedown[pile] = None
    piles = list(G["piles"])
    piles[pile] = [card]
    if rank(card) == KEY_RANK:
        t.set_stage("key")
    return dict(G, facedown=facedown, piles=piles,
                pile_states=_with_state(G["pile_states"], pile, UNLOCKED))


def _with_state(states: list[str], pile: int, state: str) -> list[str]:
    out = list(states)
    out[pile] = state
    return out


def _unlock_targets(states: list[str]) -> list[int]:
    """Face-down piles while there are any, else locked piles."""
    down = [i for i, s in enumerate(states) if s == DOWN]
    return down or [i for i, s in enumerate(states) if s == LOCKED]


# -- turns, leaving and the end ------------------------------------------------------------------


def can_play(G: dict, seat: int) -> bool:
    """Whether ``seat`` holds a card that fits on some unlocked pile."""
    cards = G["visible"][seat] + G["hidden"][seat]
    for pile, state in enumerate(G["pile_states"]):
        if state == UNLOCKED and not FITS[G["piles"][pile][-1]].isdisjoint(cards):
            return True
    return False


def on_turn_begin(G: dict, t: Turn) -> dict:
    """A player who can neither play nor pick up is locked out for the rest of the game."""
    # Once someone has won, nobody else is locked out by the turn passing on.
    if G["deck"] or _emptied_hand(G, t.left) is not None or can_play(G, t.seat):
        return G
    t.set_out(t.seat)
    t.end_turn()
    return G


def on_drop(G: dict, t: Turn, seat: int) -> dict:
    """A player who leaves puts both hands back: they are shuffled into the draw deck."""
    visible, hidden = list(G["visible"]), list(G["hidden"])
    returned = visible[seat] + hidden[seat]
    visible[seat], hidden[seat] = [], []
    deck = t.shuffle(G["deck"] + returned) if returned else G["deck"]
    return dict(G, visible=visible, hidden=hidden, deck=deck)


def _emptied_hand(G: dict, left: tuple[int, ...]) -> int | None:
    """The seat still in the game whose visible hand is empty, if any."""
    visible = G["visible"]
    if all(visible):
        return None
    for seat, hand in enumerate(visible):
        if not hand and seat not in left:
            return seat
    return None


def end_if(G: dict, ctx: dict) -> dict | None:
    """An empty visible hand wins; when everyone left is locked out, the fewest cards win."""
    left = ctx["left"]
    winner = _emptied_hand(G, left)
    if winner is not None:
        return {"winner": winner}
    out = ctx["out"]
    if not out:
        return None
    playing = [s for s in range(ctx["num_players"]) if s not in left]
    if any(s not in out for s in playing):
        return None
    # Everyone still in the game is locked out: fewest visible, then fewest hidden cards.
    scores = {s: (len(G["visible"][s]), len(G["hidden"][s])) for s in playing}
    best = min(scores.values())
    leaders = [s for s, score in scores.items() if score == best]
    return {"winner": leaders[0]} if len(leaders) == 1 else {"draw": True}


# -- views ---------------------------------------------------------------------------------------


def view(v: dict, seat: int | None) -> dict:
    """Each pile as one record a client can draw: state, cards, top card and size."""
    grid = []
    for pile, (cards, state) in enumerate(zip(v["piles"], v["pile_states"], strict=True)):
        grid.append({
            "pile": pile, "state": state, "cards": list(cards),
            "top": cards[-1] if cards else None, "count": len(cards) if cards else 1,
        })
    return {"grid": grid}


def determinize(v: dict, t: Turn) -> dict:
    """A full state agreeing with the view, every unseen card dealt at random."""
    seat = v["seat"]
    own = list(v["hidden"]) if seat is not None else []
    seen = {c for pile in v["piles"] for c in pile}
    seen.update(c for hand in v["visible"] for c in hand)
    seen.update(own)
    unseen = t.shuffle(c for c in DECK if c not in seen)
    others = sum(n for s, n in enumerate(v["hidden_count"]) if s != seat)
    if len(unseen) != others + v["facedown_count"] + v["deck_count"]:
        raise ValueError("The view does not account for exactly 52 cards")
    hidden = []
    for s, count in enumerate(v["hidden_count"]):
        if s == seat:
            hidden.append(own)
        else:
            hidden.append(unseen[:count])
            unseen = unseen[count:]
    facedown: list[str | None] = []
    for state in v["pile_states"]:
        facedown.append(unseen.pop() if state == DOWN else None)
    return {
        "piles": [list(p) for p in v["piles"]], "pile_states": list(v["pile_states"]),
        "facedown": facedown, "deck": unseen, "visible": [list(h) for h in v["visible"]],
        "hidden": hidden,
    }


def _pile_line(mover: str, i: int, was: tuple[str, list], now: tuple[str, list],
               key: bool) -> str | None:
    pile = f"pile {i + 1}"
    how = " with the key" if key else ""  # a locked pile is also unlocked after a pick-up
    (was_state, was_cards), (state, cards) = was, now
    top = cards[-1] if cards else None
    if was_state == "down" and state != "down":
        return f"{mover} turned up {pile}{how}: {log.card_name(top)}"
    if len(cards) > len(was_cards):
        locked = " and locked it" if state == "locked" and was_state != "locked" else ""
        return f"{mover} played {log.card_name(top)} on {pile}{locked}"
    if was_state == "locked" and state == "unlocked":
        return f"{mover} unlocked {pile}{how}"
    if was_state == "unlocked" and state == "locked":
        return f"{mover} locked {pile} with the key"
    return None


def describe(prev: dict, nxt: dict, names: list[str], actor: int | None) -> list[str]:
    """The log lines of an action: a pick-up, and what changed on each pile."""
    mover = log.who(names, actor if actor is not None else prev.get("current"))
    lines = []
    if nxt["deck_count"] < prev["deck_count"]:
        lines.append(f"{mover} picked up a card")
    for i in range(len(nxt["piles"])):
        line = _pile_line(mover, i, (prev["pile_states"][i], prev["piles"][i]),
                          (nxt["pile_states"][i], nxt["piles"][i]), prev.get("stage") == "key")
        if line:
            lines.append(line)
    return lines


GAME = Game(
    slug="nine-locks",
    title="Nine Locks",
    summary="Play on a 3×3 grid of piles before they lock.",
    min_players=2,
    max_players=4,
    rules=load_rules("nine-locks"),
    setup=setup,
    moves={
        "play": Move(play, play_options, args=(str, int), names=("card", "pile"),
                     words=("play {card:card} on pile {pile:position}",)),
        "pick_up": Move(pick_up, pick_up_options, words=("pick up a card",)),
        "unlock": Move(unlock, unlock_options, args=(int,), names=("pile",),
                       stages=(None, "unlock"), words=("unlock pile {pile:position}",)),
        "key": Move(key, key_options, args=(int,), names=("pile",), stages=(None, "key"),
                    words=("use the key on pile {pile:position}",)),
    },
    end_if=end_if,
    view=view,
    describe=describe,
    secret=("facedown", "deck"),
    private=("hidden",),
    on_turn_begin=on_turn_begin,
    on_drop=on_drop,
    determinize=determinize,
    stage_hints={
        "key": "First use the key on a pile: you played or turned up a 9",
        "unlock": "First unlock a pile: you picked up",
    },
    max_log=1_000,  # ten times the longest bot game seen (docs/rules-engine.md)
)
