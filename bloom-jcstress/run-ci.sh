#!/usr/bin/env bash
# Runs the jcstress tests of bloom-jcstress in a CI-sized configuration (about 1.5 minutes on 2 cores)
# and fails if any test has a FORBIDDEN outcome or an error.
#
#   bloom-jcstress/run-ci.sh            the two CI passes below
#   bloom-jcstress/run-ci.sh ARGS...    one run with your jcstress ARGS instead, e.g. "-m quick"
#                                       (all JVM modes and per-actor compilation: ~10 min on 2 cores)
#
# Needs bloom-jcstress/target/jcstress.jar (mvn -B package or verify builds it); builds it if missing.
# Uses $JAVA_HOME/bin/java if JAVA_HOME is set, else java from PATH. Reports and logs go to
# bloom-jcstress/target/jcstress-ci/.
#
# The default jcstress modes fork each test about 28 times (JVM flag sets times per-actor compilation
# modes), which takes ~10 minutes here. CI instead runs every test in two JVM modes with all actors
# compiled alike: C2 with its scheduling-stress flags (randomised instruction scheduling, the mode
# most likely to expose a missing fence), then C1. jcstress adds +/-UseBiasedLocking to each.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/target/jcstress.jar"
out="$here/target/jcstress-ci"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"

if [ ! -f "$jar" ]; then
  (cd "$here/.." && mvn -B -q -pl bloom-jcstress -am package -DskipTests)
fi
rm -rf "$out"
mkdir -p "$out"
cd "$out" # jcstress writes its binary results file into the working directory

status=0

# run NAME ARGS...: one jcstress run; prints its results tables; sets status=1 on any failure.
run() {
  local name="$1"
  shift
  local log="$out/$name.log"
  local start=$SECONDS
  echo "== jcstress $name: $*"
  local rc=0
  "$java" -jar "$jar" -r "$out/$name-report" -v "$@" >"$log" 2>&1 || rc=$?
  if ! grep -q '^RUN RESULTS:' "$log"; then
    echo "jcstress $name: no results (exit code $rc); last lines of $log:" >&2
    tail -n 40 "$log" >&2
    status=1
    return
  fi
  # The summary: every test's outcome table across the run's configurations. jcstress itself exits
  # non-zero and lists the failures (an AssertionError) when a forbidden outcome was seen.
  sed -n '/^RUN RESULTS:/,$p' "$log" | grep -v '^ *HTML report generated'
  grep -o 'Results: [0-9]* planned;[^)]*' "$log" | tail -n 1
  echo "jcstress $name took $((SECONDS - start)) s"
  if [ "$rc" -ne 0 ] || ! grep -q 'Failed tests: No matches\.' "$log" \
      || ! grep -q 'Error tests: No matches\.' "$log" \
      || ! grep -Eq 'Results: ([0-9]+) planned; \1 passed, 0 failed, 0 soft errs, 0 hard errs' "$log"; then
    echo "jcstress $name: FAILED (forbidden outcome or error; see above and $log)" >&2
    status=1
  fi
}

if [ "$#" -gt 0 ]; then
  run custom "$@"
else
  run c2-stress -m quick -sc false -iters 3 -time 300 \
    -jvmArgs "-XX:+UnlockDiagnosticVMOptions -XX:-TieredCompilation -XX:+StressLCM -XX:+StressGCM -XX:+StressIGVN -XX:+StressCCP"
  run c1 -m quick -sc false -iters 1 -time 200 -jvmArgs "-XX:TieredStopAtLevel=1"
fi
exit "$status"
