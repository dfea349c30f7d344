#!/usr/bin/env bash
# JUMBLE Figure 9 on examples/racy-shapes: for each (field, configuration) run the field's test RUNS times, each in a
# fresh JVM (seed = run number), and print the percentage of runs whose test failed (assertion, exception, or hang
# past TIMEOUT seconds). Configurations: no agent, then the agent in jumble mode under each heuristic.
#
#   benchmarks/jumble-figure9.sh                  # 100 runs per row, 2 JVMs at a time
#   RUNS=10 PAR=1 NOISE=on benchmarks/jumble-figure9.sh
#   HEURISTICS="sc oldest-but-different" FIELDS="RacyInitLoop.x" benchmarks/jumble-figure9.sh
#
# Needs: the agent and launcher jars built in this checkout (mvn -B -o -q -pl dynamic-runner/agent,dynamic-runner/launcher
# package -DskipTests; AGENT=jar overrides the agent), Maven for the examples' test classpath. Raw results go to $OUT/raw.tsv (field, config, seed,
# outcome, reads, staleReads, millis).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${RUNS:-100}"
SEED0="${SEED0:-0}"  # seeds are SEED0+1 .. SEED0+RUNS (to extend an earlier run in the same OUT)
PAR="${PAR:-2}"
NOISE="${NOISE:-off}"
TIMEOUT="${TIMEOUT:-60}"
HEURISTICS="${HEURISTICS:-no-agent sc oldest oldest-but-different random random-but-different}"
FIELDS="${FIELDS:-RacyInitLoop.x Point.p Point.x Point.y}"
OUT="${OUT:-$(mktemp -d /tmp/jumble-figure9.XXXXXX)}"
source "$ROOT/benchmarks/racy-shapes-env.sh"

test_of() {
  case "$1" in
    RacyInitLoop.*) echo "dev.racetriage.examples.RacyInitLoopTest#everyRoundDrawsTheCircle" ;;
    Point.*) echo "dev.racetriage.examples.PointTest#bothThreadsSeeSlopeOne" ;;
    HashCache.*) echo "dev.racetriage.examples.HashCacheTest#everyThreadGetsTheStringHash" ;;
    BusyWait.*) echo "dev.racetriage.examples.BusyWaitTest#consumerSeesTheProducedSum" ;;
    TourSearch.*) echo "dev.racetriage.examples.TourSearchTest#findsTheShortestTour" ;;
    *) echo "unknown field $1" >&2; exit 1 ;;
  esac
}

# one run: field config seed -> a raw.tsv line
one_run() {
  local field="$1" config="$2" seed="$3" dir="$OUT/runs/$1.$2.$3"
  mkdir -p "$dir"
  local agent=()
  if [ "$config" != "no-agent" ]; then
    local opts="mode=jumble;field=dev.racetriage.examples.$field;heuristic=$config;seed=$seed;out=$dir/jumble.jsonl"
    [ "$NOISE" = "on" ] && opts="$opts;noise=on"
    agent=("-javaagent:$AGENT=$opts")
  fi
  local start end outcome
  start=$(date +%s%N)
  if timeout "$TIMEOUT" java $JAVA_OPTS ${agent[@]+"${agent[@]}"} -cp "$CP" dev.racetriage.launcher.TestLauncherMain \
      --results "$dir/results.jsonl" --select-method "$(test_of "$field")" >"$dir/out.txt" 2>&1; then
    outcome=pass
  else
    outcome=fail
  fi
  end=$(date +%s%N)
  grep -q '"failed":0' "$dir/results.jsonl" 2>/dev/null || outcome=fail
  grep -q '"event":"summary"' "$dir/results.jsonl" 2>/dev/null || outcome=fail
  local reads=- stale=-
  if [ -f "$dir/jumble.jsonl" ]; then
    reads=$(grep '"type":"jumble"' "$dir/jumble.jsonl" | sed 's/.*"reads":\([0-9]*\).*/\1/')
    stale=$(grep '"type":"jumble"' "$dir/jumble.jsonl" | sed 's/.*"staleReads":\([0-9]*\).*/\1/')
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$field" "$config" "$seed" "$outcome" "$reads" "$stale" $(( (end - start) / 1000000 ))
}
export -f one_run test_of
export OUT AGENT CP NOISE TIMEOUT JAVA_OPTS

for field in $FIELDS; do
  for config in $HEURISTICS; do
    seq $((SEED0 + 1)) $((SEED0 + RUNS)) | sed "s/^/$field $config /"
  done
done | xargs -P "$PAR" -L 1 bash -c 'one_run "$0" "$1" "$2"' >> "$OUT/raw.tsv"

echo "raw results: $OUT/raw.tsv (runs=$RUNS, noise=$NOISE, JAVA_OPTS=$JAVA_OPTS)"
printf '| field |'; for c in $HEURISTICS; do printf ' %s |' "$c"; done; echo
printf '| --- |'; for c in $HEURISTICS; do printf ' --- |'; done; echo
for field in $FIELDS; do
  printf '| %s |' "$field"
  for config in $HEURISTICS; do
    awk -F'\t' -v f="$field" -v c="$config" '$1==f && $2==c { n++; if ($4=="fail") k++; if ($6+0>0) s++ }
      END { if (n==0) printf " - |"; else if (c=="no-agent") printf " %d |", 100*k/n;
            else printf " %d (stale in %d) |", 100*k/n, 100*s/n }' "$OUT/raw.tsv"
  done
  echo
done
