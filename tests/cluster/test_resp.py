"""The cluster's own RESP2 reading and writing (backend/cluster/resp.py), without a server:
replies cut out of reads that split them anywhere, and commands as Redis expects them."""

from __future__ import annotations

import pytest

from backend.cluster.resp import ProtocolError, RedisError, Replies, pack, pack_all

PUSHES = (b"*3\r\n$9\r\nsubscribe\r\n$6\r\nlounge\r\n:1\r\n"
          b"*3\r\n$7\r\nmessage\r\n$6\r\nlounge\r\n$6\r\nx\r\n\r\ny\r\n"
          b"*3\r\n$7\r\nmessage\r\n$6\r\nlounge\r\n$0\r\n\r\n")
EXPECTED = [[b"subscribe", b"lounge", 1], [b"message", b"lounge", b"x\r\n\r\ny"],
            [b"message", b"lounge", b""]]


def test_pack_writes_arrays_of_bulk_strings():
    assert pack("PUBLISH", "a:b", b"{}") == b"*3\r\n$7\r\nPUBLISH\r\n$3\r\na:b\r\n$2\r\n{}\r\n"
    assert pack("ZADD", "open", 1.5, "id") == \
        b"*4\r\n$4\r\nZADD\r\n$4\r\nopen\r\n$3\r\n1.5\r\n$2\r\nid\r\n"
    assert pack("SET", "ü", 7) == b"*3\r\n$3\r\nSET\r\n$2\r\n\xc3\xbc\r\n$1\r\n7\r\n"
    assert pack_all([("PING",), ("PING",)]) == pack("PING") * 2


def test_every_reply_of_one_read_comes_out_in_order():
    assert Replies().feed(PUSHES) == EXPECTED


@pytest.mark.parametrize("cut", range(1, len(PUSHES)))
def test_a_reply_split_over_two_reads_waits_for_the_rest(cut):
    replies = Replies()
    first = replies.feed(PUSHES[:cut])
    assert first + replies.feed(PUSHES[cut:]) == EXPECTED
    assert replies.buffer == b""


def test_one_byte_at_a_time():
    replies = Replies()
    got = [reply for byte in PUSHES for reply in replies.feed(bytes([byte]))]
    assert got == EXPECTED


def test_the_other_kinds_of_reply():
    got = Replies().feed(b"+OK\r\n-WRONGPASS invalid password\r\n$-1\r\n*-1\r\n:-3\r\n"
                         b"*2\r\n*1\r\n$1\r\na\r\n*0\r\n>3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$1\r\nd\r\n")
    assert got[0] == b"OK"
    assert isinstance(got[1], RedisError) and str(got[1]) == "WRONGPASS invalid password"
    assert got[2:] == [None, None, -3, [[b"a"], []], [b"message", b"c", b"d"]]


@pytest.mark.parametrize("garbage", [b"HTTP/1.1 400 Bad Request\r\n", b"$x\r\n", b"*1\r\n?\r\n"])
def test_bytes_that_are_not_resp_are_refused(garbage):
    with pytest.raises(ProtocolError):
        Replies().feed(garbage)
