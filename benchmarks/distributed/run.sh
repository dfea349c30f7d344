#!/usr/bin/env bash
# Distributed trials (issue 23): trials per minute with 1, 2 and 4 processes sharing one store — a
# `triage --distribute --jobs 1` plus 0, 1 or 3 `racetriage worker --jobs 1` processes, each on a checkout of its own —
# on a generated project (benchmarks/synthetic/generate.py) whose trials dominate. Rounds are interleaved
# (1, 2, 4, 1, 2, 4, …) so machine load hits every setting alike; the script prints one line per run and the medians.
#
#   benchmarks/distributed/run.sh                          # 3 rounds, SQLite store in the work directory
#   ROUNDS=5 PROCS="1 2 4" DB=jdbc:postgresql://localhost:5432/rt?user=rt benchmarks/distributed/run.sh
#
# RACES/DESTRUCTIVE/PER_TEST/MIN_MS/MAX_MS shape the generated project (defaults: 12 races, 2 destructive, 3 per
# test, tests of 200-400 ms). Needs the distribution built (./racetriage builds it) and python3.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${OUT:-$(mktemp -d /tmp/distributed-trials.XXXXXX)}"
ROUNDS="${ROUNDS:-3}"
PROCS="${PROCS:-1 2 4}"
RACES="${RACES:-12}"
python3 "$ROOT/benchmarks/synthetic/generate.py" "$OUT/source" "$RACES" "${DESTRUCTIVE:-2}" "${PER_TEST:-3}" \
  "${MIN_MS:-200}" "${MAX_MS:-400}" >/dev/null
"$ROOT/racetriage" --version >/dev/null # build the distribution once, before anything is timed
export RACETRIAGE_SKIP_BUILD=1
results="$OUT/results.tsv"
printf 'procs\tround\ttrials\ttrial_s\ttrials_per_min\tverdicts\n' >"$results"
for round in $(seq 1 "$ROUNDS"); do
  for procs in $PROCS; do
    run="$OUT/r$round-p$procs"
    mkdir -p "$run"
    for i in $(seq 0 $((procs - 1))); do cp -r "$OUT/source" "$run/checkout-$i"; done
    if [ -n "${DB:-}" ]; then
      db="$DB"
    else
      db="$run/shared.db"
    fi
    pids=()
    for i in $(seq 1 $((procs - 1))); do
      "$ROOT/racetriage" worker "$run/checkout-$i" --db "$db" --jobs 1 --exit-when-idle 30s \
        >"$run/worker-$i.log" 2>&1 &
      pids+=($!)
    done
    set +e
    "$ROOT/racetriage" triage "$run/checkout-0" --db "$db" --distribute --jobs 1 --format json \
      >"$run/triage.json" 2>"$run/triage.log"
    code=$?
    set -e
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    [ "$code" -le 1 ] || { echo "triage failed (exit $code): $run/triage.log" >&2; tail -20 "$run/triage.log" >&2; exit 1; }
    python3 - "$run/triage.json" "$OUT/source/expected.tsv" "$procs" "$round" >>"$results" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
expected = dict(l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if not l.startswith("#"))
right = sum(1 for r in t["races"] if expected.get(r["field"]) == r["verdict"])
s = t["stats"]
secs = s["trialMillis"] / 1000
print(f"{sys.argv[3]}\t{sys.argv[4]}\t{s['trials']}\t{secs:.1f}\t{60 * s['trials'] / secs:.0f}\t{right}/{len(expected)} right")
PY
    tail -1 "$results"
  done
done
python3 - "$results" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
base = None
for p in sorted({int(r["procs"]) for r in rows}):
    mine = [r for r in rows if int(r["procs"]) == p]
    tpm = statistics.median(float(r["trials_per_min"]) for r in mine)
    sec = statistics.median(float(r["trial_s"]) for r in mine)
    base = base or tpm
    print(f"procs={p}: median {tpm:.0f} trials/min, trial phase {sec:.1f} s, {tpm / base:.2f}x of 1 process "
          f"({len(mine)} runs; verdicts {', '.join(r['verdicts'] for r in mine)})")
PY
echo "work directory: $OUT"
