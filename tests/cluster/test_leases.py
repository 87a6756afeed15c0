"""Leases held by a process's heartbeat: an idle room costs the database no write while its
owner lives, and a room handed to a process by a message that never came is taken up anyway."""

from __future__ import annotations

import time

from tests.server.harness import start_game

from .nodes import Cluster, connect, hosted, play, wait_until


def lease_row(cluster: Cluster, room_id: str) -> tuple:
    """(owner, epoch, the transaction that last wrote the row) of the room's lease."""
    rows = cluster.schema.query(
        "SELECT owner, epoch, xmin::text AS written FROM room_leases WHERE room_id = :r",
        r=room_id)
    return rows[0].owner, rows[0].epoch, rows[0].written


def node_expiry(cluster: Cluster, node: str):
    return cluster.schema.query("SELECT expires FROM lounge_nodes WHERE id = :n", n=node)[0][0]


def test_an_idle_rooms_lease_is_not_rewritten_while_its_owner_lives(cluster_of):
    cluster = cluster_of(1)
    node = cluster.node_id(0)
    _, room = hosted(cluster, 0, 0, "tic-tac-toe")
    before, beat = lease_row(cluster, room["id"]), node_expiry(cluster, node)
    time.sleep(2.0)  # five heartbeats (LEASE_SECONDS=2 here)
    assert lease_row(cluster, room["id"]) == before
    assert before[:2] == (node, 1)
    assert node_expiry(cluster, node) > beat  # the heartbeat is what keeps it


def test_a_room_handed_over_unannounced_is_taken_up_by_its_new_owner(cluster_of):
    cluster = cluster_of(2)
    first, second = cluster.node_id(0), cluster.node_id(1)
    host, room = hosted(cluster, 0, 0, "tic-tac-toe")
    guest = connect(cluster.url(1))
    guest.ok("join", {"room": room["code"]})
    # What a hand-over leaves when its "given" message is lost: the lease is the other
    # process's, at a new epoch, and nobody told it.
    # (The epoch it had may already be 2: the room may have followed the guest once.)
    ((epoch,),) = cluster.schema.query("UPDATE room_leases SET owner = :n, epoch = epoch + 1 "
                                       "WHERE room_id = :r RETURNING epoch", n=second, r=room["id"])
    wait_until(lambda: cluster.health(1)["cluster"]["owned"] == 1, 5)
    wait_until(lambda: cluster.health(0)["cluster"]["owned"] == 0, 5)
    assert lease_row(cluster, room["id"])[:2] == (second, epoch)
    # The players go on through the room's new owner, the host's events forwarded to it.
    host.ok("chat", {"text": "still here"})
    guest.wait_for(lambda: any(m["text"] == "still here" for m in guest.received("chat")))
    start_game(room, host, [guest])
    assert play([host, guest], seed=3) is not None
    assert cluster.owner(room["id"]) == (second, epoch) != (first, epoch)
