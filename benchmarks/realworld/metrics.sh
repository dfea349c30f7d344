#!/usr/bin/env bash
# Dropwizard Metrics v4.2.28 (7c8bede6, 2024-10-03): 40 Maven modules (the jdk17 profile adds metrics-jetty12 and
# metrics-jetty12-ee10), tests on JUnit 4 (junit:junit 4.13.2; racetriage runs them through the Vintage engine),
# lock-free counters, reservoirs and schedulers in metrics-core. Runs `racetriage triage --detect-only` and a full
# `racetriage triage --budget 30m` on the checkout (lib.sh: MODES, BUDGET, OUT, NATIVE, NICE).
#
#   benchmarks/realworld/metrics.sh /work/rw/metrics [extra racetriage triage options]
#   NATIVE=1 benchmarks/realworld/metrics.sh /work/rw/metrics   # also time `mvn -B test -Dmaven.test.failure.ignore`
# Get the checkout: git clone https://github.com/dropwizard/metrics && git -C metrics checkout v4.2.28
#
# What to know (native `mvn -B test` on Java 17, Maven 3.8.7, 2026-11, no network but Maven Central):
#   - 792 tests in 31 modules' Surefire reports; 17 fail without DNS: metrics-graphite (15: GraphiteTest,
#     GraphiteUDPTest, PickledGraphiteTest resolve example.com), metrics-httpclient and metrics-httpclient5
#     (InstrumentedHttpClientsTest.registersExpectedMetricsGivenNameStrategy, example.com). A plain `mvn test` stops
#     at metrics-graphite and skips the rest of the reactor, hence -Dmaven.test.failure.ignore=true here.
#   - metrics-jersey2/3/31 run 0 tests natively: their JUnit 4 JerseyTest classes bring junit-jupiter with
#     jersey-test-framework, Surefire picks the JUnit Platform provider and there is no Vintage engine; a tool that
#     adds Vintage would run more tests than `mvn test` does.
#   - Surefire 3.5.0, argLine `@{argLine} -Djava.net.preferIPv4Stack=true` (JaCoCo's prepare-agent fills @{argLine}
#     with its own -javaagent); no includes/excludes, groups or forkCount settings; compilation runs Error Prone
#     (a javac plugin, -J--add-exports in the jdk17 profile); metrics-jcstress and metrics-benchmarks hold no
#     Surefire tests; metrics-docs is a jar module without code.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
RW_NATIVE_ARGS="-Dmaven.test.failure.ignore=true"
rw_main metrics 7c8bede6396451aff5fc33a144653ae25fcd5a60 https://github.com/dropwizard/metrics "$@"
