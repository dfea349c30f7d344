#!/usr/bin/env bash
# apache/commons-codec 1.20.0 (b20db1f1): one Maven module, JUnit 5, encoders and digests (Base64, Base32, Hex,
# soundex and phonetic encoders, MurmurHash, xxHash, CRC, Blake3) over byte and char arrays — single-threaded,
# array-heavy code, the shape issue 18 is about; a few tests share a codec between threads. Runs
# `racetriage triage --detect-only` and a full `racetriage triage --budget 30m` on the checkout (lib.sh: MODES, BUDGET,
# OUT, NATIVE, NICE). Its parent POM (commons-parent 91) builds with Maven 3.8; later releases need Maven 3.9.
#
#   benchmarks/realworld/commons-codec.sh /work/rw/commons-codec [extra racetriage triage options]
#   MODES=detect benchmarks/realworld/commons-codec.sh /work/rw/commons-codec --detect-runs 1   # issue 18's ratio
# Get the checkout: git clone https://github.com/apache/commons-codec && git -C commons-codec checkout b20db1f1
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rw_main commons-codec b20db1f1 https://github.com/apache/commons-codec "$@"
