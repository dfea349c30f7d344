#!/usr/bin/env bash
# Slowdown of the racetriage agent in detect mode against the same JVM without an agent, on
#   1. the JUnit suite of examples/racy-shapes (run with the JUnit console launcher), and
#   2. a CPU-heavy multithreaded program, benchmarks/agent-slowdown/CpuWorkload.java
#      (a parallel matrix multiply and a lock-striped counter table), at two sizes: a short one (MATRIX, INCREMENTS;
#      about 0.1 s of work, so JVM start-up and the agent's fixed costs weigh in) and a steady-state one (MATRIX_STEADY,
#      INCREMENTS_STEADY; about 0.5 s of work without the agent, so the per-access and per-synchronisation costs
#      dominate), each whole and in its two parts; and, on its own, a third part off in the whole-program rows: the
#      counter table with synchronized blocks instead of ReentrantLocks; and
#   3. the kernels of benchmarks/agent-slowdown/GrandeKernels.java (series, sor, crypt, montecarlo, lufact, moldyn,
#      raytracer: compact race-free versions of the Java Grande Forum multithreaded programs FastTrack and RoadRunner
#      measured their detectors on), each at KERNEL_SIZE (short) and KERNEL_SIZE_STEADY (steady state).
# Each configuration runs RUNS times (default 5); the script prints the median wall time of each and the ratio,
# as Markdown table rows for benchmarks/RESULTS.md, preceded by the machine description, and at the end the median
# of the slowdowns over the suite and the CPU-heavy programs (the whole CpuWorkload and each kernel) at each size.
#
# Usage: benchmarks/agent-slowdown.sh            (RUNS=7 MATRIX=240 INCREMENTS=400000 MATRIX_STEADY=600
#                                                 INCREMENTS_STEADY=4000000 to change the work; STEADY=0 skips the
#                                                 steady-state rows)
#        AGENT_JAR=path      use this agent jar instead of the one built from the working tree
#        BASELINE_JAR=path   also run a second agent jar (e.g. built from an older commit), interleaved run by run
#                            with the others (no agent, agent, baseline agent; then no agent, baseline agent, agent;
#                            ...), and add its columns
#        EMPTY_TOOL=1        also run the agent as an empty tool (-Dracetriage.agent.emptyTool=true: instrumented
#                            code and hooks, no analysis), interleaved with the others, and add its columns: the
#                            floor under detect mode's cost (RoadRunner's empty tool measures the same)
#        KERNELS="sor crypt" the GrandeKernels kernels to run (default: all seven; KERNELS= skips them)
#        KERNEL_SIZE=1 KERNEL_SIZE_STEADY=4   their work at the short and the steady-state size
#        CPU_TIME=1          also report the median CPU time (user+sys, from /usr/bin/time) of every configuration:
#                            less sensitive than wall time to other processes on a shared machine
#        GRANDE=PATH         also run the Java Grande Forum originals from a RoadRunner checkout (github.com/
#                            stephenfreund/RoadRunner at b14161679702114a6b4023d7e3e3a836849e8aac: its
#                            benchmarks/<program>/original.jar, never copied here), GRANDE_PROGRAMS (default: crypt
#                            lufact moldyn montecarlo raytracer series sor sparsematmult) at GRANDE_SIZE (A), with
#                            GRANDE_THREADS (4) threads; the geometric mean of their slowdowns ends the output
#        SUITES="DIR ..."    also run real test suites: each DIR is a Maven module of a project checkout (built once
#                            with network access, so `mvn -o` resolves it); its test classes run through racetriage's
#                            JUnit Platform launcher (--scan target/test-classes), with and without the agent; rows
#                            give peak RSS too, and the test class with the highest slowdown
#        SUITE_TESTS='A*Test,B' only these test classes of each suite (Surefire's -Dtest syntax, the launcher's --tests)
#        BUILTIN=0           skip the examples, CpuWorkload and GrandeKernels rows (only GRANDE and SUITES)
#        BASELINE_EXTRA=';predict=false'  appended to the baseline agent's options (e.g. the same jar, BASELINE_JAR=
#                            AGENT_JAR, with prediction off: the cost of the default bounded prediction)
#        AGENT_JVM='-XX:+UseParallelGC'  JVM options of the runs under an agent (both agents, not the plain run):
#                            racetriage's detection JVM runs with the parallel collector unless the project chose one
#        AGENT_EXTRA=';cache=off'  appended to the new agent's options (e.g. to measure it without its class cache;
#                            by default the agent keeps instrumented classes in ~/.cache/racetriage/agent-classes,
#                            so the first run of a new agent jar instruments and later runs reuse)
# Needs: java 17+, mvn (to build the agent and resolve the examples' JUnit), network access to Maven Central once.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${RUNS:-5}"
THREADS="${THREADS:-4}"
MATRIX="${MATRIX:-200}"
INCREMENTS="${INCREMENTS:-400000}"
STEADY="${STEADY:-1}"
MATRIX_STEADY="${MATRIX_STEADY:-600}"
INCREMENTS_STEADY="${INCREMENTS_STEADY:-4000000}"
KERNELS="${KERNELS-series sor crypt montecarlo lufact moldyn raytracer}"
KERNEL_SIZE="${KERNEL_SIZE:-1}"
KERNEL_SIZE_STEADY="${KERNEL_SIZE_STEADY:-4}"
CONSOLE_VERSION="1.14.1"
WORK="$(mktemp -d -t racetriage-bench-XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

