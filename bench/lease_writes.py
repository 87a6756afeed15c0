"""What keeping idle rooms owned costs PostgreSQL in a cluster: rows written a second to the
lease tables, and WAL bytes a second, for ``--rooms`` rooms opened over REST and left idle on
``--processes`` processes (the rooms of human players, who move every few seconds, are mostly
idle between moves).

    .venv/bin/python bench/lease_writes.py --rooms 200 1000 --seconds 10

Each figure is over ``--seconds`` once the rooms are open. The WAL is the whole PostgreSQL
server's: keep the machine otherwise quiet while it runs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import requests
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.load import POSTGRES, REDIS, LoungeCluster, fresh_database, table_writes  # noqa: E402

LEASE_TABLES = ("pg_room_leases", "pg_lounge_nodes")


def wal_bytes() -> int:
    """Where PostgreSQL's write-ahead log is, in bytes."""
    engine = create_engine(POSTGRES)
    try:
        with engine.connect() as conn:
            return int(conn.execute(text(
                "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')")).scalar())
    finally:
        engine.dispose()


def open_rooms(urls: list[str], rooms: int) -> None:
    """``rooms`` rooms over REST, spread over the processes, each by a new identity."""
    http = requests.Session()
    for i in range(rooms):
        url = urls[i % len(urls)]
        token = http.post(f"{url}/api/session", timeout=10).json()["token"]
        answer = http.post(f"{url}/api/rooms", json={"game": "tic-tac-toe", "name": "Idle"},
                           headers={"Authorization": f"Bearer {token}"}, timeout=10)
        answer.raise_for_status()


def measure(processes: int, rooms: int, seconds: float) -> dict:
    """Rows a second written to the lease tables and WAL bytes a second, rooms left idle."""
    with fresh_database("postgres") as url:
        cluster = LoungeCluster("eventlet", url, processes, REDIS)
        try:
            open_rooms([s.url for s in cluster.servers], rooms)
            # An idle PostgreSQL backend reports its statistics within 10 s: let those of the
            # rooms' creation in before the window starts.
            time.sleep(11)
            before, wal = table_writes(url), wal_bytes()
            time.sleep(seconds)
            after, wal_after = table_writes(url), wal_bytes()
        finally:
            cluster.stop()
    rows = {t[3:]: round((after.get(t, 0) - before.get(t, 0)) / seconds, 1)
            for t in LEASE_TABLES}
    return {"processes": processes, "rooms": rooms, "rows_per_s": rows,
            "wal_kib_per_s": round((wal_after - wal) / seconds / 1024, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--rooms", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    for rooms in args.rooms:
        print(measure(args.processes, rooms, args.seconds), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
