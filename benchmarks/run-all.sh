#!/usr/bin/env bash
# Regenerates benchmarks/RESULTS.md from scratch: runs every benchmark of benchmarks/ and writes one section per
# benchmark, each with the command that produced it, when it ran, the load before and after, how long it took, and
# the benchmark's own output (its markdown tables as they are; other printed lines as a list).
#
#   benchmarks/run-all.sh                        # everything, full sizes (about half an hour on a 2-core machine)
#   QUICK=1 benchmarks/run-all.sh /tmp/r.md      # every benchmark at smoke-test size, into /tmp/r.md
#   ONLY='corpus|detection' benchmarks/run-all.sh  # re-runs those sections and replaces them in RESULTS.md
#   ./racetriage bench [OUTPUT]                  # the same script
#
# Sections (keys for ONLY/SKIP, extended regular expressions): prefilter, agent-slowdown, lsp, lsp-start, figure9,
# jumble-overhead, triage-examples, dashboard, corpus, detection, race-free, jcstress. A section whose command fails
# keeps its output and says so; the other sections still run. Each section ends with its standing reading,
# benchmarks/notes/KEY.md (what the figures mean, the paper's figures beside them, known caveats), when there is one.
# With ONLY or SKIP and an existing output file, the sections that ran replace their namesakes in it (a section is
# everything from its "## " heading to the next; they are put in this script's order) and the others stay; without
# ONLY or SKIP the file is written anew. The
# previous file is kept as $OUT/RESULTS.previous.md.
# Needs: what each benchmark needs (java 17, mvn, Maven Central once for jcstress); note that prefilter/run.sh and
# lsp/run.sh run `mvn install` for their modules.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
case "${1:-}" in
  -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
  -*) echo "run-all: unknown option '$1' (the only argument is the output file; sizes and sections are environment variables, see --help)" >&2; exit 2 ;;
esac
TARGET="${1:-$ROOT/benchmarks/RESULTS.md}"
OUT="${OUT:-$(mktemp -d /tmp/run-all.XXXXXX)}"
ONLY="${ONLY:-.}"
SKIP="${SKIP:-^$}"
QUICK="${QUICK:-0}"
mkdir -p "$OUT"
cd "$ROOT"

# sizes: full (what RESULTS.md quotes) or quick (a smoke test of the whole pipeline)
if [ "$QUICK" = 1 ]; then
  PREFILTER_ARGS="20 500 2 5"; LSP_ARGS="20 500 2 5 store"; LSP_START_ARGS="1"; SLOWDOWN_ENV="RUNS=1 MATRIX=60 INCREMENTS=20000 KERNEL_SIZE_STEADY=1"
  FIGURE9_ENV="RUNS=2"; OVERHEAD_RUNS=1; TRIAGE_ARGS="--trials 3"; DASHBOARD_ENV="RACES=500 CLIENTS=2 DURATION=3 WARMUP=1"
  CORPUS_ENV="RUNS=1"; CORPUS_TRIAGE_ARGS="--trials 3"; JCSTRESS_ENV="MAX_BUDGET_S=20 RACETRIAGE_SKIP_BUILD=1"
else
  PREFILTER_ARGS="200 2000 10 50"; LSP_ARGS="200 2000 10 50 store"; LSP_START_ARGS="5"; SLOWDOWN_ENV="RUNS=7 CPU_TIME=1 EMPTY_TOOL=1"
  FIGURE9_ENV="RUNS=30"; OVERHEAD_RUNS=10; TRIAGE_ARGS=""; DASHBOARD_ENV=""
  CORPUS_ENV="RUNS=100"; CORPUS_TRIAGE_ARGS=""; JCSTRESS_ENV="RACETRIAGE_SKIP_BUILD=1"
fi

machine() {
  echo "nproc $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(java -version 2>&1 | head -1)"
}

# Markdown from a benchmark's stdout: tables and headings pass through (# and ## demoted to ###, below the section),
# blank lines too, every other line becomes a list item; a table always starts after a blank line.
to_markdown() {
  awk '
    /^\|/ { if (!intable && prev != "") print ""; print; intable = 1; prev = $0; next }
    /^#/ { if (prev != "") print ""; match($0, /^#+/); if (RLENGTH < 3) $0 = "###" substr($0, RLENGTH + 1)
           print; print ""; intable = 0; prev = ""; next }
    /^[[:space:]]*$/ { print ""; intable = 0; prev = ""; next }
    { if (intable) print ""; intable = 0; print (/^- / ? "" : "- ") $0; prev = $0 }
  ' "$1"
}

