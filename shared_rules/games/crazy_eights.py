"""Crazy Eights: match the top card's rank or suit, or play an 8 and name the suit; empty your
hand first.

State ``G`` (plain data, never changed in place):

- ``hands``: one list of cards per seat (private: each seat sees only its own). A card drawn is
  put at the end, so during stage ``"drawn"`` the drawer's last card is the one drawn.
- ``stock``: the face-down stock, drawn from the end (secret: everyone sees only its size).
- ``discards``: the discard pile under its top card, oldest first (secret: only the top card is
  shown).
- ``top``: the top card of the discard pile.
- ``suit``: the suit to follow: the top card's own, or the one named with the 8 on top.
- ``last``: the last move, ``{"seat", "move"}`` (``"play"``, ``"draw"`` or ``"pass"``; a play's
  card is ``top``), or None before the first move.
- ``passes``: passes in a row made with no card to draw (the game is blocked when every player
  still in has made one).
- ``actions``: actions so far, moves and players leaving (the game ends at ``MAX_ACTIONS``).
- ``reshuffles``: how many times the discard pile became a new stock.
"""

from .. import describe as log
from ..cards import CARD_SET, DECK, SUIT_NAMES, SUITS, card_name, deal_unseen
from ..engine import Game, Move, Turn
from ..errors import InvalidMove
from . import load_rules

WILD = "8"
DRAWN = "drawn"  # the stage after a draw: play the drawn card, or pass
MAX_ACTIONS = 1_000
SINGULAR = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}


def hand_size(num_players: int) -> int:
    """Cards dealt to each player: 7 with two players, 5 with three or more."""
    return 7 if num_players == 2 else 5


def setup(t: Turn) -> dict:
    deck = t.shuffle(DECK)
    n, size = t.num_players, hand_size(t.num_players)
    hands = [deck[i * size:(i + 1) * size] for i in range(n)]
    stock = deck[n * size:]
    # An 8 turned up to start goes back into the stock, which is shuffled, until a non-8 shows.
    while stock[-1][:-1] == WILD:
        stock = t.shuffle(stock)
    top = stock[-1]
    return {
        "hands": hands, "stock": stock[:-1], "discards": [], "top": top, "suit": top[-1],
        "last": None, "passes": 0, "actions": 0, "reshuffles": 0,
    }


# -- what fits ----------------------------------------------------------------------------------


def fits(card: str, top: str, suit: str) -> bool:
    """Whether ``card`` may go on ``top`` when ``suit`` is the suit to follow: an 8 always; any
    other card of that suit, or of the top card's rank (an 8 on top asks for its suit only)."""
    rank = card[:-1]
    return rank == WILD or card[-1] == suit or rank == top[:-1]


def playable(G: dict, seat: int) -> list[str]:
    """The cards of ``seat``'s hand that fit on the discard pile."""
    top, suit = G["top"], G["suit"]
    return [card for card in G["hands"][seat] if fits(card, top, suit)]


def can_draw(G: dict) -> bool:
    """Whether a draw would find a card: in the stock, or under the top discard."""
    return bool(G["stock"] or G["discards"])


def _wanted(G: dict) -> str:
    """What fits now, in words: "a heart, a 9 or an 8"."""
    suit, top = G["suit"], G["top"]
    if top[:-1] == WILD:
        return f"a {SINGULAR[suit]} or an 8"
    rank = card_name(top).split()[0]  # "9", "ace", "jack"
    return f"a {SINGULAR[suit]}, {'an' if rank == 'ace' else 'a'} {rank} or an 8"


# -- the moves ----------------------------------------------------------------------------------


