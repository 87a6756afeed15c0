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
. "$CO/bench/lib.sh"
start() { # kind port: the server's pid on stdout
  case $1 in
    bgio) (cd "$LT" && NODE_ENV=production exec node server.js --port "$2" --pidfile "$OUT/bgio.pid") \
        >"$OUT/server.log" 2>&1 & ;;
    floor) (cd "$CO" && exec .venv/bin/python bench/transport_floor.py "$2") >"$OUT/server.log" 2>&1 & ;;
    floor-sqlite) (cd "$CO" && exec .venv/bin/python bench/transport_floor.py "$2" "$(mktemp -d)/floor.db") \
        >"$OUT/server.log" 2>&1 & ;;
    lounge-mem) start_lounge "$2" memory "$CO" "$OUT/server.log" ;;
    lounge-sqlite) start_lounge "$2" sqlite "$CO" "$OUT/server.log" ;;
  esac
  echo $!
}
for r in $(seq 1 "$REP"); do
  for m in $MS; do
    for kind in $SERVERS; do
      p=$(free_port); pid=$(start "$kind" "$p")
      wait_port "$p" || { echo "$kind did not start"; tail -5 "$OUT/server.log"; kill "$pid"; continue; }
      sleep 1
      pids=$(pid_list "$pid")
      target=lounge; [ "$kind" = bgio ] && target=bgio
      timeout $((SEC + 120)) node "$LT/loadgen.js" --target "$target" --port "$p" --matches "$m" --seconds "$SEC" \
        --warmup 3 --pid "$pids" --label "$kind" --quiet --out "$OUT/$kind-rooms$m-run$r.json" >/dev/null 2>"$OUT/loadgen.err" \
        || { echo "load generator failed for $kind rooms=$m:"; tail -3 "$OUT/loadgen.err"; }
      stop_tree "$pid"
      echo "run $r: $kind at $m rooms done"
    done
  done
done
"$CO/.venv/bin/python" "$CO/bench/loadtest_table.py" "$OUT"
