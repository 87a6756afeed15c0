#!/bin/bash
# A change against a base commit, in interleaved pairs of load runs: each pair runs the lounge of
# the working tree and the lounge of BASE (a worktree of it) one after the other, under the
# shared load generator, alternating which goes first; then each figure's ratio, change over
# base, pair by pair, and their median. On a shared, noisy machine the ratio within a pair says
# more than either run's figures.
#     bench/pairs.sh [-b BASE] [-d memory|sqlite] [-m ROOMS] [-s SECONDS] [-n PAIRS] [-o DIR]
# Defaults: BASE=HEAD (what is committed against what is not), memory, 200 rooms, 10 s, 4 pairs.
# The load generator is the one ../shared/loadtest/run.sh installs: run that once first.
set -u
CO=$(cd "$(dirname "$0")/.." && pwd)
LT=${TMPDIR:-/tmp}/lounge-loadtest
BASE=HEAD; STORE=memory; ROOMS=200; SEC=10; PAIRS=4; OUT=/tmp/pairs
while getopts "b:d:m:s:n:o:" o; do
  case $o in b) BASE=$OPTARG;; d) STORE=$OPTARG;; m) ROOMS=$OPTARG;; s) SEC=$OPTARG;; n) PAIRS=$OPTARG;;
    o) OUT=$OPTARG;; *) exit 2;; esac
done
[ -f "$LT/loadgen.js" ] || { echo "no $LT/loadgen.js: run ../shared/loadtest/run.sh once first"; exit 2; }
rm -rf "$OUT"; mkdir -p "$OUT"
git -C "$CO" worktree add -f --detach "$OUT/base" "$BASE" >/dev/null 2>&1 || { echo "no worktree of $BASE"; exit 2; }
trap 'git -C "$CO" worktree remove --force "$OUT/base" >/dev/null 2>&1' EXIT
. "$CO/bench/lib.sh"
run() { # source-tree name: one load run of the lounge from that tree, its JSON in OUT/name.json
  local src=$1 name=$2 p pid
  p=$(free_port)
  start_lounge "$p" "$STORE" "$src" "$OUT/server.log"
  pid=$!
  wait_port "$p" || { echo "the server did not start"; tail -5 "$OUT/server.log"; stop_tree "$pid"; return 1; }
  sleep 1
  timeout $((SEC + 120)) node "$LT/loadgen.js" --target lounge --port "$p" --matches "$ROOMS" \
    --seconds "$SEC" --warmup 3 --pid "$(pid_list "$pid")" --label "$name" --quiet --out "$OUT/$name.json" \
    >/dev/null 2>"$OUT/loadgen.err" || { echo "the load generator failed:"; tail -3 "$OUT/loadgen.err"; }
  stop_tree "$pid"
}
for i in $(seq 1 "$PAIRS"); do
  order="base change"; [ $((i % 2)) = 0 ] && order="change base"
  for side in $order; do
    src=$CO; [ "$side" = base ] && src=$OUT/base
    run "$src" "$side-$i"
  done
  echo "pair $i done"
done
python3 - "$OUT" "$PAIRS" <<'PY'
import json, statistics, sys
out, pairs = sys.argv[1], int(sys.argv[2])
figures = {"moves/s": lambda d: d["movesPerSec"], "CPU µs/move": lambda d: d["server"]["cpuUsPerMove"],
           "p50 ms": lambda d: d["latencyMs"]["opp"]["p50"], "p99 ms": lambda d: d["latencyMs"]["opp"]["p99"]}
runs = {}
for side in ("base", "change"):
    for i in range(1, pairs + 1):
        try:
            runs[side, i] = json.load(open(f"{out}/{side}-{i}.json"))
        except (OSError, ValueError):
            pass
done = [i for i in range(1, pairs + 1) if ("base", i) in runs and ("change", i) in runs]
for name, get in figures.items():
    ratios = [get(runs["change", i]) / get(runs["base", i]) for i in done if get(runs["base", i])]
    values = " ".join(f"{get(runs['change', i]):g}/{get(runs['base', i]):g}" for i in done)
    if ratios:
        print(f"{name:12s} change/base {' '.join(f'{r:.2f}' for r in ratios)}  median {statistics.median(ratios):.3f}  ({values})")
PY
