#!/usr/bin/env bash
# conversant/disruptor (b5e9cc6e, 2024-12-24): one Maven module, 138 JUnit 4 tests (through the Vintage engine) of
# lock-free and blocking queues (MultithreadConcurrentQueue, DisruptorBlockingQueue, PushPullBlockingQueue) with
# spin-and-yield waits. Runs `racetriage triage --detect-only` and a full `racetriage triage --budget 30m` on the
# checkout (lib.sh: MODES, BUDGET, OUT, NATIVE, NICE).
#
#   benchmarks/realworld/conversant-disruptor.sh /work/rw/conv-disruptor [extra racetriage triage options]
# Get the checkout: git clone https://github.com/conversant/disruptor && git -C disruptor checkout b5e9cc6
#
# What to know:
#   - The tests create an executor per test class instance and never shut it down: after each test its workers stay
#     parked in ThreadPoolExecutor.getTask (idle; racetriage repeats such tests in one JVM).
#   - MultithreadConcurrentQueueTest#testManyPoll's pollers spin until five plain int counters (the test's c1..c5)
#     add up; they are still spinning when the test method returns (not repeatable in one JVM), and on a loaded
#     machine under the agent a run takes 4-22 s against 0.6 s natively.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rw_main conversant-disruptor b5e9cc6e6b3206b9a8180d087921c38e19b9fac2 https://github.com/conversant/disruptor "$@"
