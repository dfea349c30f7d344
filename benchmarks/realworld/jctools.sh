#!/usr/bin/env bash
# JCTools/JCTools at c3312218 (5.0.0-SNAPSHOT): a multi-module Maven build (jctools-build, a code generator the core
# module's build runs; jctools-core; jctools-core-jdk11; jctools-channels; jctools-experimental), JUnit 4, lock-free
# queues and maps written with sun.misc.Unsafe: plain, ordered and volatile gets and puts of fields and array
# elements (`spRefElement`, `soProducerIndex`, `lvRefElement` …). Run from the aggregator (the core module alone does
# not build: its generator plugin needs the reactor's jctools-build). The queues' sanity tests run for a fixed time
# each, so detect/baseline says little here; what this project tests is precision on Unsafe-based code and the
# multi-module handling (modules the --tests selection leaves without a test are skipped).
#
#   benchmarks/realworld/jctools.sh /work/rw/jctools --tests 'org.jctools.queues.QueueSanityTestSpscArray,org.jctools.queues.QueueSanityTestMpscArray,org.jctools.maps.NBHMReplaceTest,org.jctools.counters.FixedSizeStripedLongCounterTest'
# Get the checkout: git clone https://github.com/JCTools/JCTools && git -C JCTools checkout c3312218f8871dc7b541f2422dc7d33d0c445c89
# (lib.sh: MODES, BUDGET, OUT, NATIVE, NICE.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rw_main jctools c3312218f8871dc7b541f2422dc7d33d0c445c89 https://github.com/JCTools/JCTools "$@"
