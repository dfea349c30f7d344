#!/usr/bin/env bash
# LSP latency benchmark for a ~2,000-line file over real JSON-RPC: didOpen (cold and in a loaded project), didChange
# and codeAction, then the prefilter's incremental update alone.
# Usage: benchmarks/lsp/run.sh [FILES] [BIG_FILE_LINES] [WARMUP] [RUNS] [store|nostore]   (from the repository root)
# The synthetic project comes from benchmarks/prefilter/SyntheticProject.java (the prefilter benchmark's generator).
# Builds lsp-server against the static-prefilter and triage-store already installed in ~/.m2 (-o, no -am).
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q -o -pl lsp-server install -DskipTests
cp_file=$(mktemp)
mvn -B -q -o -pl lsp-server dependency:build-classpath -Dmdep.outputFile="$cp_file"
out=$(mktemp -d)
cp="lsp-server/target/classes:$(cat "$cp_file")"
javac -d "$out" -cp "$cp" benchmarks/prefilter/SyntheticProject.java benchmarks/lsp/LspLatencyBenchmark.java
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: nproc=$(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(java -version 2>&1 | sed -n 1p)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx1g -Djava.util.logging.config.file=/dev/null -cp "$out:$cp" LspLatencyBenchmark "$@" 2>/dev/null
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$out" "$cp_file"
