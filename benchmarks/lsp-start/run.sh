#!/usr/bin/env bash
# Language server start over real JSON-RPC: `racetriage lsp` (the distribution, as an editor starts it) on a copy of
# examples/racy-shapes, timed from the `initialize` request to the first publishDiagnostics of RacyInitLoop.java
# (opened right after `initialized`) and to its complete diagnostics (after the project scan). A "first" start has an
# empty class-path cache (Maven is asked: `mvn dependency:build-classpath`); a "second" start reuses the cache the
# first one wrote (same poms). RUNS pairs, first and second interleaved; medians and ranges. With C2=1 each pair is
# followed by a second start with the JVM's default JIT (C1 and C2; the launcher runs `lsp` with C1 alone), for
# comparison under the same load.
# Usage: [C2=1] benchmarks/lsp-start/run.sh [RUNS]   (from the repository root; builds the distribution if stale)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-5}"
./racetriage --version >/dev/null
work=$(mktemp -d /tmp/lsp-start.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -r examples/racy-shapes "$work/project"
rm -rf "$work/project/target" "$work/project/.racetriage"
file="$work/project/src/main/java/dev/racetriage/examples/RacyInitLoop.java"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: $(git rev-parse --short HEAD); machine: nproc=$(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(java -version 2>&1 | sed -n 1p)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$runs"); do
  rm -rf "$work/cache"
  for kind in first second ${C2:+second-c2}; do
    # RACETRIAGE_JAVA_OPTS set (even empty) replaces the launcher's C1-only option
    if [ "$kind" = second-c2 ]; then export RACETRIAGE_JAVA_OPTS=""; else unset RACETRIAGE_JAVA_OPTS; fi
    XDG_CACHE_HOME="$work/cache" RACETRIAGE_SKIP_BUILD=1 python3 benchmarks/lsp-start/lsp_start.py \
      "$work/project" "$file" -- ./racetriage lsp | sed "s/^{/{\"kind\": \"$kind\", /" >>"$work/results.jsonl"
  done
  unset RACETRIAGE_JAVA_OPTS
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/results.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
for kind in ("first", "second", "second-c2"):
    mine = [r for r in rows if r["kind"] == kind]
    if not mine:
        continue
    timed_out = sum(r["timedOut"] for r in mine)
    label = {"first": "first start (empty class-path cache)", "second": "second start (cached class path)",
             "second-c2": "second start with C1 and C2 (RACETRIAGE_JAVA_OPTS='')"}[kind]
    print(f"- {label} ({len(mine)} runs{', %d timed out' % timed_out if timed_out else ''}), ms from `initialize`:")
    for key, what in (("initialized", "initialize answered"),
                      ("firstDiagnostics", "first publishDiagnostics"),
                      ("firstNonEmpty", "first with a diagnostic (the file's own candidates)"),
                      ("complete", "complete (after the project scan)"),
                      ("serverCpuMs", "server CPU time by then")):
        values = [r[key] for r in mine if r.get(key) is not None]
        if values:
            print(f"  - {what}: median {statistics.median(values):.0f}, min {min(values):.0f}, max {max(values):.0f}")
    print(f"  - scan: {mine[-1]['scanLog']}")
PY
