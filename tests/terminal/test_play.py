"""The terminal client against the real server: rooms, chat, and whole games, typed by hand."""

from __future__ import annotations

import re
import time

from .harness import Proxy, Term

CARD = r"(?:10|[2-9AJQK])[♠♥♦♣]"
STACKS = r"Stacks: (?:▶ )?Ada {ada}\s+(?:▶ )?Bob {bob}"  # ▶ marks whose turn it is


def host_room(terms, server, game: str, name: str = "Ada", **options) -> tuple[Term, str]:
    host = terms("--server", server.url, "--create", game, "--name", name, **options)
    code = host.wait(r"room ([A-Z0-9]{6})").group(1)
    host.wait("You joined room")
    return host, code


def add_bots(host: Term, count: int = 1) -> None:
    """The host adds easy bots, and sees the last one seated."""
    for _ in range(count):
        host.line("/bot easy")
    host.wait(rf"Bot {count} \(easy\)\s+bot, easy")


def join(terms, server, code: str, name: str, *extra: str) -> Term:
    term = terms("--server", server.url, "--join", code, "--name", name, *extra)
    term.wait("You joined room")
    return term


def start_two(terms, server, game: str) -> tuple[Term, Term, str]:
    """Ada hosts, Bob joins and says he is ready, Ada starts."""
    ada, code = host_room(terms, server, game)
    bob = join(terms, server, code.lower(), "Bob")
    bob.line("/ready")
    ada.wait(r"Bob\s+human\s+ready")
    ada.line("/start")
    ada.wait("The game begins")
    bob.wait("The game begins")
    return ada, bob, code


def messages(screen: str) -> str:
    """The message pane of a screen (and the input line)."""
    return screen.split(" messages\n", 1)[-1]


def test_room_chat_and_a_whole_tic_tac_toe_game(terms, server):
    ada, code = host_room(terms, server, "tic-tac-toe")
    bob = join(terms, server, code.lower(), "Bob")
    cy = join(terms, server, code, "Cy", "--spectate")
    assert "spectating" in cy.screen()
    dee = join(terms, server, code, "Dee")  # both seats are taken: the server seats her to watch
    dee.wait(r"as a spectator \(no seat was free, or a game is on\)")
    dee.line("/quit")
    ada.wait(r"1 Bob\s+human\s+not ready")

    bob.line("hello from bob")
    ada.wait("Bob: hello from bob")
    ada.line("[bold]hi[/bold] \x1b[31mred")  # markup and an escape are shown as plain text
    bob.wait(r"Ada: \[bold\]hi\[/bold\]")
    cy.wait("Bob: hello from bob")

    ada.line("/start")  # Bob is not ready yet: the server refuses, the client says why
    ada.wait("Not everyone is ready: Bob")
    assert "· waiting" in ada.settle()
    bob.line("/ready")
    ada.wait(r"Bob\s+human\s+ready")
    ada.line("/start")

    # Cells are numbered 1 to 9 for good: each takes the next, so X takes 1, 3, 5, 7 and wins
    # on the diagonal
    players = [ada, bob]
    for turn in range(7):
        me = players[turn % 2]
        me.wait("Your turn")
        me.line(str(turn + 1))
        if turn < 6:
            me.wait(r"Bob’s turn \(O\) · you play X" if me is ada else r"Ada’s turn \(X\)")
    for term in (ada, bob, cy):
        term.wait("Ada wins!")
    ada.wait("You win!")  # the log line is the same for everyone; the banner is Ada's own
    assert re.search(r" X \│ O \│ X", ada.screen())
    assert "Type /rematch" in ada.screen()

    ada.type("\x03")  # Ctrl-C: the host leaves, which closes the room for everyone
    assert ada.exit_status() == 0
    for term in (bob, cy):
        term.wait("The host closed the room.")
        assert term.exit_status() == 0


def test_the_start_of_a_game_is_said_once(terms, server):
    ada, bob, _ = start_two(terms, server, "tic-tac-toe")
    for term in (ada, bob):
        pane = messages(term.settle())
        assert pane.count("The game begins") == 1 and "has started" not in pane, pane


def test_a_guest_who_quits_mid_game_is_said_once(terms, server):
    ada, bob, _ = start_two(terms, server, "tic-tac-toe")
    bob.line("/quit")
    assert bob.exit_status() == 0
    ada.wait("Ada wins!")
    pane = messages(ada.settle())
    assert pane.count("Bob left the game") == 1, pane


def test_a_take_back_says_who_took_it(terms, server):
    ada, bob, _ = start_two(terms, server, "tic-tac-toe")
    ada.line("1")
    bob.wait("Ada put X in the top left")
    ada.line("/undo")
    for term in (ada, bob):
        term.wait("Ada took back a move")
        assert "Ada put X" not in messages(term.settle())


