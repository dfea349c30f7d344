#!/usr/bin/env bash
# apache/commons-text 1.14.0 (0a343ae4): one Maven module, about 1,400 JUnit 5 tests in 96 classes: string
# algorithms (similarity and edit distances, diff, case conversion, escaping), `StringSubstitutor` and its readers,
# string lookups — single-threaded code over strings, char arrays and builders. Two tests need the network (a DNS and
# an HTTP lookup) and fail without it, natively too: racetriage names them in a warning. Runs `racetriage triage
# --detect-only` and a full `racetriage triage --budget 30m` on the checkout (lib.sh: MODES, BUDGET, OUT, NATIVE,
# NICE). Its parent POM (commons-parent 85) builds with Maven 3.8; later releases need Maven 3.9.
#
#   benchmarks/realworld/commons-text.sh /work/rw/commons-text [extra racetriage triage options]
#   MODES=detect benchmarks/realworld/commons-text.sh /work/rw/commons-text --detect-runs 1   # issue 18's ratio
# Get the checkout: git clone https://github.com/apache/commons-text && git -C commons-text checkout 0a343ae4
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rw_main commons-text 0a343ae4 https://github.com/apache/commons-text "$@"
