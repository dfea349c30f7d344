# Shared by the benchmarks/realworld/<project>.sh scripts: commit check, the native `mvn test` measurement and the
# racetriage runs with their stage times. Sourced, not run. The scripts never fetch, build into or commit anything
# of the checked-out project to this repository: they take its checkout path and name the commit they were written
# for (benchmarks/realworld/README.md says where to get it).
#
# Environment (every script):
#   OUT=dir           results directory (default: /tmp/racetriage-realworld/<project>-<date>)
#   MODES="detect full"   which racetriage runs: detect (triage --detect-only), full (triage --budget $BUDGET)
#   BUDGET=30m        the full triage's --budget
#   NATIVE=1          also time the project's own `mvn -B test` first (NATIVE_ARGS appended; default off: it needs the
#                     project's dependencies, so run it once with the network to Maven Central)
#   NICE=10           niceness of every run (the machine is shared); NICE=0 for none
#   RACETRIAGE=path   the racetriage launcher (default: this checkout's ./racetriage, which rebuilds itself when its
#                     sources changed unless RACETRIAGE_SKIP_BUILD=1)
# Output in $OUT: <run>.json (the report), <run>.log (stderr: progress and warnings), <run>.stdout, <run>.time
# (/usr/bin/time -v), <run>.uptime (load before and after), <run>.rc, <run>.db (its triage database),
# <run>.jvm-rss.json (peak RSS of each test JVM: baseline, detect, trial; jvm-rss.py) and summary.md: one Markdown
# row per run for the 'real projects' section of benchmarks/RESULTS.md.

RT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
RACETRIAGE="${RACETRIAGE:-$RT_ROOT/racetriage}"
MODES="${MODES-detect full}"   # MODES= (empty) runs neither
BUDGET="${BUDGET:-30m}"
NATIVE="${NATIVE:-0}"
NICE="${NICE:-10}"

