#!/usr/bin/env bash
# The litmus-shaped programs of benchmarks/corpus under jcstress (native stress testing, no adversarial memory), each
# given the wall time racetriage spends on the same race (issue 10: "for the same wall time racetriage spends"):
#
#  1. racetriage: `racetriage triage benchmarks/corpus --field <the shape's fields>` into a scratch database, timed
#     from the command's start to its exit (corpus build, baseline, detection and the trials up to the verdict: what
#     a user waits for). Its observation rate: the runs whose test failed, per heuristic, from the triage report.
#  2. jcstress gets that wall time as a hard box: `timeout BUDGET java … jcstress.Main -v -f 1 -iters 1 -time T`,
#     where T = budget / (2 × 18 configurations), at least MIN_TIME_MS (half of each configuration's share samples,
#     the other half pays for its fork's JVM start). When the box closes, jcstress and its forks are killed (timeout
#     signals the whole process group) and the samples of the configurations that finished are counted (-v prints
#     each configuration's table as it finishes); a sweep that ends early simply uses less.
#
#   benchmarks/corpus-jcstress/run.sh                       # the four shapes, equal time
#   SHAPES="StoreBuffering" TRIAGE_ARGS="--trials 5" benchmarks/corpus-jcstress/run.sh
#   TIME_MS=1000 benchmarks/corpus-jcstress/run.sh          # the old fixed mode: one full sweep, TIME_MS per iteration
#
# Output: a markdown table on stdout; logs, triage reports and jcstress HTML reports in $OUT.
# Needs: Maven Central once (org.openjdk.jcstress:jcstress-core:0.16), java 17, python3, and racetriage built in this
# checkout (./racetriage builds it unless RACETRIAGE_SKIP_BUILD=1).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
SHAPES="${SHAPES:-${TESTS:-StoreBuffering MessagePassing LongTearing DoubleCheckedLocking}}"
CPUS="${CPUS:-2}"
MIN_TIME_MS="${MIN_TIME_MS:-20}"
CONFIGURATIONS=18               # jcstress 0.16's compilation-mode × VM-flag sweep for two actors with -jvmArgs
MAX_BUDGET_S="${MAX_BUDGET_S:-600}" # cap on one shape's jcstress box (QUICK runs of run-all.sh use a small one)
TRIAGE_ARGS="${TRIAGE_ARGS:-}"
OUT="${OUT:-$(mktemp -d /tmp/corpus-jcstress.XXXXXX)}"
mkdir -p "$OUT"

(cd "$HERE" && mvn -B -q package -DskipTests dependency:build-classpath -Dmdep.outputFile="$OUT/cp.txt" >/dev/null)
CP="$HERE/target/classes:$(cat "$OUT/cp.txt")"

corpus_fields() {
  local p=dev.racetriage.corpus
  case "$1" in
    StoreBuffering) echo "$p.StoreBuffering.x,$p.StoreBuffering.y" ;;
    MessagePassing) echo "$p.MessagePassing.x" ;;
    LongTearing) echo "$p.TornStamp.stamp" ;;
    DoubleCheckedLocking) echo "$p.HelperHolder.helper,$p.Helper.value" ;;
    *) echo "unknown shape '$1' (known: StoreBuffering MessagePassing LongTearing DoubleCheckedLocking)" >&2; exit 2 ;;
  esac
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# jcstress's per-configuration tables (-v) before "RUN RESULTS:" (the summary repeats them): configurations
# finished, samples, weak-outcome samples (Interesting or Forbidden)
count_samples() {
  awk '
    /^RUN RESULTS:/ { exit }
    /RESULT +SAMPLES +FREQ/ { on = 1; configs++; next }
    on && NF == 0 { on = 0; next }
    on && /(Acceptable|Interesting|Forbidden)/ {
      for (i = 1; i <= NF; i++) if ($i ~ /^[0-9][0-9,]*$/ && $(i+1) ~ /%$/) { n = $i; gsub(",", "", n); break }
      total += n
      if ($0 ~ /Interesting|Forbidden/) weak += n
    }
    END { printf "%d %d %d\n", configs, total, weak }' "$1"
}

# racetriage's runs per heuristic for the shape's fields, from its JSON report: "verdicts|best|sc|all adversarial"
triage_rates() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
report, fields = json.load(open(sys.argv[1])), sys.argv[2].split(",")
races = {r["field"]: r for r in report["races"]}
verdicts, best, sc, adv = [], None, [0, 0], [0, 0]
for f in fields:
    r = races.get(f)
    verdicts.append(f"{f.split('.corpus.')[-1]} {r['verdict'] if r else 'not detected'}")
    for t in (r or {}).get("trials", []):
        runs, failed = t["runs"], t["failures"]
        if t["heuristic"] == "sc":
            sc[0] += failed; sc[1] += runs
            continue
        adv[0] += failed; adv[1] += runs
        if runs and (best is None or failed / runs > best[1] / best[2]):
            best = (t["heuristic"], failed, runs)
