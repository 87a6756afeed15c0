#!/bin/bash
# The lounge against its transport's floor (bench/transport_floor.py) and boardgame.io, under
# the shared load generator, interleaved in each repeat; then the table, as bench/loadtest_table.py
# makes it for ../shared/loadtest/run.sh (which sets up the load generator: run it once first).
#     bench/floor.sh [-m "1 200"] [-r 3] [-s 8] [-o /tmp/floor] [servers]
# Servers: bgio, floor, floor-sqlite (the floor committing each move to SQLite first),
# lounge-mem, lounge-sqlite; by default bgio floor lounge-mem.
set -u
CO=$(cd "$(dirname "$0")/.." && pwd)
LT=${TMPDIR:-/tmp}/lounge-loadtest
MS="1 200"; REP=3; SEC=8; OUT=/tmp/floor
while getopts "m:r:s:o:" o; do case $o in m) MS=$OPTARG;; r) REP=$OPTARG;; s) SEC=$OPTARG;; o) OUT=$OPTARG;; *) exit 2;; esac; done
shift $((OPTIND - 1))
SERVERS=${*:-"bgio floor lounge-mem"}  # also: floor-sqlite, lounge-sqlite
[ -f "$LT/loadgen.js" ] || { echo "no $LT/loadgen.js: run ../shared/loadtest/run.sh once first"; exit 2; }
mkdir -p "$OUT"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 300); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.1; done; return 1; }
descendants() { local q; echo "$1"; for q in $(pgrep -P "$1"); do descendants "$q"; done; }
start() { # kind port: the server's pid on stdout
  case $1 in
    bgio) (cd "$LT" && NODE_ENV=production exec node server.js --port "$2" --pidfile "$OUT/bgio.pid") \
        >"$OUT/server.log" 2>&1 & ;;
    floor) (cd "$CO" && exec .venv/bin/python bench/transport_floor.py "$2") >"$OUT/server.log" 2>&1 & ;;
    floor-sqlite) (cd "$CO" && exec .venv/bin/python bench/transport_floor.py "$2" "$(mktemp -d)/floor.db") \
        >"$OUT/server.log" 2>&1 & ;;
    lounge-mem|lounge-sqlite) url=memory; [ "$1" = lounge-sqlite ] && url="sqlite:///$(mktemp -d)/lounge.db"
      (cd "$CO" && exec env SECRET_KEY=floor-secret-key-floor-secret-key DATABASE_URL="$url" \
        SOCKET_RATE_PER_SECOND=1000000 SOCKET_RATE_BURST=1000000 REST_RATE_PER_MINUTE=100000000 \
        SESSION_RATE_PER_MINUTE=100000000 CONNECT_RATE_PER_MINUTE=100000000 \
        MAX_CONNECTIONS_PER_ADDRESS=1000000 ACCESS_LOG=0 .venv/bin/lounge serve --host 127.0.0.1 --port "$2") \
        >"$OUT/server.log" 2>&1 & ;;
  esac
  echo $!
}
for r in $(seq 1 "$REP"); do
  for m in $MS; do
    for kind in $SERVERS; do
      p=$(free_port); pid=$(start "$kind" "$p")
      wait_port "$p" || { echo "$kind did not start"; tail -5 "$OUT/server.log"; kill "$pid"; continue; }
      sleep 1
      pids=$(descendants "$pid" | tr '\n' ','); pids=${pids%,}
      target=lounge; [ "$kind" = bgio ] && target=bgio
      timeout $((SEC + 120)) node "$LT/loadgen.js" --target "$target" --port "$p" --matches "$m" --seconds "$SEC" \
        --warmup 3 --pid "$pids" --label "$kind" --quiet --out "$OUT/$kind-rooms$m-run$r.json" >/dev/null 2>"$OUT/loadgen.err" \
        || { echo "load generator failed for $kind rooms=$m:"; tail -3 "$OUT/loadgen.err"; }
      for q in $(descendants "$pid" | tac); do kill "$q" 2>/dev/null; done; wait "$pid" 2>/dev/null
      echo "run $r: $kind at $m rooms done"
    done
  done
done
"$CO/.venv/bin/python" "$CO/bench/loadtest_table.py" "$OUT"
