#!/usr/bin/env bash
# Runs RedisBenchmark against a throwaway redis-server on a free loopback port (started here, with no
# persistence, and shut down at the end), or against an existing Redis given as REDIS_URI.
#
#   bloom-benchmarks/run-redis.sh [METHOD-REGEXP] [JMH ARGUMENTS...]
#   bloom-benchmarks/run-redis.sh                                   all six cases, ~1 min
#   bloom-benchmarks/run-redis.sh 'redisMightContain$' -wi 0 -i 1 -r 1s      a ~10 s smoke check
#   REDIS_URI=redis://127.0.0.1:6379 bloom-benchmarks/run-redis.sh
#
# Prints JMH's table (ns per key) and keeps its JSON in target/jmh-redis.json. Needs redis-server
# (Debian: apt-get install redis-server) unless REDIS_URI is set.
set -euo pipefail

here="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
jar="$here/target/benchmarks.jar"

if [ ! -f "$jar" ] || [ -n "$(find "$root/bloom-core/src/main" "$root/bloom-redis/src/main" "$here/src/main" \
    "$root/pom.xml" "$here/pom.xml" -newer "$jar" -print 2>/dev/null | head -n 1)" ]; then
  echo "run-redis.sh: building $jar ..." >&2
  (cd "$root" && mvn -B -q -pl bloom-benchmarks -am -DskipTests package) >&2
  touch "$jar"
fi

uri="${REDIS_URI:-}"
if [ -z "$uri" ]; then
  dir=$(mktemp -d)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --save "" --appendonly no \
    --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
  trap 'redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
  for _ in $(seq 1 100); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1 # waiting for a server process to listen, not for a thread
  done
  uri="redis://127.0.0.1:$port"
fi

if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then java_cmd="$JAVA_HOME/bin/java"; else java_cmd="java"; fi
methods='.*'
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  methods="$1"
  shift
fi
"$java_cmd" -jar "$jar" "redis\.RedisBenchmark\.$methods" -jvmArgsAppend "-Dbloom.redis.uri=$uri" \
  -rf json -rff "$here/target/jmh-redis.json" "$@"
