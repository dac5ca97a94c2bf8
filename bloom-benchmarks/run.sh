#!/usr/bin/env bash
# Runs the JMH benchmark suite and turns the results into docs/BENCHMARKS-results.md and
# docs/benchmarks.png.
#
#   bloom-benchmarks/run.sh [quick|full] [JMH ARGUMENTS...]
#
#   quick  every benchmark at n = 1M only, 1 warm-up and 3 measurement iterations of 1 s:
#          about 84 cases at some 5 s each. A check that everything works, not numbers to publish.
#          The default.
#   full   every case (n = 1M and 10M), 2 warm-up iterations of 1 s and 5 measurement iterations of
#          2 s: 136 cases, about 35 minutes on 2 cores (12 s of iterations per case plus JVM start
#          and filling the filter, up to ~7 s for a 10M-key Guava filter and 10-20 s for a full
#          10M-key window of ExpiringBenchmark).
#
# Every run compares ours with all the peer libraries in the same JMH run: Guava, Commons Collections,
# DataSketches, and FastFilter (long keys only, in LongKeysBenchmark); see docs/BENCHMARKS.md, "Peers".
# ExpiringBenchmark compares the expiring filter with Commons Collections' LayeredBloomFilter; run it
# alone with the regexp 'ExpiringBenchmark' (docs/BENCHMARKS.md, "Expiring filter (issue 15)").
#
# Further arguments go to JMH as they are, e.g. a benchmark regexp to run a subset:
#   bloom-benchmarks/run.sh quick 'MightContainBenchmark'    or    ... full -p keys=LONG
#
# Builds target/benchmarks.jar first when it is missing or older than a source or pom file. Results:
# target/jmh-result.json (JMH's JSON) and target/jmh-output.txt (its log). One fork per case, one case
# at a time: on a 2-core machine, anything else running at the same time shows up in the numbers.
# Environment: JAVA_HOME selects the JDK.
set -euo pipefail

here="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
jar="$here/target/benchmarks.jar"
result="$here/target/jmh-result.json"
log="$here/target/jmh-output.txt"

mode="${1:-quick}"
[ $# -gt 0 ] && shift
case "$mode" in
  quick)
    # Three measurement iterations, not two: JMH gives no error estimate for fewer than three.
    jmh_settings=(-f 1 -wi 1 -w 1s -i 3 -r 1s -p n=1000000)
    title="Quick run (n = 1M only): a smoke test, not for publishing"
    ;;
  full)
    jmh_settings=(-f 1 -wi 2 -w 1s -i 5 -r 2s)
    title="Full run"
    ;;
  *)
    echo "usage: $0 [quick|full] [JMH ARGUMENTS...]" >&2
    exit 2
    ;;
esac

if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
  java_cmd="$JAVA_HOME/bin/java"
else
  java_cmd="java"
fi

stale() {
  [ ! -f "$jar" ] || [ -n "$(find "$root/bloom-core/src/main" "$here/src/main" "$root/pom.xml" "$here/pom.xml" \
    -newer "$jar" -print 2>/dev/null | head -n 1)" ]
}

if stale; then
  echo "run.sh: building $jar ..." >&2
  (cd "$root" && mvn -B -q -pl bloom-benchmarks -am -DskipTests package) >&2
  touch "$jar"
fi

started=$(date +%s)
echo "run.sh: $mode run started $(date '+%Y-%m-%d %H:%M:%S'); log in $log" >&2
# -bm/-tu repeat the annotations so that a JMH default can never change the unit of the report.
# RedisBenchmark needs a Redis server and has its own script (run-redis.sh): excluded here. So are the
# profile benchmarks (docs/PROFILE.md has their command), which measure parts of a lookup, not libraries.
"$java_cmd" -jar "$jar" "${jmh_settings[@]}" -e 'redis\.RedisBenchmark|\.profile\.' -bm avgt -tu ns -rf json -rff "$result" "$@" 2>&1 | tee "$log"
elapsed=$(( $(date +%s) - started ))
echo "run.sh: JMH took $((elapsed / 60)) min $((elapsed % 60)) s" >&2

"$java_cmd" -cp "$jar" org.concurrentbloom.benchmarks.report.BenchmarkReport "$result" \
  --markdown "$root/docs/BENCHMARKS-results.md" --chart "$root/docs/benchmarks.png" --title "$title"
echo "run.sh: wrote docs/BENCHMARKS-results.md and docs/benchmarks.png" >&2