# rw_main NAME COMMIT URL CHECKOUT [racetriage triage options...]: a project script's whole run — usage without a
# checkout, rw_init, the native run when NATIVE=1 (with RW_NATIVE_ARGS, e.g. -Dmaven.test.failure.ignore=true), then
# the runs MODES asks for
rw_main() {
  local name="$1" commit="$2" url="$3"
  shift 3
  [ $# -ge 1 ] || rw_usage "$name" "$commit" "$url"
  local checkout="$1"
  shift
  rw_init "$name" "$commit" "$checkout"
  if [ "$NATIVE" = 1 ]; then
    # shellcheck disable=SC2086 # RW_NATIVE_ARGS is a list of mvn arguments
    rw_native ${RW_NATIVE_ARGS:-}
  fi
  rw_runs "$@"
}

# rw_usage NAME COMMIT URL: the common usage line
rw_usage() {
  echo "usage: $0 CHECKOUT [racetriage triage options...]" >&2
  echo "  CHECKOUT: a clone of $3 at $2 ($1); see benchmarks/realworld/README.md" >&2
  exit 2
}

# rw_init NAME COMMIT CHECKOUT: resolves the checkout, warns when its HEAD is not COMMIT, makes $OUT
rw_init() {
  RW_NAME="$1" RW_COMMIT="$2"
  [ -d "$3" ] || { echo "$0: no such directory: $3" >&2; exit 2; }
  RW_DIR="$(cd "$3" && pwd)"
  [ -f "$RW_DIR/pom.xml" ] || { echo "$0: $RW_DIR has no pom.xml" >&2; exit 2; }
  RW_HEAD="$(git -C "$RW_DIR" rev-parse HEAD 2>/dev/null || echo unknown)"
  if [ "${RW_HEAD#"$RW_COMMIT"}" = "$RW_HEAD" ]; then
    echo "$0: WARNING: $RW_DIR is at $RW_HEAD, not $RW_COMMIT; the figures will not be comparable" >&2
  fi
  if [ -n "$(git -C "$RW_DIR" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    echo "$0: WARNING: $RW_DIR has local changes" >&2
  fi
  OUT="${OUT:-/tmp/racetriage-realworld/$RW_NAME-$(date +%Y%m%d-%H%M%S)}"
  mkdir -p "$OUT"
  OUT="$(cd "$OUT" && pwd)"
  {
    echo "project: $RW_NAME"
    echo "checkout: $RW_DIR"
    echo "head: $RW_HEAD (expected $RW_COMMIT)"
    echo "racetriage: $RACETRIAGE at $(git -C "$(dirname "$RACETRIAGE")" rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1), $(mvn -v 2>/dev/null | head -1 | sed 's/\x1b\[[0-9;]*m//g')"
    echo "date: $(date -Is)"
  } > "$OUT/env.txt"
  cat "$OUT/env.txt" >&2
  : > "$OUT/summary.md"
}

rw_nice() {
  if [ "$NICE" != 0 ]; then nice -n "$NICE" "$@"; else "$@"; fi
}

# rw_load: the 1-minute load average
rw_load() { cut -d' ' -f1 /proc/loadavg; }

# rw_native [mvn args...]: times `mvn -B test` in the checkout and counts the tests of its Surefire reports
# (tests, failures+errors, skipped) over every module
rw_native() {
  local run=native start end rc=0
  echo "native: mvn -B test $*" >&2
  uptime > "$OUT/$run.uptime"
  start=$(date +%s%N)
  (cd "$RW_DIR" && rw_nice mvn -B test "$@") > "$OUT/$run.log" 2>&1 || rc=$?
  end=$(date +%s%N)
  uptime >> "$OUT/$run.uptime"
  echo "$rc" > "$OUT/$run.rc"
  local secs=$(( (end - start) / 1000000000 ))
  local counts
  counts="$(python3 - "$RW_DIR" <<'PY'
import glob, os, sys, xml.etree.ElementTree as ET
t = f = s = 0
for p in glob.glob(os.path.join(sys.argv[1], "**", "target", "surefire-reports", "TEST-*.xml"), recursive=True):
    if "/.racetriage/" in p:
        continue
    r = ET.parse(p).getroot()
    t += int(r.get("tests", 0)); f += int(r.get("failures", 0)) + int(r.get("errors", 0)); s += int(r.get("skipped", 0))
print(t, f, s)
PY
)"
  read -r tests failed skipped <<<"$counts"
  local load
  load="$(awk -F'load average: ' '{split($2, a, ", "); printf "%s%s", (NR > 1 ? " → " : ""), a[1]}' "$OUT/$run.uptime")"
  echo "| $RW_NAME | \`${RW_HEAD:0:10}\` | native \`mvn -B test $*\` | ${secs} s (exit $rc) | tests $tests, failed $failed, skipped $skipped | load $load |" \
    | tee -a "$OUT/summary.md"
}

# rw_triage RUN [racetriage triage options...]: one `racetriage triage` of the checkout into $OUT/RUN.*, with its
# own database; then a summary row from the JSON report's stats (stage times), races and verdicts, hung tests
rw_triage() {
  local run="$1"
  shift
  local start end rc=0
  echo "$run: racetriage triage $RW_DIR $*" >&2
  uptime > "$OUT/$run.uptime"
  python3 "$RT_ROOT/benchmarks/realworld/jvm-rss.py" "$OUT/$run.jvm-rss.json" &
  local sampler=$!
  start=$(date +%s%N)
  rw_nice /usr/bin/time -v -o "$OUT/$run.time" "$RACETRIAGE" triage "$RW_DIR" --db "$OUT/$run.db" \
    --format json --out "$OUT/$run.json" "$@" > "$OUT/$run.stdout" 2> "$OUT/$run.log" || rc=$?
  end=$(date +%s%N)
  kill -TERM "$sampler" 2>/dev/null
  wait "$sampler" 2>/dev/null || true
  uptime >> "$OUT/$run.uptime"
  echo "$rc" > "$OUT/$run.rc"
  local secs=$(( (end - start) / 1000000000 ))
  python3 - "$OUT/$run.json" "$OUT/$run.log" "$OUT/$run.uptime" "$RW_NAME" "${RW_HEAD:0:10}" "$run" "$rc" "$secs" "$*" \
    "$OUT/$run.jvm-rss.json" <<'PY' | tee -a "$OUT/summary.md"
import collections, json, os, sys
report, log, uptime, name, head, run, rc, secs, args, rss = sys.argv[1:]
load = " → ".join(l.split("load average: ")[1].split(",")[0] for l in open(uptime) if "load average" in l)
sec = lambda ms: f"{ms / 1000:.0f} s" if ms is not None else "–"
if not os.path.exists(report) or os.path.getsize(report) == 0:
    lines = [l.rstrip() for l in open(log, errors="replace") if l.strip()]
    last = lines[-1] if lines else "(no output)"
    print(f"| {name} | `{head}` | `triage {args}` | {secs} s (exit {rc}) | no report: {last[:300]} | load {load} |")
    sys.exit(0)
data = json.load(open(report))
s = data.get("stats", {})
verdicts = collections.Counter(r["verdict"] for r in data.get("races", []))
v = ", ".join(f"{k} {n}" for k, n in sorted(verdicts.items())) or "none"
destructive = [r["field"] for r in data.get("races", []) if r["verdict"] == "destructive"]
stages = (f"build {sec(s.get('buildMillis'))}, baseline {sec(s.get('baselineMillis'))}, "
          f"detect {sec(s.get('detectMillis'))} ({s.get('detectRuns')} runs), trials {sec(s.get('trialMillis'))} "
          f"({s.get('trials')} trials, {s.get('trialJvms')} JVMs), total {sec(s.get('elapsedMillis'))}")
hung = data.get("hungTests", [])
extra = []
if hung:
    extra.append(f"{len(hung)} hung: " + ", ".join(f"{h['test']} ({h['phase']})" for h in hung[:5]))
if destructive:
    extra.append("destructive: " + ", ".join(f"`{f}`" for f in destructive[:10]))
if os.path.exists(rss):
    peaks = json.load(open(rss))["peakKb"]
    mb = lambda kind: f"{peaks[kind] / 1024:.0f} MB" if kind in peaks else "–"
    bound = f" (bound {(2 * peaks['baseline'] + 256 * 1024) / 1024:.0f} MB)" if "baseline" in peaks else ""
    extra.append(f"peak RSS: baseline JVM {mb('baseline')}, detection JVM {mb('detect')}{bound}"
                 + (f", trial JVM {mb('trial')}" if "trial" in peaks else ""))
if data.get("warnings"):
    extra.append(f"{len(data['warnings'])} warning(s): " + "; ".join(w[:200] for w in data["warnings"][:3]))
print(f"| {name} | `{head}` | `triage {args}` | {secs} s (exit {rc}) | tests {s.get('tests')}; {stages}; "
      f"races {len(data.get('races', []))}: {v}" + ("; " + "; ".join(extra) if extra else "") + f" | load {load} |")
PY
}

# rw_runs [racetriage triage options...]: the runs MODES asks for, each with the given extra options
rw_runs() {
  local mode
  for mode in $MODES; do
    case "$mode" in
      detect) rw_triage detect --detect-only "$@" ;;
      full) rw_triage full --budget "$BUDGET" "$@" ;;
      *) echo "$0: unknown mode '$mode' in MODES (detect, full)" >&2; exit 2 ;;
    esac
  done
  echo "results: $OUT (summary.md: rows for benchmarks/RESULTS.md)" >&2
}