# section KEY TITLE DESCRIPTION COMMAND: runs COMMAND (a shell string) and appends its section to $OUT/sections.md
section() {
  local key="$1" title="$2" what="$3" command="$4"
  echo "## $title" >> "$OUT/order.txt"
  if ! [[ "$key" =~ $ONLY ]] || [[ "$key" =~ $SKIP ]]; then
    echo "run-all: skipping $key" >&2
    return
  fi
  echo "run-all: $key: $command" >&2
  local load_before start rc
  load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
  start=$(date +%s)
  bash -c "$command" > "$OUT/$key.out" 2> "$OUT/$key.err"
  rc=$?
  {
    echo "## $title"
    echo
    echo "$what"
    echo
    echo "Command (from the repository root): \`$command\`. Run $(date -u -d "@$start" '+%Y-%m-%d %H:%M UTC'), took" \
      "$(( $(date +%s) - start )) s, load average $load_before before and $(cut -d' ' -f1-3 /proc/loadavg) after," \
      "at commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' with local changes')." \
      "Machine: $(machine)."
    if [ "$rc" -ne 0 ]; then
      echo
      echo "**The command failed (exit code $rc).** Its last error lines:"
      echo
      echo '```'
      tail -n 15 "$OUT/$key.err"
      echo '```'
    fi
    echo
    to_markdown "$OUT/$key.out"
    echo
    if [ -f "$ROOT/benchmarks/notes/$key.md" ]; then
      echo "### Reading"
      echo
      cat "$ROOT/benchmarks/notes/$key.md"
      echo
    fi
  } >> "$OUT/sections.md"
}

: > "$OUT/sections.md"
: > "$OUT/order.txt"
echo "run-all: building the reactor (package, no tests)" >&2
mvn -B -q -DskipTests package > "$OUT/build.log" 2>&1 || { echo "run-all: the build failed, see $OUT/build.log" >&2; exit 1; }

section prefilter "Static prefilter: incremental speed for the editor, cold batch scan" \
  "A synthetic Maven-layout project (benchmarks/prefilter/SyntheticProject.java); arguments: files, lines of the changed file, warm-up runs, measured runs." \
  "benchmarks/prefilter/run.sh $PREFILTER_ARGS"
section agent-slowdown "Agent: detect-mode slowdown" \
  "Wall time without an agent and with the agent in detect mode, median of RUNS runs: the racy-shapes JUnit suite, benchmarks/agent-slowdown/CpuWorkload.java and the seven Java Grande-style kernels of benchmarks/agent-slowdown/GrandeKernels.java; then the median slowdown over the programs at each size." \
  "$SLOWDOWN_ENV benchmarks/agent-slowdown.sh"
section lsp "Language server: didChange → publishDiagnostics" \
  "The real server over in-memory JSON-RPC pipes on the prefilter's synthetic project; arguments: files, lines of the changed file, warm-up edits, measured edits, store|nostore." \
  "benchmarks/lsp/run.sh $LSP_ARGS"
section lsp-start "Language server: start → publishDiagnostics" \
  "racetriage lsp as an editor starts it (stdio, real JSON-RPC) on a copy of examples/racy-shapes, RacyInitLoop.java opened after initialized; ms from the initialize request. First start: empty class-path cache (Maven asked); second start: the cache the first wrote; then a second start with the JVM's default JIT for comparison; pairs interleaved." \
  "C2=1 benchmarks/lsp-start/run.sh $LSP_START_ARGS"
section figure9 "Adversarial memory (jumble mode): JUMBLE Figure 9 on racy-shapes" \
  "Percent of runs whose test failed, one fresh JVM per run, only that field jumbled; in brackets the runs that served a stale value." \
  "$FIGURE9_ENV benchmarks/jumble-figure9.sh"
