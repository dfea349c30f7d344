#!/usr/bin/env bash
# zxing/zxing (7f129804, 3.5.5-SNAPSHOT): a barcode library, a reactor of `core` and `javase` (the Android and web
# modules are in profiles a plain build leaves out); about 600 JUnit 4 tests (through Surefire's JUnit 4 provider):
# encoders, decoders and black-box tests that decode hundreds of images from core/src/test/resources, all in the test
# thread over int and byte arrays (bit matrices, luminance buffers, Reed-Solomon). Runs `racetriage triage
# --detect-only` and a full `racetriage triage --budget 30m` on the checkout (lib.sh: MODES, BUDGET, OUT, NATIVE,
# NICE).
#
#   benchmarks/realworld/zxing.sh /work/rw/zxing [extra racetriage triage options]
#   MODES=detect benchmarks/realworld/zxing.sh /work/rw/zxing --detect-runs 1   # issue 18
# Get the checkout: git clone https://github.com/zxing/zxing && git -C zxing checkout 7f129804
#   then once, with the network: (cd zxing && mvn -B -q install -DskipTests -pl core -am)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rw_main zxing 7f129804e396958ae762da288da5df330d142da0 https://github.com/zxing/zxing "$@"
