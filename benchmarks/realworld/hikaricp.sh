#!/usr/bin/env bash
# brettwooldridge/HikariCP (604d7d58, 7.0.x development): one Maven module, 179 JUnit 4 tests through Vintage, a JDBC
# connection pool — the tests start pools whose housekeeping, leak detection and connection-adding threads run beside
# the test thread, and many of them sleep (idle timeouts, slow acquisition): about 190 s of test time, little CPU. Its
# `PostgresTest` needs Docker (Testcontainers) and fails without it: racetriage reports those 5 tests as failing
# without the agent. Runs `racetriage triage --detect-only` and a full `racetriage triage --budget 30m` on the checkout
# (lib.sh: MODES, BUDGET, OUT, NATIVE, NICE).
#
#   benchmarks/realworld/hikaricp.sh /work/rw/HikariCP [extra racetriage triage options]
#   MODES=detect benchmarks/realworld/hikaricp.sh /work/rw/HikariCP --detect-runs 1
# Get the checkout: git clone https://github.com/brettwooldridge/HikariCP && git -C HikariCP checkout 604d7d58
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rw_main HikariCP 604d7d58 https://github.com/brettwooldridge/HikariCP "$@"
