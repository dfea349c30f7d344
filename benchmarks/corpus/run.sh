#!/usr/bin/env bash
# Evaluation corpus (issue 10): for every racy field of benchmarks/corpus/expected.tsv and every configuration, run
# the field's JUnit test RUNS times (seed = run number) and report the observation rate (percent of runs whose test
# failed: assertion, exception, or a hang past TIMEOUT seconds); then the verdict `racetriage triage` reaches on the
# corpus and whether it is one the table accepts; then the JUMBLE Figure 10 cost columns per field.
#
#   benchmarks/corpus/run.sh                                   # 100 runs per cell, 2 JVMs at a time, then triage
#   RUNS=5 FIELDS='RacyInitLoop.x|Point\.' TRIAGE=off benchmarks/corpus/run.sh
#   TRIAGE_JSON=/tmp/t.json RUNS=0 COST_RUNS=0 benchmarks/corpus/run.sh   # only the verdicts of an earlier triage
#
# CONFIGS: no-agent, sc, oldest, oldest-but-different, random, random-but-different (jumble mode with only that
# field under trial). MODE=serve runs a cell's RUNS runs in one JVM through the launcher's trial server
# (`TestLauncherMain --serve`, a fresh jumble run per seed; benchmarks/corpus/serve_runs.py drives it; a hang or a
# crash costs that run and a new JVM); MODE=fork starts a fresh JVM per run, as the runner's trials did before the
# trial server; MODE=auto (default) serves when the launcher jar has the trial server. The corpus's tests reset their
# static state before starting threads, so a repeat in one JVM races as the first run did.
# Cost columns: COST_RUNS fresh JVMs per field without an agent, in detect mode and in jumble mode under sc.
# Array fields are jumbled at the elements a detect-mode run of their test saw race (first 8), as triage does.
#
# Output: the markdown section on stdout and in $OUT/section.md; raw runs in $OUT/raw.tsv and $OUT/cost.tsv (field,
# config, seed, outcome, reads, staleReads, writes, JVM or run wall millis, test millis, then the agent's locations,
# maxBufferUncompressed, maxBufferCompressed, removedOldest); the triage in triage.json.
# Needs: the agent, launcher and cli built in this checkout (mvn -B -o -q -pl cli,dynamic-runner/launcher -am package
# -DskipTests); Maven for the corpus's test class path; python3.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
CORPUS="$ROOT/benchmarks/corpus"
RUNS="${RUNS:-100}"
PAR="${PAR:-2}"
TIMEOUT="${TIMEOUT:-60}"
CONFIGS="${CONFIGS:-no-agent sc oldest oldest-but-different random random-but-different}"
MODE="${MODE:-auto}"
COST_RUNS="${COST_RUNS:-10}"
FIELDS="${FIELDS:-.}"          # extended regular expression on the field key
TRIAGE="${TRIAGE:-on}"         # on: run `racetriage triage` on the corpus; off: no verdict columns
TRIAGE_ARGS="${TRIAGE_ARGS:-}" # e.g. "--trials 10 --jobs 2"
OUT="${OUT:-$(mktemp -d /tmp/corpus-eval.XXXXXX)}"
# short-lived JVMs: C1 only and the serial collector halve the CPU per run (the machine is shared); override to compare
JAVA_OPTS="${JAVA_OPTS:--XX:TieredStopAtLevel=1 -XX:+UseSerialGC}"
mkdir -p "$OUT"

AGENT="${AGENT:-$(ls "$ROOT"/dynamic-runner/agent/target/racetriage-agent-*.jar | grep -v original | head -1)}"
LAUNCHER="${LAUNCHER:-$(ls "$ROOT"/dynamic-runner/launcher/target/racetriage-launcher-*.jar | head -1)}"
(cd "$CORPUS" && mvn -B -o -q test-compile dependency:build-classpath -Dmdep.outputFile="$OUT/deps.txt" >/dev/null)
PLATFORM_VERSION="$(tr ':' '\n' < "$OUT/deps.txt" | sed -n 's#.*/junit-platform-engine/\([^/]*\)/.*#\1#p' | head -1)"
LAUNCHER_API="$HOME/.m2/repository/org/junit/platform/junit-platform-launcher/$PLATFORM_VERSION/junit-platform-launcher-$PLATFORM_VERSION.jar"
[ -f "$LAUNCHER_API" ] || { echo "missing $LAUNCHER_API: run 'mvn dependency:get -Dartifact=org.junit.platform:junit-platform-launcher:$PLATFORM_VERSION'" >&2; exit 1; }
# the launcher uses the agent's JSON writer, so the agent jar is on the class path as the runner puts it there
CP="$CORPUS/target/test-classes:$CORPUS/target/classes:$(cat "$OUT/deps.txt"):$LAUNCHER_API:$LAUNCHER:$AGENT"
if [ "$MODE" = auto ]; then
  # not `unzip | grep -q`: grep quitting early SIGPIPEs unzip, and pipefail then says "no"
  if [ -n "$(unzip -l "$LAUNCHER" | grep TrialServer.class)" ]; then MODE=serve; else MODE=fork; fi
