#!/usr/bin/env bash
# A/B of `parlor loadtest` between two server builds, in one run on this machine, with the settings of
# docs/deploy.md ("How fast one node is"): an open loop of 5,000 games at 5,000 moves/s for 60 s and a closed loop
# of 1,000 games for 30 s, each against a fresh SQLite file. The runs alternate A, B, A, B, ... so that a drift of
# the machine hits both sides alike; one load generator (the B binary's `parlor loadtest`) drives both.
#
#   PORT=18190 tools/loadtest_ab.sh A_BINARY B_BINARY [ROUNDS]      # prints each run's report, labelled
set -euo pipefail
a=$1
b=$2
rounds=${3:-2}
port=${PORT:-18190}
dir=$(mktemp -d /tmp/loadtest-ab.XXXXXX)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$dir"' EXIT
ulimit -n "$(ulimit -Hn)"
. "$(dirname "$0")/fresh_server.sh"

run() { # label binary kind
  local label=$1 bin=$2 kind=$3
  fresh_server "$bin" "$port" "$dir"
  echo "=== $label $kind ($(date +%T))"
  if [ "$kind" = open ]; then
    "$b" loadtest --url ws://127.0.0.1:$port --games 5000 --duration 60 --rate 5000 --connect-parallel 128
  else
    "$b" loadtest --url ws://127.0.0.1:$port --games 1000 --duration 30
  fi
  kill -INT "$server"
  wait "$server" || true
}

for i in $(seq "$rounds"); do
  for kind in open closed; do
    run "A $(basename "$(dirname "$(dirname "$(dirname "$a")")")")" "$a" "$kind"
    run "B $(basename "$(dirname "$(dirname "$(dirname "$b")")")")" "$b" "$kind"
  done
done