def _check_play(G: dict, t: Turn, card: str, suit: str | None) -> None:
    if card not in CARD_SET:
        raise InvalidMove(f"{card!r} is not a card: write cards like 7H, 10C or QS")
    hand = G["hands"][t.seat]
    if card not in hand:
        raise InvalidMove(f"You do not hold the {card_name(card)}")
    if t.stage == DRAWN and card != hand[-1]:
        raise InvalidMove(f"After drawing you may only play the card you drew, the "
                          f"{card_name(hand[-1])}, or pass")
    if not fits(card, G["top"], G["suit"]):
        raise InvalidMove(f"The {card_name(card)} does not fit: play {_wanted(G)}")
    if card[:-1] == WILD:
        if suit is None:
            raise InvalidMove(f"Name the suit to follow your {card_name(card)}: S, H, D or C")
        if suit not in SUITS:
            raise InvalidMove(f"{suit!r} is not a suit: name S, H, D or C")
    elif suit is not None:
        raise InvalidMove(f"Only an 8 names a suit: play the {card_name(card)} on its own")


def play(G: dict, t: Turn, card: str, suit: str | None = None) -> dict:
    """Play a card that fits; an 8 names the suit to follow."""
    _check_play(G, t, card, suit)
    seat = t.seat
    hands = list(G["hands"])
    hands[seat] = [c for c in hands[seat] if c != card]
    return {
        **G, "hands": hands, "discards": [*G["discards"], G["top"]], "top": card,
        "suit": suit if suit is not None else card[-1],
        "last": {"seat": seat, "move": "play"}, "passes": 0,
        "actions": G["actions"] + 1,
    }


def play_options(G: dict, ctx: dict, seat: int) -> list[tuple]:
    hand = G["hands"][seat]
    cards = hand[-1:] if ctx["stage"] == DRAWN else hand
    top, suit = G["top"], G["suit"]
    found: list[tuple] = []
    for card in cards:
        if card[:-1] == WILD:
            found += [(card, s) for s in SUITS]
        elif fits(card, top, suit):
            found.append((card,))
    return found


def draw(G: dict, t: Turn) -> dict:
    """Draw the top card of the stock; an empty stock is first rebuilt from the discard pile
    under its top card. Then play the drawn card if it fits, or pass."""
    stock, discards, reshuffles = G["stock"], G["discards"], G["reshuffles"]
    if not stock and discards:
        stock, discards, reshuffles = t.shuffle(discards), [], reshuffles + 1
    if not stock:
        raise InvalidMove("There is no card to draw: the stock is empty and the discard pile "
                          "has only its top card")
    seat = t.seat
    hands = list(G["hands"])
    hands[seat] = [*hands[seat], stock[-1]]
    t.set_stage(DRAWN)
    return {
        **G, "hands": hands, "stock": stock[:-1], "discards": discards,
        "last": {"seat": seat, "move": "draw"}, "passes": 0,
        "actions": G["actions"] + 1, "reshuffles": reshuffles,
    }


def draw_options(G: dict, ctx: dict, seat: int) -> list[tuple]:
    return [()] if can_draw(G) else []


def pass_turn(G: dict, t: Turn) -> dict:
    """End the turn without playing: after drawing, or when there is nothing to draw and no
    card fits."""
    blocked = t.stage != DRAWN
    if blocked:
        if can_draw(G):
            raise InvalidMove("Draw a card before passing: there are cards to draw")
        fitting = playable(G, t.seat)
        if fitting:
            raise InvalidMove(f"There is nothing to draw, so play: the {card_name(fitting[0])} "
                              "fits")
    return {
        **G, "last": {"seat": t.seat, "move": "pass"},
        "passes": G["passes"] + 1 if blocked else 0, "actions": G["actions"] + 1,
    }


def pass_options(G: dict, ctx: dict, seat: int) -> list[tuple]:
    if ctx["stage"] == DRAWN:
        return [()]
    return [] if can_draw(G) or playable(G, seat) else [()]


# -- leaving, the end ---------------------------------------------------------------------------


def on_drop(G: dict, t: Turn, seat: int) -> dict:
    """A player who leaves puts their cards, face down and in no known order, under the
    stock. That gives the others cards to draw again, so a run of blocked passes is broken."""
    hands = list(G["hands"])
    returned = t.shuffle(hands[seat]) if hands[seat] else []
    hands[seat] = []
    return {**G, "hands": hands, "stock": [*returned, *G["stock"]], "passes": 0,
            "actions": G["actions"] + 1}