AGENT_JAR="${AGENT_JAR:-$(ls "$ROOT"/dynamic-runner/agent/target/racetriage-agent-*.jar 2>/dev/null | grep -v original | head -1 || true)}"
if [[ -z "$AGENT_JAR" ]]; then
  (cd "$ROOT" && mvn -B -q -pl dynamic-runner/agent -am package -DskipTests)
  AGENT_JAR="$(ls "$ROOT"/dynamic-runner/agent/target/racetriage-agent-*.jar | grep -v original | head -1)"
fi
# a private copy: a concurrent build must not replace the jar under a running JVM
cp "$AGENT_JAR" "$WORK/agent.jar"
BASELINE_JAR="${BASELINE_JAR:-}"
if [[ -n "$BASELINE_JAR" ]]; then
  cp "$BASELINE_JAR" "$WORK/baseline.jar"
fi
CPU_TIME="${CPU_TIME:-0}"
EMPTY_TOOL="${EMPTY_TOOL:-0}"
BUILTIN="${BUILTIN:-1}"
GRANDE="${GRANDE:-}"
GRANDE_COMMIT="b14161679702114a6b4023d7e3e3a836849e8aac"
GRANDE_PROGRAMS="${GRANDE_PROGRAMS:-crypt lufact moldyn montecarlo raytracer series sor sparsematmult}"
GRANDE_SIZE="${GRANDE_SIZE:-A}"
GRANDE_THREADS="${GRANDE_THREADS:-4}"
SUITES="${SUITES:-}"
SUITE_TESTS="${SUITE_TESTS:-}"
# the directory a row's JVM runs in (the Grande programs read data files relative to it)
RUN_DIR="."

if [[ "$BUILTIN" == 1 ]]; then
# the CPU-heavy program
mkdir -p "$WORK/cpu"
javac -d "$WORK/cpu" "$ROOT/benchmarks/agent-slowdown/CpuWorkload.java" \
  "$ROOT/benchmarks/agent-slowdown/GrandeKernels.java"

# the examples' classes and tests, compiled against their own JUnit; the console launcher to run them
EXAMPLES="$ROOT/examples/racy-shapes"
mvn -B -q -f "$EXAMPLES/pom.xml" dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$WORK/examples-cp.txt" >/dev/null
mvn -B -q dependency:copy -Dartifact="org.junit.platform:junit-platform-console-standalone:$CONSOLE_VERSION" \
  -DoutputDirectory="$WORK" -Dmdep.stripVersion=true >/dev/null
EXAMPLES_CP="$(cat "$WORK/examples-cp.txt")"
mkdir -p "$WORK/examples"
javac -g -d "$WORK/examples" -cp "$EXAMPLES_CP" $(find "$EXAMPLES/src/main/java" "$EXAMPLES/src/test/java" -name '*.java')
fi

EXAMPLES_CP="${EXAMPLES_CP:-}"
AGENT_OPT="-javaagent:$WORK/agent.jar=mode=detect;out=$WORK/report.jsonl${AGENT_EXTRA:-}"
BASELINE_OPT="-javaagent:$WORK/baseline.jar=mode=detect;out=$WORK/report-baseline.jsonl${BASELINE_EXTRA:-}"
EMPTY_OPT="-javaagent:$WORK/agent.jar=mode=detect;out=$WORK/report-empty.jsonl${AGENT_EXTRA:-}"
EXAMPLES_CMD=(-jar "$WORK/junit-platform-console-standalone.jar" execute --disable-banner --details=none
  -cp "$WORK/examples:$EXAMPLES_CP" --select-package dev.racetriage.examples)
