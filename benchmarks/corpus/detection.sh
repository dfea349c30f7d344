#!/usr/bin/env bash
# Precision of detection and of the static prefilter, per project: `racetriage triage DIR --detect-only` (build,
# baseline, one detection run under the agent; no trials) into a scratch database, then a markdown table of the races
# the agent detected, the prefilter's candidates, and the prefilter's precision (of all candidates and of the high-confidence
# ones, which the editor shows as warnings) and recall against those races.
# With benchmarks/corpus/expected.tsv also how many detected races the table lists (the corpus's ground truth).
#
#   benchmarks/corpus/detection.sh                               # examples/racy-shapes and benchmarks/corpus
#   benchmarks/corpus/detection.sh examples/racy-shapes
#   PREDICT=1 benchmarks/corpus/detection.sh                     # with triage --predict (WCP over the whole run; by
#                                                                # default it is on with a budget per test)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${OUT:-$(mktemp -d /tmp/corpus-detection.XXXXXX)}"
PROJECTS=("$@")
EXTRA=()
[ -z "${PREDICT:-}" ] || EXTRA=(--predict)
[ ${#PROJECTS[@]} -gt 0 ] || PROJECTS=(examples/racy-shapes benchmarks/corpus)

echo "| project | races detected | of them in expected.tsv | prefilter candidates | candidates that raced (precision) | high-confidence (≥ 0.7) candidates that raced | races that were candidates (recall) | missed races | candidates that did not race (confidence) |"
echo "| --- | ---: | --- | ---: | --- | --- | --- | --- | --- |"
for project in "${PROJECTS[@]}"; do
  name="$(echo "$project" | tr '/' '_')"
  had_work_dir=no
  [ -d "$ROOT/$project/.racetriage" ] && had_work_dir=yes
  (cd "$ROOT" && ./racetriage triage "$project" --detect-only ${EXTRA[@]+"${EXTRA[@]}"} --db "$OUT/$name.db" --format json --out "$OUT/$name.json") \
    2> "$OUT/$name.log" || true
  # the run leaves its JVM logs in the project's .racetriage/work; remove it if this script created it
  [ "$had_work_dir" = yes ] || rm -rf "${ROOT:?}/$project/.racetriage"
  expected="$ROOT/$project/expected.tsv"
  python3 - "$OUT/$name.json" "$project" "$expected" <<'PY'
import json, os, sys
HIGH = 0.7  # the confidence from which a candidate counts as high (the editor's warnings)
report, project, expected_path = sys.argv[1], sys.argv[2], sys.argv[3]
data = json.load(open(report))
races = {r["field"] for r in data["races"]}
predicted = sorted(r["field"] for r in data["races"] if r.get("predicted"))
if predicted:
    print("predicted only:", ", ".join(predicted), file=sys.stderr)
cands = {c["field"] for c in data["candidates"]}
confidence = {c["field"]: c.get("confidence", 0) for c in data["candidates"]}
high = {f for f in cands if confidence[f] >= HIGH}
short = lambda f: f.rsplit(".", 2)[-2] + "." + f.rsplit(".", 2)[-1]
listed = "–"
if os.path.exists(expected_path):
    table = {l.split("\t")[0] for l in open(expected_path) if l.strip() and not l.startswith("#")}
    listed = f"{len(races & table)} (table: {len(table)})"
hit = races & cands
prec = f"{len(hit)} ({100 * len(hit) / len(cands):.0f} %)" if cands else "–"
rec = f"{len(hit)} of {len(races)} ({100 * len(hit) / len(races):.0f} %)" if races else "–"
high_hit = races & high
high_prec = f"{len(high_hit)} of {len(high)} ({100 * len(high_hit) / len(high):.0f} %)" if high else "–"
fmt = lambda s: ", ".join(f"`{short(f)}`" for f in sorted(s)) or "none"
fmt_conf = lambda s: ", ".join(f"`{short(f)}` ({confidence[f]:.2f})" for f in sorted(s)) or "none"
print(f"| {project} | {len(races)} | {listed} | {len(cands)} | {prec} | {high_prec} | {rec} | {fmt(races - cands)} | {fmt_conf(cands - races)} |")
PY
done
echo >&2 "reports: $OUT"