def test_away_is_said_once_and_turntime_and_back_say_what_they_did(terms, server):
    """Ada lets her turns run out: a bot plays them, and she is told once, not every turn."""
    ada, _ = host_room(terms, server, "crazy-eights")
    add_bots(ada)
    ada.line("/turntime 1")
    ada.wait("Turn time set to 1 s")
    ada.line("/start")
    pane = messages(ada.wait(r"(?s)You are away.*who is away.*who is away", timeout=30).string)
    assert pane.count("You are away") == 1, pane
    ada.line("/back")
    ada.wait("Welcome back: you play your own turns again")
    again = ada.wait(r"(?s)Welcome back.*(You are away|wins!|The game is a draw)", timeout=30)
    if again.group(1) != "You are away":  # the game ended first: the next one will do
        ada.line("/rematch")
        ada.wait(r"(?s)Welcome back.*You are away", timeout=30)
    ada.line("/turntime off")
    ada.wait("Turn time off")
    ada.line("/quit")
    assert ada.exit_status() == 0


def test_a_guest_is_told_when_the_host_sets_the_turn_time(terms, server):
    ada, code = host_room(terms, server, "tic-tac-toe")
    bob = join(terms, server, code, "Bob")
    ada.line("/turntime 60")
    ada.wait("Turn time set to 60 s")
    bob.wait("Ada set the turn time to 60 s")
    assert "Ada set the turn time" not in messages(ada.settle())


def test_a_kick_says_who_the_host_removed(terms, server):
    """A kicked guest is said removed by the host (it read "left the table"), and so is a
    kicked hot-seat player (not said at all before)."""
    ada, code = host_room(terms, server, "poker99")
    bob = join(terms, server, code, "Bob")
    dan = join(terms, server, code, "Dan")
    ada.line("/local Lu")
    bob.wait("Lu sat down")
    ada.line("/kick 2")
    ada.wait("You removed Dan from the table")
    bob.wait("The host removed Dan from the table")
    dan.wait("The host removed you from your seat")
    ada.line("/kick 2")  # Lu moved up to seat 2
    ada.wait("You removed Lu from the table")
    bob.wait("The host removed Lu from the table")
    assert "left the table" not in messages(bob.settle())


def test_an_empty_room_code_is_said_before_any_screen(terms, server):
    for code in ("", "   "):
        term = terms("--server", server.url, "--join", code, "--name", "Eve")
        assert term.exit_status() == 2
        assert "Say which room to join: --join CODE" in term.raw
        assert "Gaming Lounge" not in term.raw and "\x1b[2J" not in term.raw


def test_ctrl_c_is_a_key_even_where_sigint_is_ignored(terms, server):
    """Started as a script's background job is (SIGINT ignored), the client still leaves on
    Ctrl-C, with half a line typed."""
    ada, code = host_room(terms, server, "tic-tac-toe", sigint_ignored=True)
    bob = join(terms, server, code, "Bob")
    ada.type("half a li")
    ada.wait("> half a li")
    ada.type("\x03")
    assert ada.exit_status() == 0
    assert f"You left room {code}. As you were its host, it is closed for everyone." in \
        ada.screen()
    bob.wait("The host closed the room.")


def slappable(screen: str) -> bool:
    """Whether the pile drawn on the screen can be slapped now."""
    line = re.search(r"Pile: (.*)", screen)
    if not line or "already slapped" in line.group(1):
        return False
    ranks = [card[:-1] for card in re.findall(CARD, line.group(1))]
    if not ranks:
        return False
    return (ranks[-1] == "J" or (len(ranks) > 1 and ranks[-1] == ranks[-2])
            or (len(ranks) > 2 and ranks[-1] == ranks[-3]))


def stacks(screen: str) -> tuple[int, int]:
    found = re.search(STACKS.format(ada=r"(\d+)", bob=r"(\d+)"), screen)
    assert found, screen
    return int(found.group(1)), int(found.group(2))


