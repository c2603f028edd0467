#!/usr/bin/env bash
# Memory of the image renderer: starts `parlor serve` (the binary given, default target/release/parlor) on a
# temporary SQLite file, asks for N distinct 2048-px chess PNGs (distinct last-move squares, 4 at a time) and
# prints the server's VmRSS and VmHWM before and after, and the answers' status codes.
# Usage: tools/image_memory.sh [BINARY] [N]
set -euo pipefail
bin=${1:-target/release/parlor}
n=${2:-2400}
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
"$bin" serve --listen 127.0.0.1:0 --database "sqlite://$dir/p.db?mode=rwc" >"$dir/out" 2>"$dir/err" &
pid=$!
for _ in $(seq 100); do grep -q http:// "$dir/out" 2>/dev/null && break; sleep 0.1; done
addr=$(head -1 "$dir/out" | sed 's|.*http://||')
rss() { grep -E 'VmRSS|VmHWM' "/proc/$pid/status" | tr -s ' \t' ' ' | tr '\n' ' '; echo; }
echo "before: $(rss)"
files=abcdefgh
i=0
for a in $(seq 0 63); do
  for b in $(seq 0 63); do
    [ "$a" = "$b" ] && continue
    [ "$i" -ge "$n" ] && break 2
    from=${files:$((a % 8)):1}$((a / 8 + 1))
    to=${files:$((b % 8)):1}$((b / 8 + 1))
    echo "http://$addr/image/chess.png?size=2048&lastmove=$from$to"
    i=$((i + 1))
  done
done | xargs -P 4 -n 1 curl -s -o /dev/null -w '%{http_code}\n' >"$dir/codes"
echo "after:  $(rss)"
sort "$dir/codes" | uniq -c | sed 's/^/status /'