def end_if(G: dict, ctx: dict) -> dict | None:
    """An empty hand wins; a blocked game, or one of ``MAX_ACTIONS`` actions, goes to the
    fewest cards (a tie for fewest is a draw)."""
    left = ctx["left"]
    playing = [s for s in range(ctx["num_players"]) if s not in left]
    hands = G["hands"]
    for seat in playing:
        if not hands[seat]:
            return {"winner": seat}
    if G["passes"] < len(playing) and G["actions"] < MAX_ACTIONS:
        return None
    fewest = min(len(hands[s]) for s in playing)
    leaders = [s for s in playing if len(hands[s]) == fewest]
    return {"winner": leaders[0]} if len(leaders) == 1 else {"draw": True}


# -- views --------------------------------------------------------------------------------------


def view(v: dict, seat: int | None) -> dict:
    """The drawn card, for its drawer only, so a client can offer it alone after a draw."""
    last, hand = v["last"], v["hands"]
    drew = (seat is not None and last is not None and last["seat"] == seat
            and last["move"] == "draw" and bool(hand))
    return {"drawn": hand[-1] if drew else None, "max_actions": MAX_ACTIONS,
            "hand_size": hand_size(len(v["hands_count"]))}


def determinize(v: dict, t: Turn) -> dict:
    """A full state agreeing with one seat's view: every card it has not seen (all but its own
    hand and the top discard) dealt at random into the other hands, the stock and the discard
    pile under the top card."""
    seat = v["seat"]
    own = list(v["hands"] or [])
    seen = {*own, v["top"]}
    unseen = t.shuffle(c for c in DECK if c not in seen)
    hands, (stock, discards) = deal_unseen(unseen, seat, own, v["hands_count"],
                                           [v["stock_count"], v["discards_count"]])
    return {
        "hands": hands, "stock": stock, "discards": discards, "top": v["top"],
        "suit": v["suit"], "last": None if v["last"] is None else dict(v["last"]),
        "passes": v["passes"], "actions": v["actions"], "reshuffles": v["reshuffles"],
    }


def describe(prev: dict, nxt: dict, names: list[str], actor: int | None) -> list[str]:
    """The log lines of an action: a draw, a pass, a card (and the suit an 8 named), a
    reshuffle, and a last card."""
    last = nxt.get("last")
    if not last or last == prev.get("last"):  # a player leaving changes no move of the game
        return []
    mover = log.who(names, last["seat"])
    lines = []
    if nxt["reshuffles"] > prev["reshuffles"]:
        lines.append("The discard pile was shuffled into a new stock")
    if last["move"] == "draw":
        lines.append(f"{mover} drew a card")
    elif last["move"] == "pass":
        lines.append(f"{mover} passed")
    elif last["move"] == "play":
        top = nxt["top"]
        named = f" and named {SUIT_NAMES[nxt['suit']]}" if top[:-1] == "8" else ""
        lines.append(f"{mover} played {log.card_name(top)}{named}")
        if nxt["hands_count"][last["seat"]] == 1:
            lines.append(f"{mover} has one card left")
    return lines


GAME = Game(
    slug="crazy-eights",
    title="Crazy Eights",
    summary="Match the top card by suit or rank; an 8 is wild and names the suit. "
            "First to empty their hand wins.",
    min_players=2,
    max_players=7,
    rules=load_rules("crazy-eights"),
    setup=setup,
    moves={
        "play": Move(play, play_options, args=(str, str), names=("card", "suit"), min_args=1,
                     stages=(None, DRAWN),
                     words=("play {card:card} and name {suit:label}", "play {card:card}"),
                     labels=dict(SUIT_NAMES)),
        "draw": Move(draw, draw_options, words=("draw a card",)),
        "pass": Move(pass_turn, pass_options, stages=(None, DRAWN), words=("pass",)),
    },
    end_if=end_if,
    view=view,
    describe=describe,
    secret=("stock", "discards"),
    private=("hands",),
    on_drop=on_drop,
    determinize=determinize,
    stage_hints={DRAWN: "You have drawn this turn: play the card you drew, or pass"},
    max_log=10_000,  # the game ends itself at MAX_ACTIONS; ten times that (docs/rules-engine.md)
)
