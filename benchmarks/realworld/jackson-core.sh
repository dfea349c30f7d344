#!/usr/bin/env bash
# FasterXML/jackson-core 2.18.2 (fc1bc938): one Maven module, 1422 tests (Surefire's selection), JUnit 5; a
# streaming JSON parser and generator — single-threaded, byte/char-array-heavy code (buffers indexed through fields:
# `_inputBuffer[_inputPtr++]`), the access pattern of issue 18, plus buffer-recycler pools and symbol tables shared
# between threads. Runs `racetriage triage --detect-only` and a full `racetriage triage --budget 30m` on the checkout
# (lib.sh: MODES, BUDGET, OUT, NATIVE, NICE).
#
#   benchmarks/realworld/jackson-core.sh /work/rw/jackson-core [extra racetriage triage options]
#   MODES=detect benchmarks/realworld/jackson-core.sh /work/rw/jackson-core --detect-runs 1   # issue 18's ratio
# Get the checkout: git clone https://github.com/FasterXML/jackson-core && git -C jackson-core checkout jackson-core-2.18.2
#
# What to know (Java 17, Maven 3.8.7, 2 cores):
#   - Surefire excludes `**/failing/**/*.java` (known-failing tests): racetriage honours it; a plain scan of
#     target/test-classes (benchmarks/agent-slowdown.sh SUITES=…) runs them too, so its figures differ.
#   - `io.schubfach.DoubleToDecimalChecker.hard0()` is larger than 64 KiB once instrumented: the class runs
#     uninstrumented and the report names it (stats.uninstrumentedClasses).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rw_main jackson-core fc1bc9382c4405c789b7757dc2dae19c9c3b2317 https://github.com/FasterXML/jackson-core "$@"
