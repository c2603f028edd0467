#!/usr/bin/env bash
# What the engine places cost the live games: `parlor loadtest` at 1,000 moves/s (an open loop of 500 games) against
# one server, alternating runs without analysis and runs while the analysis board's requests keep every engine place
# busy (three clients asking in a loop for 2 s searches: more than the places, so one always waits). The server runs
# with its default places (one fewer than the cores) on a fresh SQLite file each run.
#
#   PORT=18191 tools/analysis_load.sh BINARY [ROUNDS]      # prints each run's report, labelled
set -euo pipefail
bin=$1
rounds=${2:-3}
port=${PORT:-18191}
dir=$(mktemp -d /tmp/analysis-load.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$dir"' EXIT
ulimit -n "$(ulimit -Hn)"
. "$(dirname "$0")/fresh_server.sh"

ask() { # keeps asking the analysis board for long searches until killed
  while :; do
    curl -sS -o /dev/null -H 'content-type: application/json' \
      -d '{"game":"chess","moves":["e2e4","e7e5","g1f3"],"think_ms":2000}' "http://127.0.0.1:$port/api/analysis" || sleep 0.2
  done
}

run() { # label with-analysis
  local label=$1 busy=$2
  fresh_server "$bin" "$port" "$dir"
  local askers=()
  if [ "$busy" = yes ]; then
    for _ in 1 2 3; do ask & askers+=($!); done
    sleep 1
  fi
  echo "=== $label ($(date +%T))"
  "$bin" loadtest --url ws://127.0.0.1:$port --games 500 --duration 30 --rate 1000
  for p in "${askers[@]}"; do kill "$p" 2>/dev/null || true; done
  kill -INT "$server"
  wait "$server" || true
}

for _ in $(seq "$rounds"); do
  run "without analysis" no
  run "engine places busy" yes
done