CPU_CMD=(-cp "$WORK/cpu" CpuWorkload "$THREADS" "$MATRIX" "$INCREMENTS")

# one run of: java <args>; appends its wall time in ms to the file $1, its CPU time (user+sys) in ms to $1.cpu
run_once() {
  local file="$1"
  shift
  local start end
  start=$(date +%s%N)
  local rc=0
  (cd "$RUN_DIR" && /usr/bin/time -f "%U %S %M" -o "$WORK/time.txt" java "$@" >"$WORK/out.txt" 2>"$WORK/err.txt") \
    || rc=$?
  # a suite whose tests fail (exit 1: some test failed) is measured all the same; any other failure stops
  if [[ $rc != 0 && ! ( -n "${RESULTS_OF:-}" && $rc == 1 ) ]]; then
    echo "run failed (exit $rc): java $*" >&2; tail -30 "$WORK/err.txt" >&2; exit 1
  fi
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 )) >>"$file"
  tail -1 "$WORK/time.txt" | awk '{printf "%d\n", ($1 + $2) * 1000}' >>"$file.cpu"
  tail -1 "$WORK/time.txt" | awk '{printf "%d\n", $3 / 1024}' >>"$file.rss"
  if [[ -n "${RESULTS_OF:-}" ]]; then # a suite row: the launcher's per-test results, for the per-class slowdowns
    cp "$WORK/results.jsonl" "$file.results.$(wc -l <"$file")"
  fi
}

median() { # file of numbers, one a line
  sort -n "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'
}

ratio() { awk -v a="$1" -v p="$2" 'BEGIN {printf "%.2fx", a / p}'; }

