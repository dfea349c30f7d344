#!/usr/bin/env bash
# jhy/jsoup 1.23.2-SNAPSHOT (46b62086): one Maven module, about 1,900 JUnit 5 tests: an HTML parser and DOM — a
# tokeniser walking a character buffer, tree building with many small node and attribute objects, selectors —
# nearly all single-threaded, plus a few tests of its thread-safe parser and of connections to a Jetty server the
# tests start. Runs `racetriage triage --detect-only` and a full `racetriage triage --budget 30m` on the checkout
# (lib.sh: MODES, BUDGET, OUT, NATIVE, NICE).
#
#   benchmarks/realworld/jsoup.sh /work/rw/jsoup [extra racetriage triage options]
#   MODES=detect benchmarks/realworld/jsoup.sh /work/rw/jsoup --detect-runs 1   # issue 18's ratio
# Get the checkout: git clone https://github.com/jhy/jsoup && git -C jsoup checkout 46b62086
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rw_main jsoup 46b62086 https://github.com/jhy/jsoup "$@"