fi

# the table's rows (comments dropped), filtered by FIELDS
grep -v '^#' "$CORPUS/expected.tsv" | awk -F'\t' -v re="$FIELDS" '$1 ~ re' > "$OUT/rows.tsv"

# one run: field test config seed -> a raw.tsv line
one_run() {
  local field="$1" test="$2" config="$3" seed="$4"
  local dir="$OUT/runs/${field##*.corpus.}.$config.$seed"
  mkdir -p "$dir"
  local agent=()
  case "$config" in
    no-agent) ;;
    detect) agent=("-javaagent:$AGENT=mode=detect;out=$dir/races.jsonl") ;;
    *) agent=("-javaagent:$AGENT=mode=jumble;field=$field;heuristic=$config;seed=$seed$(indices_option "$field");out=$dir/jumble.jsonl") ;;
  esac
  local start end outcome=pass
  start=$(date +%s%N)
  timeout "$TIMEOUT" java $JAVA_OPTS ${agent[@]+"${agent[@]}"} -cp "$CP" dev.racetriage.launcher.TestLauncherMain \
      --results "$dir/results.jsonl" --select-method "$test" >"$dir/out.txt" 2>&1 || outcome=fail
  end=$(date +%s%N)
  grep -q '"failed":0' "$dir/results.jsonl" 2>/dev/null || outcome=fail
  grep -q '"event":"summary"' "$dir/results.jsonl" 2>/dev/null || outcome=fail
  local reads=- stale=- writes=- testms=- locations=- nocomp=- comp=- removed=-
  if [ -f "$dir/jumble.jsonl" ]; then
    local line
    line=$(grep '"type":"jumble"' "$dir/jumble.jsonl" | head -1)
    # a member the agent did not write (an older agent) stays "-"
    member() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" <<<"$line" | grep . || echo -; }
    reads=$(member reads)
    stale=$(member staleReads)
    writes=$(member writes)
    locations=$(member locations)
    nocomp=$(member maxBufferUncompressed)
    comp=$(member maxBufferCompressed)
    removed=$(member removedOldest)
  fi
  testms=$(grep '"event":"finished"' "$dir/results.jsonl" 2>/dev/null | sed -n 's/.*"millis":\([0-9]*\).*/\1/p' | head -1)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$field" "$config" "$seed" "$outcome" "$reads" \
    "$stale" "$writes" $(( (end - start) / 1000000 )) "${testms:--}" "$locations" "$nocomp" "$comp" "$removed"
  # keep the evidence of failures only: a full run leaves thousands of directories otherwise
  [ "$outcome" = fail ] || rm -rf "$dir"
}
# one cell in one JVM through the trial server: field test config -> RUNS raw.tsv lines
serve_cell() {
  local field="$1" test="$2" config="$3"
  local dir="$OUT/serve/${field##*.corpus.}.$config"
  mkdir -p "$dir"
  local agent=()
  case "$config" in
    no-agent) ;;
    *) agent=("-javaagent:$AGENT=mode=jumble;field=$field;heuristic=$config;seed=1$(indices_option "$field");out=$dir/jumble.jsonl") ;;
  esac
  python3 "$CORPUS/serve_runs.py" --field "$field" --config "$config" --seeds 1 "$RUNS" --timeout "$TIMEOUT" $NOISE_FLAG \
    --log "$dir/stderr.txt" -- java $JAVA_OPTS ${agent[@]+"${agent[@]}"} -cp "$CP" \
    dev.racetriage.launcher.TestLauncherMain --serve --results "$dir/results.jsonl" --select-method "$test"
}
# an array field is jumbled at the elements a detect-mode run of its test saw race (the first 8, as the runner's
# trials do: trial.JumbledIndices); ";indices=…" or nothing (the agent's default 0,1) for a field or no indices
detect_indices() {
  local field="$1" test="$2"
  local dir="$OUT/indices/${field##*.corpus.}"
  mkdir -p "$dir"
  timeout "$TIMEOUT" java $JAVA_OPTS "-javaagent:$AGENT=mode=detect;out=$dir/races.jsonl" -cp "$CP" \
      dev.racetriage.launcher.TestLauncherMain --results "$dir/results.jsonl" --select-method "$test" \
      >"$dir/out.txt" 2>&1 || true
  python3 - "$dir/races.jsonl" "$field" > "$dir/indices.txt" <<'PY' || true
import json, sys
for line in open(sys.argv[1]):
    race = json.loads(line)
    if race.get("type") == "race" and race.get("field") == sys.argv[2] and race.get("indices"):
        print(",".join(str(i) for i in race["indices"][:8]))
PY
}
indices_option() {
  local file="$OUT/indices/${1##*.corpus.}/indices.txt"
  # the report is streamed: a field's last line is its final state
  if [ -s "$file" ]; then echo ";indices=$(tail -1 "$file")"; fi
}
export -f one_run serve_cell indices_option
# NOISE=on (serve mode): the agent's seeded schedule noise at jumbled accesses in every adversarial run
NOISE_FLAG=$([ "${NOISE:-off}" = on ] && echo --noise || true)
export OUT AGENT CP TIMEOUT JAVA_OPTS CORPUS RUNS NOISE_FLAG

