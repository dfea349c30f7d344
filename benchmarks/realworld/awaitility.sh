#!/usr/bin/env bash
# awaitility/awaitility (9d1e0b5, 4.3.1-SNAPSHOT): its core module `awaitility`, 156 JUnit 4 tests (through Vintage)
# of a library that polls a condition from a pool thread while the test thread waits — each test starts and stops an
# executor, many sleep or poll for a fixed time, and several leave non-daemon threads behind. Two tests of
# `AwaitilityIgnoreExceptionsTest` fail natively on this machine (under Surefire too): racetriage reports them as
# failing without the agent. Runs `racetriage triage --detect-only` and a full `racetriage triage --budget 30m` on
# the module (lib.sh: MODES, BUDGET, OUT, NATIVE, NICE).
#
#   benchmarks/realworld/awaitility.sh /work/rw/awaitility/awaitility [extra racetriage triage options]
#   MODES=detect benchmarks/realworld/awaitility.sh /work/rw/awaitility/awaitility --detect-runs 1
# Get the checkout: git clone https://github.com/awaitility/awaitility && git -C awaitility checkout 9d1e0b5, then
# install the module's sibling `awaitility-test-support` (a test dependency, a snapshot no repository serves):
#   (cd awaitility && mvn -B -q -pl awaitility -am install -DskipTests)
# The other modules (Scala, Groovy, Kotlin, OSGi tests) are not run: give the script the `awaitility` module.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rw_main awaitility 9d1e0b5 https://github.com/awaitility/awaitility "$@"
