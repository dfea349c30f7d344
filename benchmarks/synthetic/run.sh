#!/usr/bin/env bash
# Scaling benchmark (issue 19): generate a project with RACES races (DESTRUCTIVE destructive, PER_TEST per JUnit test,
# tests of MIN_MS..MAX_MS natively) with generate.py, triage it, and report the wall time, the test runs per verdict
# and whether every destructive race was found and every verdict is the expected one.
#
#   benchmarks/synthetic/run.sh                                  # 100 races, 10 destructive, tests of 1-3 s
#   RACES=20 DESTRUCTIVE=2 MIN_MS=300 MAX_MS=600 benchmarks/synthetic/run.sh
#
# TRIAGE_ARGS are passed to `racetriage triage` (e.g. "--budget 30m --jobs 2"). Needs the distribution built in this
# checkout (./racetriage builds it on first use) and python3.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${OUT:-$(mktemp -d /tmp/synthetic-races.XXXXXX)}"
RACES="${RACES:-100}"
DESTRUCTIVE="${DESTRUCTIVE:-10}"
PER_TEST="${PER_TEST:-5}"
MIN_MS="${MIN_MS:-1000}"
MAX_MS="${MAX_MS:-3000}"
python3 "$ROOT/benchmarks/synthetic/generate.py" "$OUT/project" "$RACES" "$DESTRUCTIVE" "$PER_TEST" "$MIN_MS" "$MAX_MS"
start=$(date +%s)
set +e
# shellcheck disable=SC2086
"$ROOT/racetriage" triage "$OUT/project" --db "$OUT/triage.db" --format json ${TRIAGE_ARGS:-} >"$OUT/triage.json" \
  2>"$OUT/triage.log"
code=$?
set -e
end=$(date +%s)
[ "$code" -le 1 ] || { echo "triage failed (exit $code); see $OUT/triage.log" >&2; tail -20 "$OUT/triage.log" >&2; exit 1; }
python3 - "$OUT" "$((end - start))" <<'PY'
import collections, json, sys
out, wall = sys.argv[1], int(sys.argv[2])
expected = dict(l.rstrip("\n").split("\t") for l in open(f"{out}/project/expected.tsv") if not l.startswith("#"))
t = json.load(open(f"{out}/triage.json"))
runs = collections.Counter()
count = collections.Counter()
wrong = []
for r in t["races"]:
    v = r["verdict"]
    count[v] += 1
    runs[v] += sum(h["runs"] for h in r.get("trials", []))
    if expected.get(r["field"]) != v:
        wrong.append(f'{r["field"]}: {v}, expected {expected.get(r["field"])}')
found = sum(1 for r in t["races"] if r["verdict"] == "destructive" and expected.get(r["field"]) == "destructive")
s = t["stats"]
print(f"- project: {len(expected)} races, {sum(1 for v in expected.values() if v == 'destructive')} destructive;"
      f" {s['tests']} tests; raw results in {out}")
print(f"- wall {wall} s (triage's own: {s['elapsedMillis'] / 1000:.0f} s; trials {s['trialMillis'] / 1000:.0f} s, "
      f"{s['trials']} test runs in {s['trialJvms']} JVMs; detection {s['detectMillis'] / 1000:.0f} s)")
print("- a group run (races of one test jumbled together) is in the evidence of each of its races, so the runs per")
print("  verdict below add up to more than the test runs when groups were screened")
print(f"- destructive races found: {found} of {sum(1 for v in expected.values() if v == 'destructive')}; "
      f"verdicts as expected: {len(t['races']) - len(wrong)} of {len(t['races'])} (detected) / {len(expected)}")
print("\n| verdict | races | runs in their evidence | per race |\n| --- | ---: | ---: | ---: |")
for v in sorted(count):
    print(f"| {v} | {count[v]} | {runs[v]} | {runs[v] / count[v]:.1f} |")
for w in wrong:
    print(f"- not as expected: {w}")
PY