# the slowdowns that make up the medians: row appends its ratio to $WORK/$SET when SET is set
SET=""
median_of_set() { # file of ratios
  sort -n "$1" | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else printf "%.2fx", (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'
}

run_baseline() { # args...
  # a suite row's class path holds the agent jar (the launcher's glue links against it), and the JVM loads the
  # -javaagent's premain class from the class path first: the baseline run must name its own jar there, or it runs
  # the new agent's classes under the baseline's name
  run_once "$WORK/t-base" ${AGENT_JVM:-} "$BASELINE_OPT" "${@//"$WORK/agent.jar"/$WORK/baseline.jar}"
}

row() { # name, args...
  local name="$1"
  shift
  rm -f "$WORK"/t-*
  for ((i = 0; i < RUNS; i++)); do
    run_once "$WORK/t-plain" "$@"
    # the two agents take turns running first after the no-agent run: in short rows the one that ran second was
    # slower in most rows, whichever it was (benchmarks/RESULTS.md, the owned-element guard)
    if [[ -n "$BASELINE_JAR" && $((i % 2)) == 1 ]]; then
      run_baseline "$@"
    fi
    run_once "$WORK/t-agent" ${AGENT_JVM:-} "$AGENT_OPT" "$@"
    cp "$WORK/report.jsonl" "$WORK/report-agent.jsonl"
    if [[ -n "$BASELINE_JAR" && $((i % 2)) == 0 ]]; then
      run_baseline "$@"
    fi
    if [[ "$EMPTY_TOOL" == 1 ]]; then
      run_once "$WORK/t-empty" ${AGENT_JVM:-} -Dracetriage.agent.emptyTool=true "$EMPTY_OPT" "$@"
    fi
  done
  local plain agent status races
  plain=$(median "$WORK/t-plain")
  agent=$(median "$WORK/t-agent")
  status=$(grep -o '"status":"[a-z]*"' "$WORK/report-agent.jsonl" | head -1)
  races=$(grep -o '"races":[0-9]*' "$WORK/report-agent.jsonl" | tail -1)
  # arrays too long to shadow go unchecked: a row whose program has some says so
  local untracked
  untracked=$(grep -o '"untrackedArrays":[0-9]*' "$WORK/report-agent.jsonl" | head -1)
  if [[ -n "$untracked" && "$untracked" != '"untrackedArrays":0' ]]; then
    races="$races, $untracked"
  fi
  local extra=""
  if [[ -n "$BASELINE_JAR" ]]; then
    local base
    base=$(median "$WORK/t-base")
    extra=" $base ms | $(ratio "$base" "$plain") |"
  fi
  if [[ "$EMPTY_TOOL" == 1 ]]; then
    local empty
    empty=$(median "$WORK/t-empty")
    extra="$extra $empty ms | $(ratio "$empty" "$plain") |"
  fi
  if [[ "$CPU_TIME" == 1 ]]; then
    local pc ac
    pc=$(median "$WORK/t-plain.cpu")
    ac=$(median "$WORK/t-agent.cpu")
    extra="$extra $pc ms | $ac ms | $(ratio "$ac" "$pc") |"
    if [[ -n "$BASELINE_JAR" ]]; then
      local bc
      bc=$(median "$WORK/t-base.cpu")
      extra="$extra $bc ms | $(ratio "$bc" "$pc") |"
    fi
    if [[ "$EMPTY_TOOL" == 1 ]]; then
      local ec
      ec=$(median "$WORK/t-empty.cpu")
      extra="$extra $ec ms | $(ratio "$ec" "$pc") |"
    fi
  fi
  if [[ -n "${RESULTS_OF:-}" ]]; then # peak RSS and the worst test class
    extra="$extra $(median "$WORK/t-plain.rss") MB | $(median "$WORK/t-agent.rss") MB |"
    if [[ -n "$BASELINE_JAR" ]]; then
      extra="$extra $(median "$WORK/t-base.rss") MB |"
    fi
    extra="$extra $(worst_class) |"
  fi
  printf '| %s | %s | %s | %s | %s ms | %s ms | %s | %s, %s |%s\n' "$(date -u +%F)" "$(nproc)" "$name" "$RUNS" \
    "$plain" "$agent" "$(ratio "$agent" "$plain")" "$status" "$races" "$extra"
  if [[ -n "$SET" ]]; then
    for name_of_set in $SET; do
      awk -v a="$agent" -v p="$plain" 'BEGIN {printf "%.4f\n", a / p}' >>"$WORK/set-$name_of_set"
    done
  fi
}

# the test class whose summed test time slowed down most (median over the runs of each class's time), from the
# launcher's results files of a suite row: "Class 12 → 340 ms (28x)"
worst_class() {
  python3 - "$WORK" <<'PY'
import glob, json, statistics, sys, collections
work = sys.argv[1]
def per_class(prefix):
    runs = []
    for f in sorted(glob.glob(f"{work}/{prefix}.results.*")):
        t = collections.Counter()
        for line in open(f, encoding="utf-8", errors="replace"):
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if e.get("event") == "finished" and e.get("kind") == "test" and "class" in e:
                t[e["class"]] += e.get("millis", 0)
        runs.append(t)
    classes = set().union(*runs) if runs else set()
    return {c: statistics.median(r.get(c, 0) for r in runs) for c in classes}
plain, agent = per_class("t-plain"), per_class("t-agent")
rows = [(agent[c] / plain[c], c) for c in plain if c in agent and plain[c] >= 20]
if not rows:
    print("-")
else:
    r, c = max(rows)
    print(f"{c.rsplit('.', 1)[-1]} {plain[c]:.0f} → {agent[c]:.0f} ms ({r:.1f}x)")
PY
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "java: $(java -version 2>&1 | head -1)"
echo "command: BUILTIN=$BUILTIN${GRANDE:+ GRANDE=$GRANDE GRANDE_SIZE=$GRANDE_SIZE}${SUITES:+ SUITES=\"$SUITES\"}${SUITE_TESTS:+ SUITE_TESTS=\"$SUITE_TESTS\"} RUNS=$RUNS THREADS=$THREADS MATRIX=$MATRIX INCREMENTS=$INCREMENTS STEADY=$STEADY MATRIX_STEADY=$MATRIX_STEADY INCREMENTS_STEADY=$INCREMENTS_STEADY CPU_TIME=$CPU_TIME EMPTY_TOOL=$EMPTY_TOOL${AGENT_JVM:+ AGENT_JVM='$AGENT_JVM'}${AGENT_EXTRA:+ AGENT_EXTRA='$AGENT_EXTRA'} benchmarks/agent-slowdown.sh${BASELINE_JAR:+ (BASELINE_JAR=$BASELINE_JAR)}"
echo
header="| date | cores | workload | runs | no agent (median) | detect mode (median) | slowdown | agent report |"
rule="| --- | --- | --- | --- | --- | --- | --- | --- |"
if [[ -n "$BASELINE_JAR" ]]; then
  header="$header baseline agent (median) | baseline slowdown |"
  rule="$rule --- | --- |"
fi
if [[ "$EMPTY_TOOL" == 1 ]]; then
  header="$header empty tool (median) | empty-tool slowdown |"
  rule="$rule --- | --- |"
fi
if [[ "$CPU_TIME" == 1 ]]; then
  header="$header no agent CPU | detect CPU | CPU slowdown |"
  rule="$rule --- | --- | --- |"
  if [[ -n "$BASELINE_JAR" ]]; then
    header="$header baseline CPU | baseline CPU slowdown |"
    rule="$rule --- | --- |"
  fi
  if [[ "$EMPTY_TOOL" == 1 ]]; then
    header="$header empty-tool CPU | empty-tool CPU slowdown |"
    rule="$rule --- | --- |"
  fi
fi
if [[ -n "$SUITES" ]]; then
  header="$header no agent peak RSS | detect peak RSS |"
  rule="$rule --- | --- |"
  if [[ -n "$BASELINE_JAR" ]]; then
    header="$header baseline peak RSS |"
    rule="$rule --- |"
  fi
  header="$header slowest test class (median) |"
  rule="$rule --- |"
fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$header"
echo "$rule"
if [[ "$BUILTIN" == 1 ]]; then
SET="short steady" row "examples/racy-shapes JUnit suite" "${EXAMPLES_CMD[@]}"
SET="short" row "CpuWorkload $THREADS threads, matrix $MATRIX, $INCREMENTS increments" "${CPU_CMD[@]}"
row "CpuWorkload matrix only ($MATRIX)" -cp "$WORK/cpu" CpuWorkload "$THREADS" "$MATRIX" 1
row "CpuWorkload striped counters only ($INCREMENTS)" -cp "$WORK/cpu" CpuWorkload "$THREADS" 2 "$INCREMENTS"
row "CpuWorkload synchronized counters only ($INCREMENTS)" -cp "$WORK/cpu" CpuWorkload "$THREADS" 2 1 "$INCREMENTS"
if [[ "$STEADY" == 1 ]]; then
  SET="steady" row "CpuWorkload steady state: $THREADS threads, matrix $MATRIX_STEADY, $INCREMENTS_STEADY increments" \
    -cp "$WORK/cpu" CpuWorkload "$THREADS" "$MATRIX_STEADY" "$INCREMENTS_STEADY"
  row "CpuWorkload steady state: matrix only ($MATRIX_STEADY)" -cp "$WORK/cpu" CpuWorkload "$THREADS" "$MATRIX_STEADY" 1
  row "CpuWorkload steady state: striped counters only ($INCREMENTS_STEADY)" \
    -cp "$WORK/cpu" CpuWorkload "$THREADS" 2 "$INCREMENTS_STEADY"
  row "CpuWorkload steady state: synchronized counters only ($INCREMENTS_STEADY)" \
    -cp "$WORK/cpu" CpuWorkload "$THREADS" 2 1 "$INCREMENTS_STEADY"
fi
for kernel in $KERNELS; do
  SET="short" row "GrandeKernels $kernel, $THREADS threads, size $KERNEL_SIZE" \
    -cp "$WORK/cpu" GrandeKernels "$kernel" "$THREADS" "$KERNEL_SIZE"
done
if [[ "$STEADY" == 1 ]]; then
  for kernel in $KERNELS; do
    SET="steady" row "GrandeKernels steady state: $kernel, $THREADS threads, size $KERNEL_SIZE_STEADY" \
      -cp "$WORK/cpu" GrandeKernels "$kernel" "$THREADS" "$KERNEL_SIZE_STEADY"
  done
fi
fi # BUILTIN

# the Java Grande Forum originals, from RoadRunner's benchmark jars (FastTrack's and RoadRunner's own suite)
if [[ -n "$GRANDE" ]]; then
  head=$(git -C "$GRANDE" rev-parse HEAD 2>/dev/null || echo "?")
  [[ "$head" == "$GRANDE_COMMIT" ]] || echo "WARNING: $GRANDE is at $head, not $GRANDE_COMMIT" >&2
  for program in $GRANDE_PROGRAMS; do
    target=$(sed -n 's/^TARGET="\(.*\)SizeA"/\1/p' "$GRANDE/benchmarks/$program/TEST")
    RUN_DIR="$GRANDE/benchmarks/$program" SET="grande" row \
      "Java Grande $program (RoadRunner's original.jar), size $GRANDE_SIZE, $GRANDE_THREADS threads" \
      -cp original.jar "${target}Size$GRANDE_SIZE" "$GRANDE_THREADS"
  done
fi

# real test suites: a module's own JUnit tests through racetriage's launcher
if [[ -n "$SUITES" ]]; then
  LAUNCHER_JAR="$(ls "$ROOT"/dynamic-runner/launcher/target/racetriage-launcher-*.jar 2>/dev/null | head -1 || true)"
  if [[ -z "$LAUNCHER_JAR" ]]; then
    (cd "$ROOT" && mvn -B -q -pl dynamic-runner/launcher -am package -DskipTests)
    LAUNCHER_JAR="$(ls "$ROOT"/dynamic-runner/launcher/target/racetriage-launcher-*.jar | head -1)"
  fi
  cp "$LAUNCHER_JAR" "$WORK/launcher.jar"
  for suite in $SUITES; do
    suite="$(cd "$suite" && pwd)"
    # the dependency plugin racetriage itself uses (a project may pin another version that is not downloaded)
    (cd "$suite" && mvn -B -q -o test-compile org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.includeScope=test \
      -Dmdep.outputFile="$WORK/suite-cp.txt" >/dev/null) || { echo "cannot build $suite offline" >&2; exit 1; }
    cp_line="$suite/target/test-classes:$suite/target/classes:$(cat "$WORK/suite-cp.txt")"
    # the JUnit Platform launcher of the module's own engine version, as racetriage's runner adds it
    engine=$(tr ':' '\n' <<<"$cp_line" | grep -o 'junit-platform-engine-[0-9][^/]*\.jar$' | head -1 || true)
    m2="$HOME/.m2/repository"
    if [[ -n "$engine" ]] && ! grep -q 'junit-platform-launcher-' <<<"$cp_line"; then
      v=${engine#junit-platform-engine-}; v=${v%.jar}
      cp_line="$cp_line:$m2/org/junit/platform/junit-platform-launcher/$v/junit-platform-launcher-$v.jar"
    elif [[ -z "$engine" ]]; then # JUnit 4 only: through the Vintage engine, as racetriage runs it (JUnitPlatformJars)
      for jar in org/junit/vintage/junit-vintage-engine/5.10.5/junit-vintage-engine-5.10.5.jar \
          org/junit/platform/junit-platform-launcher/1.10.5/junit-platform-launcher-1.10.5.jar \
          org/junit/platform/junit-platform-engine/1.10.5/junit-platform-engine-1.10.5.jar \
          org/junit/platform/junit-platform-commons/1.10.5/junit-platform-commons-1.10.5.jar \
          org/opentest4j/opentest4j/1.3.0/opentest4j-1.3.0.jar; do
        [[ -f "$m2/$jar" ]] || echo "WARNING: $m2/$jar is missing (a racetriage triage of the project fetches it)" >&2
        cp_line="$cp_line:$m2/$jar"
      done
    fi
    commit=$(git -C "$suite" rev-parse --short HEAD 2>/dev/null || echo "?")
    # the agent jar is on the plain run's class path too: the launcher's agent glue links against it
    RESULTS_OF=1 SET="suites" row "suite $(basename "$(git -C "$suite" rev-parse --show-toplevel 2>/dev/null || echo "$suite")")/$(basename "$suite") @ $commit" \
      -cp "$WORK/launcher.jar:$WORK/agent.jar:$cp_line" dev.racetriage.launcher.TestLauncherMain \
      --results "$WORK/results.jsonl" --scan "$suite/target/test-classes" ${SUITE_TESTS:+--tests "$SUITE_TESTS"}
  done
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
if [[ "$BUILTIN" == 1 ]]; then
echo "median slowdown, short size (the suite, the whole CpuWorkload, each kernel): $(median_of_set "$WORK/set-short")" \
  "over $(wc -l <"$WORK/set-short") programs"
fi
if [[ -n "$GRANDE" ]]; then
  echo "geometric mean slowdown, Java Grande originals: $(awk '{s += log($1)} END {if (NR) printf "%.2fx", exp(s / NR)}' "$WORK/set-grande")" \
    "over $(wc -l <"$WORK/set-grande") programs (max $(sort -n "$WORK/set-grande" | tail -1 | awk '{printf "%.1fx", $1}'))"
fi
if [[ -n "$SUITES" ]]; then
  echo "median slowdown, real suites: $(median_of_set "$WORK/set-suites") over $(wc -l <"$WORK/set-suites") suites"
fi
if [[ "$STEADY" == 1 && "$BUILTIN" == 1 ]]; then
  echo "median slowdown, steady state (the suite, the whole CpuWorkload, each kernel): $(median_of_set "$WORK/set-steady")" \
    "over $(wc -l <"$WORK/set-steady") programs"
fi
