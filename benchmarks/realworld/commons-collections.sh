#!/usr/bin/env bash
# apache/commons-collections 4.5.0 (7f7fb024): one Maven module, JUnit 5, collections and maps built on arrays and
# the JDK's containers (bags, bidi and multi-valued maps, tries, LRU and reference maps, iterators, decorators) —
# mostly single-threaded, with many small objects and the abstract test hierarchies that run each test against every
# implementation. Runs `racetriage triage --detect-only` and a full `racetriage triage --budget 30m` on the checkout
# (lib.sh: MODES, BUDGET, OUT, NATIVE, NICE). Its parent POM (commons-parent 81) builds with Maven 3.8; 4.6.0's needs
# Maven 3.9.
#
#   benchmarks/realworld/commons-collections.sh /work/rw/commons-collections [extra racetriage triage options]
#   MODES=detect benchmarks/realworld/commons-collections.sh /work/rw/commons-collections --detect-runs 1   # issue 18
# Get the checkout: git clone https://github.com/apache/commons-collections
#   && git -C commons-collections checkout rel/commons-collections-4.5.0
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rw_main commons-collections 7f7fb024 https://github.com/apache/commons-collections "$@"
