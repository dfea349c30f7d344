/**
 * h-summary race detection (Java RaceFinder, Figure 1): the literal bitset form
 * {@link dev.racetriage.agent.detect.HSummaryReference} (the specification, used on traces) and the fast runtime
 * form {@link dev.racetriage.agent.detect.HSummaryDetector}; race reports, their aggregation and the report file.
 *
 * <h2>Contract for the runtime hooks</h2>
 * <ul>
 * <li>At start-up: one {@link dev.racetriage.agent.detect.SiteTable}, one
 * {@link dev.racetriage.agent.detect.RaceAggregator} (a {@link dev.racetriage.agent.detect.RaceSink}), one
 * {@link dev.racetriage.agent.detect.RunSummary}, and
 * {@code new HSummaryDetector(siteTable, aggregator)} (stack capture: 8 frames, agent frames skipped).</li>
 * <li>Instrumentation time: {@code int site = siteTable.register(className, methodName, sourceFile, line)} for each
 * access site; bake the int into the code. Report {@code summary.classInstrumented()} /
 * {@code summary.classSkipped(className, reason)} for every class considered.</li>
 * <li>Shadow memory: one {@link dev.racetriage.agent.detect.LocationState}{@code (fieldKey)} per (object, non-final
 * non-volatile field), per static field, and per (array, index); field keys as in ARCHITECTURE
 * ({@code pkg.Cls.f}, {@code pkg.Cls.slots[]}). A fresh state is at ⊥ (never written: no race).</li>
 * <li>Every non-volatile read: {@code detector.read(threadState, location, site)}; every non-volatile write:
 * {@code detector.write(threadState, location, site)}. Both return {@code true} iff they reported a race; with no
 * race they allocate nothing and take no lock (a write takes the location's lock, a bit of its last-write epoch,
 * unless it repeats the same thread's same-epoch same-site write). Writes while {@code threadState.inClinit()} are recorded at ⊥ unchecked.
 * Volatile accesses are not locations: they are acquire/release on a SyncClock.</li>
 * <li>Test launcher glue: {@code aggregator.testStarted(testId)} / {@code aggregator.testFinished()} around each
 * test, so each raced field lists the tests it raced in ({@code "tests"} in the report, read by the runner).</li>
 * <li>At exit: {@code RaceReportWriter.write(writer, aggregator.fields(), aggregator.totalReports(), summary)}
 * writes the JSON-lines report (schema in {@link dev.racetriage.agent.detect.RaceReportWriter}).</li>
 * </ul>
 * <p>Threading: everything here is safe to call from any program thread; see {@code HSummaryDetector} for the
 * location protocol and why it never reports a race the h-summary would not. Nothing throws into the program.
 */
package dev.racetriage.agent.detect;