b = f"{best[1]} of {best[2]} runs ({best[0]})" if best else "–"
print(f"{', '.join(verdicts)}|{b}|{sc[0]} of {sc[1]}|{adv[0]} of {adv[1]}|{report['stats'].get('trialMillis', 0)}")
EOF
}

if [ -n "${TIME_MS:-}" ]; then
  echo "| jcstress test | corpus fields | configurations | samples | weak outcome samples | weak share | wall time |"
  echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
else
  echo "| shape (corpus fields) | racetriage wall time (trials) | racetriage verdict | racetriage: best heuristic failed | racetriage: all adversarial runs failed (sc) | jcstress box (-time per iteration) | jcstress configurations finished | jcstress: weak outcome samples | weak share |"
  echo "| --- | ---: | --- | --- | --- | ---: | ---: | ---: | ---: |"
fi
for t in $SHAPES; do
  fields="$(corpus_fields "$t")"
  log="$OUT/$t.log"
  if [ -n "${TIME_MS:-}" ]; then
    start=$(now_ms)
    (cd "$OUT" && java -cp "$CP" org.openjdk.jcstress.Main -t "dev.racetriage.corpus.jcstress.${t}Stress" -c "$CPUS" \
       -v -f 1 -iters 1 -time "$TIME_MS" -jvmArgs "-XX:+UseSerialGC" -r "$OUT/results-$t") > "$log" 2>&1 || true
    wall=$(( $(now_ms) - start ))
    read -r configs total weak < <(count_samples "$log")
    share=$(awk -v w="$weak" -v n="$total" 'BEGIN { printf n ? "%.4f %%" : "–", 100 * w / n }')
    echo "| ${t}Stress | ${fields//,/, } | $configs | $total | $weak | $share | $(( wall / 1000 )) s |"
    continue
  fi

  # 1. racetriage on the shape's fields, a scratch database so every shape starts from nothing
  rm -f "$OUT/$t.db"
  start=$(now_ms)
  set +e
  (cd "$ROOT" && ./racetriage triage benchmarks/corpus --field "$fields" --db "$OUT/$t.db" --format json \
     --out "$OUT/$t-triage.json" $TRIAGE_ARGS) > "$OUT/$t-triage.log" 2>&1
  code=$?
  set -e
  budget=$(( $(now_ms) - start ))
  rm -rf "$ROOT/benchmarks/corpus/.racetriage"
  if [ ! -s "$OUT/$t-triage.json" ]; then
    echo "| $t (${fields//,/, }) | $(( budget / 1000 )) s | triage failed (exit $code, see $OUT/$t-triage.log) | – | – | – | – | – | – |"
    continue
  fi
  IFS='|' read -r verdicts best sc adv trial_ms < <(triage_rates "$OUT/$t-triage.json" "$fields")

  # 2. jcstress boxed to the same wall time
  box_s=$(( (budget + 999) / 1000 ))
  [ "$box_s" -le "$MAX_BUDGET_S" ] || box_s="$MAX_BUDGET_S"
  time_ms=$(( box_s * 1000 / (2 * CONFIGURATIONS) ))
  [ "$time_ms" -ge "$MIN_TIME_MS" ] || time_ms="$MIN_TIME_MS"
  start=$(now_ms)
  (cd "$OUT" && timeout -s TERM -k 5 "${box_s}s" java -cp "$CP" org.openjdk.jcstress.Main \
     -t "dev.racetriage.corpus.jcstress.${t}Stress" -c "$CPUS" -v -f 1 -iters 1 -time "$time_ms" \
     -jvmArgs "-XX:+UseSerialGC" -r "$OUT/results-$t") > "$log" 2>&1 || true
  jc_ms=$(( $(now_ms) - start ))
  read -r configs total weak < <(count_samples "$log")
  share=$(awk -v w="$weak" -v n="$total" 'BEGIN { printf n ? "%.4f %%" : "–", 100 * w / n }')
  echo "| $t (${fields//,/, }) | $(( budget / 1000 )) s ($(( trial_ms / 1000 )) s) | $verdicts | $best | $adv ($sc) | $(( jc_ms / 1000 )) s of $box_s s (${time_ms} ms) | $configs of $CONFIGURATIONS | $weak of $total | $share |"
done
echo
echo "logs, triage reports and jcstress HTML reports: $OUT (-c $CPUS, -f 1 -iters 1, -jvmArgs -XX:+UseSerialGC${TIME_MS:+, TIME_MS=$TIME_MS}${TRIAGE_ARGS:+, TRIAGE_ARGS=$TRIAGE_ARGS})" >&2
