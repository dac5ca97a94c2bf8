#!/usr/bin/env bash
# Counts the Redis server's instructions per script call of a RedisBloomFilter (add, query) with
# valgrind's callgrind, counting inside evalShaCommand only: repeatable whatever the machine's load, so
# two versions of the scripts compare exactly where timings are too noisy (docs/BENCHMARKS.md, "Redis").
#
#   bloom-benchmarks/run-redis-callgrind.sh [N]      N adds and N queries (default 2000)
#
# Needs redis-server and valgrind (Debian: apt-get install redis-server valgrind). Prints the totals of
# a run with 0 and with N calls of each kind, and the instructions per add and per query.
set -euo pipefail

here="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
jar="$here/target/benchmarks.jar"
n="${1:-2000}"

if [ ! -f "$jar" ] || [ -n "$(find "$root/bloom-core/src/main" "$root/bloom-redis/src/main" "$here/src/main" \
    "$root/pom.xml" "$here/pom.xml" -newer "$jar" -print 2>/dev/null | head -n 1)" ]; then
  echo "run-redis-callgrind.sh: building $jar ..." >&2
  (cd "$root" && mvn -B -q -pl bloom-benchmarks -am -DskipTests package) >&2
  touch "$jar"
fi
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then java_cmd="$JAVA_HOME/bin/java"; else java_cmd="java"; fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Instructions inside evalShaCommand for the workload with $1 calls of each kind.
count() {
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  valgrind --tool=callgrind --callgrind-out-file="$dir/cg.$1" --toggle-collect=evalShaCommand \
    redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --save "" --appendonly no --daemonize no \
    --logfile "$dir/redis.log" >/dev/null 2>&1 &
  local server=$!
  for _ in $(seq 1 300); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1 # waiting for a server process under valgrind to listen, not for a thread
  done
  "$java_cmd" -cp "$jar" org.concurrentbloom.benchmarks.redis.RedisScriptWorkload "$port" "$1"
  redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
  wait "$server" || true
  callgrind_annotate "$dir/cg.$1" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}

base=$(count 0)
with=$(count "$n")
echo "instructions in evalShaCommand: $base with 0 calls (create + 2,000 adds), $with with $n adds and $n queries more"
python3 - "$base" "$with" "$n" <<'PY'
import sys
base, total, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
per_add = base / 2000          # the warm-up's adds (the create and script loads are a few per mille of it)
per_query = (total - base - n * per_add) / n
print(f"about {per_add:,.0f} instructions per add, {per_query:,.0f} per query")
PY
