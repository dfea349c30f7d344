#!/usr/bin/env bash
# Overhead of jumble mode against detect mode on the whole examples/racy-shapes test suite: RUNS rounds, each running
# the suite once per configuration in a fresh JVM (interleaved, so load changes hit every configuration alike), then
# the median wall time per configuration and its ratio to detect mode's median.
#
#   benchmarks/jumble-overhead.sh            # RUNS=10
# Configurations: no agent; detect; jumble on all seven racy fields under sc, random, and random with noise=on.
# (Jumbled suites may fail — that is the point of jumble mode; only the time is measured here.)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${RUNS:-10}"
OUT="${OUT:-$(mktemp -d /tmp/jumble-overhead.XXXXXX)}"
source "$ROOT/benchmarks/racy-shapes-env.sh"
P=dev.racetriage.examples
FIELDS="$P.RacyInitLoop.x,$P.Point.p,$P.Point.x,$P.Point.y,$P.HashCache.hash,$P.BusyWait.done,$P.BusyWait.result"
declare -A OPTS=(
  [no-agent]=""
  [detect]="mode=detect"
  [jumble-sc]="mode=jumble;field=$FIELDS;heuristic=sc"
  [jumble-random]="mode=jumble;field=$FIELDS;heuristic=random"
  [jumble-random-noise]="mode=jumble;field=$FIELDS;heuristic=random;noise=on"
)
CONFIGS="no-agent detect jumble-sc jumble-random jumble-random-noise"
for i in $(seq 1 "$RUNS"); do
  for c in $CONFIGS; do
    agent=()
    [ -n "${OPTS[$c]}" ] && agent=("-javaagent:$AGENT=${OPTS[$c]};seed=$i;out=$OUT/$c.$i.jsonl")
    [ "$c" = detect ] && agent=("-javaagent:$AGENT=mode=detect;out=$OUT/$c.$i.jsonl")
    start=$(date +%s%N)
    java $JAVA_OPTS ${agent[@]+"${agent[@]}"} -cp "$CP" dev.racetriage.launcher.TestLauncherMain \
      --results "$OUT/$c.$i.results.jsonl" --scan "$EXAMPLES/target/test-classes" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    printf '%s\t%s\t%s\n' "$c" "$i" $(( (end - start) / 1000000 )) >> "$OUT/raw.tsv"
  done
done
echo "raw: $OUT/raw.tsv (runs=$RUNS, JAVA_OPTS=$JAVA_OPTS)"
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
DETECT=$(awk -F'\t' '$1=="detect" { print $3 }' "$OUT/raw.tsv" | median)
echo "| configuration | median ms | ratio to detect |"
echo "| --- | --- | --- |"
for c in $CONFIGS; do
  m=$(awk -F'\t' -v c="$c" '$1==c { print $3 }' "$OUT/raw.tsv" | median)
  awk -v c="$c" -v m="$m" -v d="$DETECT" 'BEGIN { printf "| %s | %d | %.2f |\n", c, m, m / d }'
done
