# Sourced by the load scripts: `fresh_server BINARY PORT DIR` starts `BINARY serve` on 127.0.0.1:PORT with a new
# SQLite file in DIR (its log in DIR/server.log), sets `server` to its pid and returns once /healthz answers.
fresh_server() {
  local bin=$1 port=$2 dir=$3
  rm -f "$dir"/p.db*
  "$bin" serve --listen 127.0.0.1:"$port" --database "sqlite://$dir/p.db?mode=rwc" >"$dir/server.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
}
