#!/usr/bin/env bash
# p50/p99 latency of the dashboard's race table API (GET /api/races) with N races (default 10,000) under concurrent
# load from a local load generator.
#   1. SeedRaces.java writes N synthetic races (mixed verdicts, two accesses and two tests each) into a fresh database;
#   2. `racetriage dashboard` serves it on a free loopback port, in the background (killed on exit);
#   3. LoadRaces.java drives CLIENTS closed-loop HTTP clients per request kind (first page, deep page at offset 9000,
#      verdict filter, text filter, sort), DURATION seconds each after a WARMUP, and prints a Markdown table of
#      p50/p99/max latency and requests/s per kind, preceded by the machine description.
#
# Usage: benchmarks/dashboard/run.sh        (RACES=10000 CLIENTS=8 DURATION=20 WARMUP=5 to change the load)
# Needs: java 17+ and the built distribution in cli/target (this script builds nothing):
#   mvn -B -q -pl cli -am package -DskipTests
# The load generator shares the machine with the server, so on few cores it competes with it for CPU.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
HERE="$ROOT/benchmarks/dashboard"
RACES="${RACES:-10000}"
CLIENTS="${CLIENTS:-8}"
# not SECONDS: bash keeps its own counter of seconds since start in that name
DURATION="${DURATION:-20}"
WARMUP="${WARMUP:-5}"

if [[ ! -f "$ROOT/cli/target/racetriage-cli.jar" || ! -d "$ROOT/cli/target/lib" ]]; then
  echo "cli/target/racetriage-cli.jar or cli/target/lib/ is missing: build the distribution first with" >&2
  echo "  (cd $ROOT && mvn -B -q -pl cli -am package -DskipTests)" >&2
  exit 1
fi

WORK="$(mktemp -d -t racetriage-dashboard-bench-XXXXXX)"
DASHBOARD_PID=""
cleanup() {
  if [[ -n "$DASHBOARD_PID" ]]; then
    kill "$DASHBOARD_PID" 2>/dev/null || true
    wait "$DASHBOARD_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# a private copy of the distribution: a concurrent build must not replace jars under the running JVMs
mkdir -p "$WORK/dist"
cp -r "$ROOT/cli/target/racetriage-cli.jar" "$ROOT/cli/target/lib" "$WORK/dist/"
CP="$WORK/dist/racetriage-cli.jar:$WORK/dist/lib/*"

echo "## machine"
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "- nproc: $(nproc); CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "- java: $(java -version 2>&1 | head -1)"
echo "- load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

mkdir -p "$WORK/project/.racetriage"
DB="$WORK/project/.racetriage/triage.db"
java -cp "$CP" "$HERE/SeedRaces.java" "$DB" "$RACES"

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
java -cp "$CP" dev.racetriage.cli.RacetriageCommand dashboard --db "$DB" --project "$WORK/project" --port "$PORT" \
  >"$WORK/dashboard.log" 2>&1 &
DASHBOARD_PID=$!

BASE="http://127.0.0.1:$PORT"
for _ in $(seq 120); do
  if curl -sf -o /dev/null "$BASE/api/races?limit=1"; then
    break
  fi
  if ! kill -0 "$DASHBOARD_PID" 2>/dev/null; then
    echo "the dashboard exited before answering; its output:" >&2
    cat "$WORK/dashboard.log" >&2
    exit 1
  fi
  sleep 0.5
done
curl -sf -o /dev/null "$BASE/api/races?limit=1" || { echo "the dashboard on $BASE did not answer in 60 s" >&2; exit 1; }

java "$HERE/LoadRaces.java" "$BASE" "$CLIENTS" "$DURATION" "$WARMUP"
echo
echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
