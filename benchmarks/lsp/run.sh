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
# a copy of the server's classes: a build running meanwhile must not swap them under the benchmark
cp -r lsp-server/target/classes "$out/server"
cp="$out/server:$(cat "$cp_file")"
mkdir "$out/bench"
javac -d "$out/bench" -cp "$cp" benchmarks/prefilter/SyntheticProject.java benchmarks/lsp/LspLatencyBenchmark.java
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: nproc=$(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(java -version 2>&1 | sed -n 1p)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# no logging config: the server logs nothing, a failure still prints its exception
java -Xmx1g -Djava.util.logging.config.file=/dev/null -cp "$out/bench:$cp" LspLatencyBenchmark "$@"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$out" "$cp_file"
