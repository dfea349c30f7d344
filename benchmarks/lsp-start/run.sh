#!/usr/bin/env bash
# Language server start over real JSON-RPC: `racetriage lsp` (the distribution, as an editor starts it) on a copy of
# examples/racy-shapes, timed from the `initialize` request to the first publishDiagnostics of RacyInitLoop.java
# (opened right after `initialized`) and to its complete diagnostics (after the project scan). A "first" start has an
# empty class-path cache (Maven is asked: `mvn dependency:build-classpath`); a "second" start reuses the cache the
# first one wrote (same poms). RUNS pairs, first and second interleaved; medians and ranges.
# Usage: benchmarks/lsp-start/run.sh [RUNS]   (from the repository root; builds the distribution if stale)
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
  for kind in first second; do
    XDG_CACHE_HOME="$work/cache" RACETRIAGE_SKIP_BUILD=1 python3 benchmarks/lsp-start/lsp_start.py \
      "$work/project" "$file" -- ./racetriage lsp | sed "s/^{/{\"kind\": \"$kind\", /" >>"$work/results.jsonl"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/results.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
for kind in ("first", "second"):
    mine = [r for r in rows if r["kind"] == kind]
    timed_out = sum(r["timedOut"] for r in mine)
    print(f"- {kind} start ({len(mine)} runs{', %d timed out' % timed_out if timed_out else ''}), ms from `initialize`:")
    for key, what in (("initialized", "initialize answered"),
                      ("firstDiagnostics", "first publishDiagnostics"),
                      ("firstNonEmpty", "first with a diagnostic (the file's own candidates)"),
                      ("complete", "complete (after the project scan)")):
        values = [r[key] for r in mine if r.get(key) is not None]
        if values:
            print(f"  - {what}: median {statistics.median(values):.0f}, min {min(values):.0f}, max {max(values):.0f}")
    print(f"  - scan: {mine[-1]['scanLog']}")
PY