section jumble-overhead "Adversarial memory: jumble mode overhead against detect mode" \
  "Median wall time per configuration, interleaved rounds, ratio to detect mode: the racy-shapes suite, then the striped counters of CpuWorkload with both hot fields jumbled." \
  "RUNS=$OVERHEAD_RUNS benchmarks/jumble-overhead.sh && WORKLOAD=cpu RUNS=$(( OVERHEAD_RUNS < 3 ? OVERHEAD_RUNS : 3 )) INCREMENTS=50000 CONFIGS='no-agent detect jumble-sc jumble-random' benchmarks/jumble-overhead.sh"
section triage-examples "End-to-end triage of racy-shapes with jumble mode" \
  "The verdict table of racetriage triage on examples/racy-shapes (its README lists the expected verdicts); the store goes to a scratch database." \
  "RACETRIAGE_SKIP_BUILD=1 ./racetriage triage examples/racy-shapes --db $OUT/examples.db $TRIAGE_ARGS; rm -rf examples/racy-shapes/.racetriage"
section dashboard "Dashboard: race table API under load" \
  "Synthetic races seeded into a fresh database, racetriage dashboard on a loopback port, closed-loop clients per request kind." \
  "$DASHBOARD_ENV benchmarks/dashboard/run.sh"
section corpus "Evaluation: corpus accuracy and cost" \
  "benchmarks/corpus (README there: the programs, their sources and the JMM argument for each expected verdict). Observation rate per racy field and configuration, the verdict racetriage reaches and whether benchmarks/corpus/expected.tsv accepts it, and the JUMBLE Figure 10 cost columns." \
  "$CORPUS_ENV TRIAGE_ARGS='$CORPUS_TRIAGE_ARGS' RACETRIAGE_SKIP_BUILD=1 benchmarks/corpus/run.sh"
section detection "Evaluation: detection and static prefilter precision and recall" \
  "racetriage triage --detect-only per project: the races the agent detects, and the prefilter's candidates against them." \
  "RACETRIAGE_SKIP_BUILD=1 benchmarks/corpus/detection.sh"
section race-free "Evaluation: race-free programs (precision of detection)" \
  "The agent's RaceFreeIdiomsIT: one race-free program per synchronisation idiom, each run 3 times under the agent; zero races must be reported." \
  "benchmarks/corpus/race-free.sh"
section jcstress "Evaluation: native stress testing (jcstress) on the corpus's litmus shapes" \
  "The same shapes as jcstress 0.16 tests, each given the wall time racetriage triage spends on the same fields: racetriage's failed runs beside the samples in which jcstress saw the weak outcome the corpus test fails on." \
  "$JCSTRESS_ENV benchmarks/corpus-jcstress/run.sh"

[ -f "$TARGET" ] && cp "$TARGET" "$OUT/RESULTS.previous.md"
if { [ "$ONLY" != . ] || [ "$SKIP" != '^$' ]; } && [ -f "$TARGET" ]; then
  # the sections that ran replace their namesakes, the others stay; benchmark sections in this script's order, then
  # any other section the file had
  python3 - "$TARGET" "$OUT/sections.md" "$OUT/order.txt" <<'PY'
import re, sys
target, fresh, order = sys.argv[1], sys.argv[2], sys.argv[3]
def split(text):
    parts = re.split(r'(?m)^(?=## )', text)
    return parts[0], dict((p.split('\n', 1)[0], p) for p in parts[1:])
head, old = split(open(target).read())
_, new = split(open(fresh).read())
titles = open(order).read().splitlines()
out = [new.get(t) or old.get(t) for t in titles if new.get(t) or old.get(t)]
out += [p for t, p in old.items() if t not in titles]
open(target, 'w').write(head + ''.join(p.rstrip('\n') + '\n\n' for p in out).rstrip('\n') + '\n')
PY
  echo "run-all: replaced the sections that ran in $TARGET (outputs and logs in $OUT)" >&2
  exit 0
fi
{
  echo "# Benchmark results"
  echo
  echo "Generated by \`benchmarks/run-all.sh\` ($( [ "$QUICK" = 1 ] && echo "QUICK=1, smoke-test sizes: not figures to quote" || echo "full sizes")) on" \
    "$(date -u '+%Y-%m-%d %H:%M UTC'). Machine: $(machine). Each section: what was measured, the command that reproduces it," \
    "when it ran and under what load, and the figures. Timings on a shared machine are noisy; ratios are what to read."
  echo
  cat "$OUT/sections.md"
} > "$TARGET"
echo "run-all: wrote $TARGET (outputs and logs in $OUT)" >&2
