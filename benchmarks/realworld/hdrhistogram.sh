#!/usr/bin/env bash
# HdrHistogram 2.2.2 (3ae7ae18, 2024-05-29): one Maven module, 575 tests, JUnit 5 (Jupiter, mostly parameterized
# over the histogram classes) with 2 JUnit 4 tests through the Vintage engine; concurrent recorders
# (ConcurrentHistogram, Recorder, WriterReaderPhaser). Runs `racetriage triage --detect-only` and a full
# `racetriage triage --budget 30m` on the checkout (lib.sh: MODES, BUDGET, OUT, NATIVE, NICE).
#
#   benchmarks/realworld/hdrhistogram.sh /work/rw/HdrHistogram [extra racetriage triage options]
#   NATIVE=1 benchmarks/realworld/hdrhistogram.sh /work/rw/HdrHistogram   # also time `mvn -B test`
# Get the checkout: git clone https://github.com/HdrHistogram/HdrHistogram && git -C HdrHistogram checkout HdrHistogram-2.2.2
#
# What to know (native `mvn -B test` on Java 17, Maven 3.8.7, 2 cores):
#   - Surefire 3.2.5 with <enableAssertions>false</enableAssertions>; no argLine, includes/excludes or forkCount.
#   - ConcurrentHistogramTest.testConcurrentAutoSizedRecording starts 64 threads that busy-wait on a volatile flag
#     for 1000 rounds: 72-233 s natively on 2 shared cores (it is most of the suite's time and swings with the load;
#     about 78-120 s under the racetriage agent at load 10-20), every other test is under 4 s.
#   - The test sources print large serialized-histogram dumps to stdout (HistogramEncodingTest).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rw_main HdrHistogram 3ae7ae18d81887484974011c1c7a2bdc9178ab09 https://github.com/HdrHistogram/HdrHistogram "$@"
