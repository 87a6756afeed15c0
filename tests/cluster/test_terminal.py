"""The terminal client through the balancer of a cluster, unchanged: a whole game, typed."""

from __future__ import annotations

from tests.terminal.harness import Term


def test_a_whole_tic_tac_toe_game_in_the_terminal_through_the_balancer(balanced_of):
    cluster, _schema = balanced_of(2, FOLLOW_PLAYERS=1)
    terms: list[Term] = []
    try:
        ada = Term("--server", cluster.url, "--create", "tic-tac-toe", "--name", "Ada")
        terms.append(ada)
        code = ada.wait(r"room ([A-Z0-9]{6})").group(1)
        ada.wait("You joined room")
        bob = Term("--server", cluster.url, "--join", code.lower(), "--name", "Bob")
        terms.append(bob)
        bob.wait("You joined room")
        bob.line("hi from the other side")
        ada.wait("Bob: hi from the other side")
        bob.line("/ready")
        ada.wait(r"Bob\s+human\s+ready")
        ada.line("/start")
        players = [ada, bob]
        for turn in range(7):  # cells keep their numbers: X takes 1, 3, 5, 7
            me = players[turn % 2]
            me.wait("Your turn")
            me.line(str(turn + 1))
            if turn < 6:
                me.wait("Bob’s turn" if me is ada else "Ada’s turn")
        for term in players:
            term.wait("Ada wins!")
        # Both terminals named the room: the balancer put them on one process, which owns it.
        health = sorted(([h["connections"], h["cluster"]["owned"]]
                         for h in cluster.health().values()), reverse=True)
        assert health == [[2, 1], [0, 0]], health
    finally:
        for term in terms:
            term.close()
