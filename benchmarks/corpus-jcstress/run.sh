#!/usr/bin/env bash
# The litmus-shaped programs of benchmarks/corpus under jcstress (native stress testing, no adversarial memory):
# each test runs alone for one iteration of TIME_MS per jcstress configuration (jcstress itself varies the
# compilation modes: 18 configurations for two actors; -v so tests without a weak outcome print their counts too),
# and the markdown table says how many samples showed the weak outcome the corpus test fails on, and the wall time
# spent, to set beside racetriage's observation rate and time.
#
#   benchmarks/corpus-jcstress/run.sh                  # TIME_MS=1000, all four tests
#   TIME_MS=200 TESTS="StoreBuffering" benchmarks/corpus-jcstress/run.sh
#
# Needs: Maven Central once (org.openjdk.jcstress:jcstress-core:0.16 and its dependencies), java 17.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TIME_MS="${TIME_MS:-1000}"
TESTS="${TESTS:-StoreBuffering MessagePassing LongTearing DoubleCheckedLocking}"
CPUS="${CPUS:-2}"
OUT="${OUT:-$(mktemp -d /tmp/corpus-jcstress.XXXXXX)}"
mkdir -p "$OUT"

(cd "$HERE" && mvn -B -q package -DskipTests dependency:build-classpath -Dmdep.outputFile="$OUT/cp.txt" >/dev/null)
CP="$HERE/target/classes:$(cat "$OUT/cp.txt")"

corpus_field() {
  case "$1" in
    StoreBuffering) echo "StoreBuffering.x, .y" ;;
    MessagePassing) echo "MessagePassing.x" ;;
    LongTearing) echo "TornStamp.stamp" ;;
    DoubleCheckedLocking) echo "HelperHolder.helper, Helper.value" ;;
  esac
}

echo "| jcstress test | corpus field | samples | weak outcome samples | weak share | wall time |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
for t in $TESTS; do
  log="$OUT/$t.log"
  start=$(date +%s)
  (cd "$OUT" && java -cp "$CP" org.openjdk.jcstress.Main -t "dev.racetriage.corpus.jcstress.${t}Stress" -c "$CPUS" \
     -v -f 1 -iters 1 -time "$TIME_MS" -jvmArgs "-XX:+UseSerialGC" -r "$OUT/results-$t") > "$log" 2>&1 || true
  wall=$(( $(date +%s) - start ))
  # the "Results across all configurations" block: RESULT SAMPLES FREQ EXPECT DESCRIPTION rows
  awk -v t="$t" -v field="$(corpus_field "$t")" -v wall="$wall" '
    /Results across all configurations/ { on = 1; next }
    on && /RESULT +SAMPLES/ { next }
    on && NF == 0 && rows { on = 0 }
    on && /(Acceptable|Interesting|Forbidden)/ {
      rows++
      for (i = 1; i <= NF; i++) if ($i ~ /^[0-9][0-9,]*$/ && $(i+1) ~ /%$/) { n = $i; gsub(",", "", n); break }
      total += n
      if ($0 ~ /Interesting|Forbidden/) weak += n
    }
    END {
      if (!rows) { printf "| %s | %s | – | – | – | %d s (no results: see the log) |\n", t, field, wall; exit }
      printf "| %s | %s | %d | %d | %.4f %% | %d s |\n", t, field, total, weak, 100 * weak / total, wall
    }' "$log"
done
echo
echo "jcstress logs and HTML reports: $OUT (TIME_MS=$TIME_MS, -c $CPUS, -f 1 -iters 1, -jvmArgs -XX:+UseSerialGC)" >&2