def test_a_whole_slapjack_game_with_single_key_slaps(terms, server):
    ada, bob, _ = start_two(terms, server, "slapjack")
    bob.wait(STACKS.format(ada=26, bob=26))
    # Bob slaps at nothing until his cards are gone: each bad or late slap puts 3 under the pile
    for _ in range(12):
        left = stacks(bob.screen())[1]
        if left == 0:
            break
        time.sleep(0.4)  # a second press within 350 ms of a slap is taken as a double tap
        bob.type("s")  # one key, no Enter
        bob.wait(STACKS.format(ada=26, bob=max(0, left - 3)) + r"\b")
    assert stacks(bob.screen()) == (26, 0)
    said = bob.screen()  # the first slap is wrong; the next ones, on that pile, already slapped
    assert "slapped wrongly" in said or "slapped a pile already slapped" in said

    # Ada plays with the space bar and slaps a jack, pair or sandwich: then she holds all 52
    # (unless her 26 cards run out with nothing to slap, which the rules call a draw)
    deadline = time.monotonic() + 60
    end = r"Ada wins!|The game is a draw"
    while not re.search(end, ada.settle(0.15)) and time.monotonic() < deadline:
        screen = ada.screen()
        plays = int(re.search(r"Plays: (\d+)", screen).group(1))
        if slappable(screen):
            ada.type("s")
            ada.wait(rf"{end}|already slapped")
        elif "Your turn" in screen:
            ada.type(" ")
            ada.wait(rf"Plays: {plays + 1}\b|{end}")
    result = ada.wait(end).group(0)
    bob.wait(result)
    if result == "Ada wins!":
        assert re.search(STACKS.format(ada=52, bob=0), ada.screen())
    bob.line("gg")
    ada.wait("Bob: gg")
    bob.line("/quit")
    assert bob.exit_status() == 0
    ada.wait(r"Bob\s+human\s+left the game|Bob\s+human\s+disconnected|The host may|rematch")


def test_host_adds_a_bot_and_plays_nine_locks_moves(terms, server):
    ada, code = host_room(terms, server, "nine-locks")
    add_bots(ada)
    ada.line("/start")
    ada.wait("Your turn")
    screen = ada.screen()
    assert re.search(r"5: " + CARD + r" ×1 open", screen), screen  # the centre, pile 5 of 1-9
    assert re.search(r"Ada\s+visible (" + CARD + r" ?){3}\s+hidden (" + CARD + r" ?){3}", screen)
    assert re.search(r"Bot 1 \(easy\)\s+visible .*hidden ▒▒ ×3", screen)
    pick = re.search(r"(\d+)\) pick up a card", screen).group(1)
    ada.line(pick)
    # Every move names one pile now: each is numbered as its pile, so 6 unlocks pile 6.
    number, pile = ada.wait(r"(\d+)\) unlock pile (\d)").groups()
    assert number == pile
    ada.line(pile)
    ada.wait(r"Turn: Bot 1 \(easy\)|Your turn|wins")


def test_refusals_and_typing_nonsense_never_crash(terms, server):
    ada, code = host_room(terms, server, "poker99")
    ada.line("/frobnicate")
    ada.wait("There is no command /frobnicate")
    ada.line("42")
    ada.wait("You have no move to make right now")
    ada.line("/start")
    ada.wait("Poker 99 needs at least 2 players")
    ada.line("/bot grandmaster")
    ada.wait("Bot levels are: easy, normal")
    ada.type("\x1b[A\x1b[D\x1bOP\x07\x00 " + "x" * 600 + "\x7f" * 3 + "\x15")  # keys, then Ctrl-U
    ada.line("/kick 0")
    ada.wait("The host’s seat cannot be removed")
    ada.line("/bot")
    ada.wait(r"Bot 1 \(normal\)")
    ada.line("/start")
    ada.wait("Your hand: ")
    ada.wait(r"Total: 0 / 99")
    ada.line("/quit")
    assert ada.exit_status() == 0


def test_start_up_errors_are_clear(terms, server):
    cases = [
        (("--server", server.url, "--join", "ZZZZZZ", "--name", "Eve"),
         "Cannot join room ZZZZZZ: there is no room 'ZZZZZZ'"),
        (("--server", server.url, "--join", "AB/../CD", "--name", "Eve"),
         "Cannot join room AB/../CD: there is no room 'AB/../CD'"),
        (("--server", server.url, "--create", "chess", "--name", "Eve"), "no game called"),
        (("--server", "http://127.0.0.1:1", "--join", "ABCDEF", "--name", "Eve"),
         "Cannot reach the server"),
        (("--server", server.url, "--join", "ABCDEF", "--name", "   "), "1 to 32 characters"),
    ]
    started = [(terms(*args), message) for args, message in cases]
    for term, message in started:
        term.wait(message, timeout=20)
        assert term.exit_status() == (2 if "characters" in message else 1)


def test_reconnects_by_itself_and_keeps_its_seat(terms, server):
    proxy = Proxy(server.port)
    try:
        ada, code = host_room(terms, server, "tic-tac-toe")
        bob = terms("--server", proxy.url, "--join", code, "--name", "Bob")
        bob.wait("You joined room")
        bob.line("/ready")
        ada.wait(r"Bob\s+human\s+ready")
        ada.line("/start")
        bob.wait("Ada’s turn")
        proxy.cut()
        bob.wait("Lost the connection to the server: trying again…")
        bob.wait("Connected again: you are back in the room", timeout=15)
        ada.line("1")
        bob.wait("Your turn")
        assert "1 Bob (you)" in bob.screen()
        bob.line("2")
        ada.wait("Your turn")
    finally:
        proxy.stop()


