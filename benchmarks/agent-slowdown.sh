#!/usr/bin/env bash
# Slowdown of the racetriage agent in detect mode against the same JVM without an agent, on
#   1. the JUnit suite of examples/racy-shapes (run with the JUnit console launcher), and
#   2. a CPU-heavy multithreaded program, benchmarks/agent-slowdown/CpuWorkload.java
#      (a parallel matrix multiply and a lock-striped counter table).
# Each configuration runs RUNS times (default 5); the script prints the median wall time of each and the ratio,
# as Markdown table rows for benchmarks/RESULTS.md, preceded by the machine description.
#
# Usage: benchmarks/agent-slowdown.sh            (RUNS=7 MATRIX=240 INCREMENTS=400000 to change the work)
# Needs: java 17+, mvn (to build the agent and resolve the examples' JUnit), network access to Maven Central once.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${RUNS:-5}"
THREADS="${THREADS:-4}"
MATRIX="${MATRIX:-200}"
INCREMENTS="${INCREMENTS:-400000}"
CONSOLE_VERSION="1.14.1"
WORK="$(mktemp -d -t racetriage-bench-XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

AGENT_JAR="$(ls "$ROOT"/dynamic-runner/agent/target/racetriage-agent-*.jar 2>/dev/null | grep -v original | head -1 || true)"
if [[ -z "$AGENT_JAR" ]]; then
  (cd "$ROOT" && mvn -B -q -pl dynamic-runner/agent -am package -DskipTests)
  AGENT_JAR="$(ls "$ROOT"/dynamic-runner/agent/target/racetriage-agent-*.jar | grep -v original | head -1)"
fi
# a private copy: a concurrent build must not replace the jar under a running JVM
cp "$AGENT_JAR" "$WORK/agent.jar"

# the CPU-heavy program
mkdir -p "$WORK/cpu"
javac -d "$WORK/cpu" "$ROOT/benchmarks/agent-slowdown/CpuWorkload.java"

# the examples' classes and tests, compiled against their own JUnit; the console launcher to run them
EXAMPLES="$ROOT/examples/racy-shapes"
mvn -B -q -f "$EXAMPLES/pom.xml" dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$WORK/examples-cp.txt" >/dev/null
mvn -B -q dependency:copy -Dartifact="org.junit.platform:junit-platform-console-standalone:$CONSOLE_VERSION" \
  -DoutputDirectory="$WORK" -Dmdep.stripVersion=true >/dev/null
EXAMPLES_CP="$(cat "$WORK/examples-cp.txt")"
mkdir -p "$WORK/examples"
javac -g -d "$WORK/examples" -cp "$EXAMPLES_CP" $(find "$EXAMPLES/src/main/java" "$EXAMPLES/src/test/java" -name '*.java')

AGENT_OPT="-javaagent:$WORK/agent.jar=mode=detect;out=$WORK/report.jsonl"
EXAMPLES_CMD=(-jar "$WORK/junit-platform-console-standalone.jar" execute --disable-banner --details=none
  -cp "$WORK/examples:$EXAMPLES_CP" --select-package dev.racetriage.examples)
CPU_CMD=(-cp "$WORK/cpu" CpuWorkload "$THREADS" "$MATRIX" "$INCREMENTS")

# median wall time in ms of RUNS runs of: java <args>
median_ms() {
  local times=()
  for ((i = 0; i < RUNS; i++)); do
    local start end
    start=$(date +%s%N)
    java "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || { echo "run failed: java $*" >&2; cat "$WORK/err.txt" >&2; exit 1; }
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'
}

row() { # name, args...
  local name="$1"
  shift
  local plain agent
  plain=$(median_ms "$@")
  agent=$(median_ms "$AGENT_OPT" "$@")
  local status
  status=$(grep -o '"status":"[a-z]*"' "$WORK/report.jsonl" | head -1)
  local races
  races=$(grep -o '"races":[0-9]*' "$WORK/report.jsonl" | tail -1)
  printf '| %s | %s | %s | %s | %s ms | %s ms | %s | %s, %s |\n' "$(date -u +%F)" "$(nproc)" "$name" "$RUNS" \
    "$plain" "$agent" "$(awk -v a="$agent" -v p="$plain" 'BEGIN {printf "%.2fx", a / p}')" "$status" "$races"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "java: $(java -version 2>&1 | head -1)"
echo "command: RUNS=$RUNS THREADS=$THREADS MATRIX=$MATRIX INCREMENTS=$INCREMENTS benchmarks/agent-slowdown.sh"
echo
echo "| date | cores | workload | runs | no agent (median) | detect mode (median) | slowdown | agent report |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
row "examples/racy-shapes JUnit suite" "${EXAMPLES_CMD[@]}"
row "CpuWorkload $THREADS threads, matrix $MATRIX, $INCREMENTS increments" "${CPU_CMD[@]}"
row "CpuWorkload matrix only ($MATRIX)" -cp "$WORK/cpu" CpuWorkload "$THREADS" "$MATRIX" 1
row "CpuWorkload striped counters only ($INCREMENTS)" -cp "$WORK/cpu" CpuWorkload "$THREADS" 2 "$INCREMENTS"
