#!/usr/bin/env bash
# Prefilter speed benchmark: cold batch scan and incremental update of one ~2,000-line file in a 200-file project.
# Usage: benchmarks/prefilter/run.sh [FILES] [BIG_FILE_LINES] [WARMUP] [RUNS]   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q -pl static-prefilter -am install -DskipTests
cp_file=$(mktemp)
mvn -B -q -pl static-prefilter dependency:build-classpath -Dmdep.outputFile="$cp_file"
out=$(mktemp -d)
javac -d "$out" -cp "static-prefilter/target/classes:$(cat "$cp_file")" \
  benchmarks/prefilter/SyntheticProject.java benchmarks/prefilter/PrefilterBenchmark.java
echo "machine: nproc=$(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(java -version 2>&1 | head -1)"
java -Xmx1g -cp "$out:static-prefilter/target/classes:$(cat "$cp_file")" PrefilterBenchmark "$@"
rm -rf "$out" "$cp_file"