def test_a_server_away_is_said_once_and_chat_is_not_replayed(terms, server):
    """While the server cannot be reached the pane says so once, in a player's words; when it
    is back, the join's chat history adds only what was said meanwhile."""
    proxy = Proxy(server.port)
    try:
        ada, code = host_room(terms, server, "tic-tac-toe")
        ada.line("hello before")
        bob = terms("--server", proxy.url, "--join", code, "--name", "Bob")
        bob.wait("Ada: hello before")
        proxy.refusing = True
        proxy.cut()
        bob.wait("Lost the connection to the server: trying again…")
        bob.line("anyone there?")
        bob.line("anyone there?")
        ada.line("said while Bob was away")
        time.sleep(3)  # several attempts fail meanwhile
        pane = messages(bob.settle())
        assert pane.count("Lost the connection") == 1, pane
        assert pane.count("Not sent: there is no connection") == 1, pane
        assert "Connection error" not in pane and "Cannot connect" not in pane, pane
        proxy.refusing = False
        bob.wait("Connected again: you are back in the room", timeout=15)
        bob.wait("Ada: said while Bob was away")
        pane = messages(bob.settle())
        assert pane.count("Ada: hello before") == 1, pane
        assert pane.count("Ada: said while Bob was away") == 1, pane
    finally:
        proxy.stop()


def test_a_paste_is_text_to_edit_and_esc_waits_only_a_moment(terms, server):
    ada, code = host_room(terms, server, "tic-tac-toe")
    bob = join(terms, server, code, "Bob")
    bob.type("\x1b[200~/ready\r5\rhi\x1b[201~")  # three lines pasted: none runs
    bob.wait("> /ready 5 hi")
    assert "not ready" in ada.settle(0.5)
    bob.type("\x15")  # Ctrl-U
    bob.type("\x1b")
    time.sleep(0.5)  # Esc, a pause, then a word: the Esc does not eat its first letter
    bob.line("bell")
    ada.wait("Bob: bell")


def test_a_paste_without_markers_runs_none_of_its_lines(terms, server):
    """Play-test findings 1 and 2: a paste without bracketed-paste markers (tmux paste-buffer
    without -p) played 3, then /quit closed the host's room; so did a pasted end marker."""
    ada, bob, _ = start_two(terms, server, "tic-tac-toe")
    ada.wait("Your turn")
    ada.type("3\r/quit\rhello")
    ada.wait("> 3 /quit hello")
    ada.type("\x15")
    ada.type("\x1b[200~abc\x1b[201~\r/quit\x1b[201~")
    ada.wait("> abc /quit")
    assert "Your turn" in ada.settle(0.5)
    bob_screen = bob.settle(0.3)
    assert "closed" not in bob_screen and "Ada’s turn" in bob_screen
    ada.type("\x15")
    ada.line("1")  # Enter at the end of a read still sends
    bob.wait("Your turn")


def table_of(screen: str) -> str:
    """Crazy Eights' table on the screen, from the top card to the stock."""
    found = re.search(r"Top card:.*?Stock \d+", screen, re.S)
    return found.group(0) if found else ""


def test_a_whole_crazy_eights_game_against_two_bots(terms, server):
    ada, _ = host_room(terms, server, "crazy-eights")
    add_bots(ada, 2)
    ada.line("/start")
    ada.wait("Your turn")
    screen = ada.screen()
    assert re.search(r"Top card: " + CARD + r"\s+Suit to follow: [♠♥♦♣] \w+", screen), screen
    assert re.search(r"Your hand: (" + CARD + r" ?){5}", screen), screen  # three players: five
    assert re.search(r"Players: ▶ Ada 5 cards\s+Bot 1 \(easy\) 5 cards", screen), screen
    # "1" is always a legal move: the first card that fits (an 8 names spades), else a draw;
    # after a draw, the drawn card if it fits, else the pass.
    end = r"wins!|The game is a draw"
    deadline = time.monotonic() + 60
    moves = 0
    while not re.search(end, ada.settle(0.1)) and time.monotonic() < deadline:
        before = table_of(ada.screen())
        if "Your turn" in ada.screen() and before:
            ada.line("1")
            moves += 1
            while table_of(ada.screen()) == before and not re.search(end, ada.screen()):
                if time.monotonic() > deadline:
                    break
                ada.settle(0.05)
    ada.wait(end)
    assert moves > 1
    assert "Type /rematch" in ada.screen()
    ada.line("/quit")
    assert ada.exit_status() == 0
