#!/usr/bin/env bash
# LSP latency benchmark: didChange -> publishDiagnostics for a ~2,000-line file, over real JSON-RPC.
# Usage: benchmarks/lsp/run.sh [FILES] [BIG_FILE_LINES] [WARMUP] [RUNS] [store|nostore]   (from the repository root)
# The synthetic project comes from benchmarks/prefilter/SyntheticProject.java (the prefilter benchmark's generator).
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q -pl lsp-server -am install -DskipTests
cp_file=$(mktemp)
mvn -B -q -pl lsp-server dependency:build-classpath -Dmdep.outputFile="$cp_file"
out=$(mktemp -d)
cp="lsp-server/target/classes:$(cat "$cp_file")"
javac -d "$out" -cp "$cp" benchmarks/prefilter/SyntheticProject.java benchmarks/lsp/LspLatencyBenchmark.java
echo "machine: nproc=$(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(java -version 2>&1 | head -1)"
java -Xmx1g -Djava.util.logging.config.file=/dev/null -cp "$out:$cp" LspLatencyBenchmark "$@" 2>/dev/null
rm -rf "$out" "$cp_file"
