#!/usr/bin/env bash
# Overhead of jumble mode against detect mode: RUNS rounds, each running the workload once per configuration in a
# fresh JVM (interleaved, so load changes hit every configuration alike), then the median wall time per configuration
# and its ratio to detect mode's median.
#
#   benchmarks/jumble-overhead.sh                 # the examples/racy-shapes test suite, RUNS=10
#   WORKLOAD=cpu RUNS=5 benchmarks/jumble-overhead.sh
#
# WORKLOAD=examples: jumble on all seven racy fields of the examples (the suite may fail under jumble: that is the
# point of jumble mode; only the time is measured). WORKLOAD=cpu: the striped counters of
# benchmarks/agent-slowdown/CpuWorkload.java (THREADS threads, INCREMENTS lock-protected increments each) with both
# hot fields, Stripe.count and Stripe.sum, jumbled — every one of their reads goes through a write buffer; the
# printed total must stay threads × increments, since the locks order every access. WORKLOAD=hotfield: the
# branch-and-bound search of benchmarks/agent-slowdown/HotBound.java (THREADS threads, CITIES cities: 14 reads its
# racy bound about 5.6 million times) with the bound jumbled — the shape of JUMBLE's tsp and of issue 19's hot field.
# Configurations: no agent; detect; jumble under sc, random, and random with noise=on.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${RUNS:-10}"
OUT="${OUT:-$(mktemp -d /tmp/jumble-overhead.XXXXXX)}"
source "$ROOT/benchmarks/racy-shapes-env.sh"
WORKLOAD="${WORKLOAD:-examples}"
if [ "$WORKLOAD" = hotfield ]; then
  mkdir -p "$OUT/hotfield"
  javac -d "$OUT/hotfield" "$ROOT/benchmarks/agent-slowdown/HotBound.java"
  FIELDS='HotBound.bound'
  RUN=(-cp "$OUT/hotfield" HotBound "${THREADS:-4}" "${CITIES:-14}")
elif [ "$WORKLOAD" = cpu ]; then
  mkdir -p "$OUT/cpu"
  javac -d "$OUT/cpu" "$ROOT/benchmarks/agent-slowdown/CpuWorkload.java"
  FIELDS='CpuWorkload$Stripe.count,CpuWorkload$Stripe.sum'
  RUN=(-cp "$OUT/cpu" CpuWorkload "${THREADS:-4}" 2 "${INCREMENTS:-200000}")
else
  P=dev.racetriage.examples
  FIELDS="$P.RacyInitLoop.x,$P.Point.p,$P.Point.x,$P.Point.y,$P.HashCache.hash,$P.BusyWait.done,$P.BusyWait.result"
  RUN=(-cp "$CP" dev.racetriage.launcher.TestLauncherMain --scan "$EXAMPLES/target/test-classes")
fi
declare -A OPTS=(
  [no-agent]=""
  [detect]="mode=detect"
  [jumble-sc]="mode=jumble;field=$FIELDS;heuristic=sc"
  [jumble-random]="mode=jumble;field=$FIELDS;heuristic=random"
  [jumble-random-noise]="mode=jumble;field=$FIELDS;heuristic=random;noise=on"
)
CONFIGS="${CONFIGS:-no-agent detect jumble-sc jumble-random jumble-random-noise}"
for i in $(seq 1 "$RUNS"); do
  for c in $CONFIGS; do
    agent=()
    [ -n "${OPTS[$c]}" ] && agent=("-javaagent:$AGENT=${OPTS[$c]};seed=$i;out=$OUT/$c.$i.jsonl")
    [ "$c" = detect ] && agent=("-javaagent:$AGENT=mode=detect;out=$OUT/$c.$i.jsonl")
    start=$(date +%s%N)
    results=()
    [ "$WORKLOAD" = examples ] && results=(--results "$OUT/$c.$i.results.jsonl")
    java $JAVA_OPTS ${agent[@]+"${agent[@]}"} "${RUN[@]}" ${results[@]+"${results[@]}"} >"$OUT/$c.$i.out" 2>&1 || true
    end=$(date +%s%N)
    printf '%s\t%s\t%s\n' "$c" "$i" $(( (end - start) / 1000000 )) >> "$OUT/raw.tsv"
  done
done
echo "raw: $OUT/raw.tsv (workload=$WORKLOAD, runs=$RUNS, JAVA_OPTS=$JAVA_OPTS)"
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
DETECT=$(awk -F'\t' '$1=="detect" { print $3 }' "$OUT/raw.tsv" | median)
echo "| configuration | median ms | ratio to detect |"
echo "| --- | --- | --- |"
for c in $CONFIGS; do
  m=$(awk -F'\t' -v c="$c" '$1==c { print $3 }' "$OUT/raw.tsv" | median)
  awk -v c="$c" -v m="$m" -v d="$DETECT" 'BEGIN { printf "| %s | %d | %.2f |\n", c, m, m / d }'
done
