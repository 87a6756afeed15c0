# What bench/floor.sh and bench/pairs.sh share: free ports, waiting for one, a server's
# processes, and the lounge started as the load generator needs it (its rate limits lifted).
# Sourced, with CO set to the checkout.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 300); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.1; done; return 1; }
descendants() { local q; echo "$1"; for q in $(pgrep -P "$1"); do descendants "$q"; done; }
pid_list() { local pids; pids=$(descendants "$1" | tr '\n' ','); echo "${pids%,}"; }
stop_tree() { local q; for q in $(descendants "$1" | tac); do kill "$q" 2>/dev/null; done; wait "$1" 2>/dev/null; }

# start_lounge PORT STORE(memory|sqlite) SOURCE LOG: `lounge serve` from SOURCE (its PYTHONPATH)
# in the background; its pid in $!.
start_lounge() {
  local url=memory
  [ "$2" = sqlite ] && url="sqlite:///$(mktemp -d)/lounge.db"
  # From SOURCE's own directory: Python puts the working directory first on a module's path.
  (cd "$3" && exec env PYTHONPATH="$3" SECRET_KEY=bench-secret-key-bench-secret-key-bench \
    DATABASE_URL="$url" SOCKET_RATE_PER_SECOND=1000000 SOCKET_RATE_BURST=1000000 \
    REST_RATE_PER_MINUTE=100000000 SESSION_RATE_PER_MINUTE=100000000 \
    CONNECT_RATE_PER_MINUTE=100000000 MAX_CONNECTIONS_PER_ADDRESS=1000000 ACCESS_LOG=0 \
    "$CO/.venv/bin/lounge" serve --host 127.0.0.1 --port "$1") >"$4" 2>&1 &
}