while IFS=$'\t' read -r field _ _ test _; do
  case "$field" in *'[]') detect_indices "$field" "$test" ;; esac
done < "$OUT/rows.tsv"

if [ "$RUNS" -gt 0 ] && [ "$MODE" = serve ]; then
  while IFS=$'\t' read -r field _ _ test _; do
    for config in $CONFIGS; do echo "$field $test $config"; done
  done < "$OUT/rows.tsv" | xargs -P "$PAR" -L 1 bash -c 'serve_cell "$0" "$1" "$2"' >> "$OUT/raw.tsv"
elif [ "$RUNS" -gt 0 ]; then
  # interleave configurations and seeds so a change in the machine's load spreads over every cell
  for seed in $(seq 1 "$RUNS"); do
    while IFS=$'\t' read -r field _ _ test _; do
      for config in $CONFIGS; do echo "$field $test $config $seed"; done
    done < "$OUT/rows.tsv"
  done | xargs -P "$PAR" -L 1 bash -c 'one_run "$0" "$1" "$2" "$3"' >> "$OUT/raw.tsv"
fi
touch "$OUT/raw.tsv"

# the cost columns: fresh JVMs (start-up and instrumentation included, as in the paper's whole-program times)
if [ "$COST_RUNS" -gt 0 ]; then
  for seed in $(seq 1 "$COST_RUNS"); do
    while IFS=$'\t' read -r field _ _ test _; do
      for config in no-agent detect sc; do echo "$field $test $config $seed"; done
    done < "$OUT/rows.tsv"
  done | xargs -P "$PAR" -L 1 bash -c 'one_run "$0" "$1" "$2" "$3"' >> "$OUT/cost.tsv"
fi
touch "$OUT/cost.tsv"

if [ "$TRIAGE" = on ] && [ -z "${TRIAGE_JSON:-}" ]; then
  TRIAGE_JSON="$OUT/triage.json"
  rm -rf "$CORPUS/.racetriage"
  start=$(date +%s)
  set +e
  (cd "$ROOT" && ./racetriage triage benchmarks/corpus --format json --out "$TRIAGE_JSON" $TRIAGE_ARGS) 2> "$OUT/triage.log"
  echo "triage exit code $? in $(( $(date +%s) - start )) s" >> "$OUT/triage.log"
  set -e
fi

python3 "$CORPUS/report.py" --rows "$OUT/rows.tsv" --raw "$OUT/raw.tsv" --cost "$OUT/cost.tsv" --configs "$CONFIGS" \
  --mode "$MODE" ${TRIAGE_JSON:+--triage "$TRIAGE_JSON"} > "$OUT/section.md"
cat "$OUT/section.md"
echo "raw results: $OUT (RUNS=$RUNS, MODE=$MODE, COST_RUNS=$COST_RUNS, JAVA_OPTS=$JAVA_OPTS)" >&2
