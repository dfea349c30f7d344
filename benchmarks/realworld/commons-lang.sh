#!/usr/bin/env bash
# apache/commons-lang 3.20.0 RC2 (598dfc16): one Maven module, 57,000 JUnit 5 test cases in 456 classes (most of
# them parameterised), about 210 s of native test time: string, array, reflection and date utilities — mostly
# single-threaded code over small arrays and strings, plus concurrency utilities (`concurrent.*`: initializers,
# circuit breakers, background tasks, `TimedSemaphore`) whose tests start threads and executors. Runs `racetriage
# triage --detect-only` and a full `racetriage triage --budget 30m` on the checkout (lib.sh: MODES, BUDGET, OUT,
# NATIVE, NICE).
#
#   benchmarks/realworld/commons-lang.sh /work/rw/commons-lang [extra racetriage triage options]
#   MODES=detect benchmarks/realworld/commons-lang.sh /work/rw/commons-lang --detect-runs 1   # issue 18's ratio
# Get the checkout: git clone https://github.com/apache/commons-lang && git -C commons-lang checkout 598dfc16
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rw_main commons-lang 598dfc16 https://github.com/apache/commons-lang "$@"
