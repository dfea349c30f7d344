#!/usr/bin/env bash
# Precision of detection on race-free code: the agent's RaceFreeIdiomsIT (33 race-free programs, one per
# java.util.concurrent / monitor / volatile / final-field / confinement idiom, each run 3 times under the agent in
# detect mode, in forked JVMs) must report zero races. Prints a markdown table from the failsafe report.
#
#   benchmarks/corpus/race-free.sh
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
log="$(mktemp -t race-free.XXXXXX)"
rm -f dynamic-runner/agent/target/failsafe-reports/TEST-*RaceFreeIdiomsIT.xml  # never read an earlier run's report
mvn -B -o -pl dynamic-runner/agent -am verify -Dit.test=RaceFreeIdiomsIT -Dtest=NONE \
  -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false > "$log" 2>&1
rc=$?
report="$(ls dynamic-runner/agent/target/failsafe-reports/TEST-*RaceFreeIdiomsIT.xml 2>/dev/null | head -1)"
programs=$(grep -o '"[A-Za-z]*Ok"' dynamic-runner/agent/src/test/java/dev/racetriage/agent/it/RaceFreeIdiomsIT.java | sort -u | wc -l)
echo "| suite | race-free programs | runs each | JUnit tests | failed | races reported |"
echo "| --- | ---: | ---: | ---: | ---: | --- |"
if [ -z "$report" ]; then
  echo "| RaceFreeIdiomsIT | $programs | 3 | – | – | not run (mvn exit $rc; log $log) |"
  exit 1
fi
tests=$(sed -n 's/.*<testsuite[^>]* tests="\([0-9]*\)".*/\1/p' "$report" | head -1)
failed=$(( $(sed -n 's/.*<testsuite[^>]* failures="\([0-9]*\)".*/\1/p' "$report" | head -1) + $(sed -n 's/.*<testsuite[^>]* errors="\([0-9]*\)".*/\1/p' "$report" | head -1) ))
races=$([ "$failed" -eq 0 ] && echo "0 (asserted per program)" || echo "see $report")
echo "| RaceFreeIdiomsIT | $programs | 3 | $tests | $failed | $races |"
[ "$rc" -eq 0 ] || echo "mvn exit code $rc, log: $log" >&2
