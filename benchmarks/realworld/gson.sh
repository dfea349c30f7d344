#!/usr/bin/env bash
# google/gson 2.14.1-SNAPSHOT (9835b6f9): a Maven reactor of 7 modules and about 4,700 JUnit 4 tests (through
# Vintage), nearly all single-threaded JSON (de)serialisation. Two of its modules do not build with `mvn test` alone
# (test-jpms needs the packaged gson jar on the module path; proto's protobuf plugin needs Maven 3.9.6): racetriage
# names them in a warning and triages the other four. gson obfuscates a test class with ProGuard at
# process-test-classes, which racetriage's build runs. Runs `racetriage triage --detect-only` and a full
# `racetriage triage --budget 30m` on the checkout (lib.sh: MODES, BUDGET, OUT, NATIVE, NICE).
#
#   benchmarks/realworld/gson.sh /work/rw/gson [extra racetriage triage options]
#   MODES=detect benchmarks/realworld/gson.sh /work/rw/gson --detect-runs 1   # issue 18's ratio
# Get the checkout: git clone https://github.com/google/gson && git -C gson checkout 9835b6f9
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rw_main gson 9835b6f9 https://github.com/google/gson "$@"
