package dev.racetriage.agent.detect;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Aggregation of repeated reports, the JSON-lines report file, the site table and the stack capture. */
class RaceReportingTest {
    private static final Site SET = new Site("pkg.Box", "set", "Box.java", 7);
    private static final Site GET = new Site("pkg.Box", "get", "Box.java", 12);
    private static final Site RESET = new Site("pkg.Box", "reset", null, -1);

    private static RaceReport report(String field, RaceKind kind, Site current, Site previous) {
        return new RaceReport(field, kind,
                new Access("reader \"1\"", current, List.of(new StackTraceElement("pkg.Box", "get", "Box.java", 12))),
                new Access("writer", previous, List.of()));
    }

    @Test
    void aggregatorKeepsTheFirstReportCountsAndDistinctSitePairs() {
        RaceAggregator agg = new RaceAggregator();
        RaceReport first = report("pkg.Box.value", RaceKind.WR, GET, SET);
        agg.race(first);
        agg.race(report("pkg.Box.value", RaceKind.WR, GET, SET));
        agg.race(report("pkg.Box.value", RaceKind.WW, RESET, SET));
        agg.race(report("pkg.Box.other", RaceKind.WW, SET, SET));
        List<FieldRaces> fields = agg.fields();
        assertEquals(2, fields.size());
        FieldRaces value = fields.get(0);
        assertEquals("pkg.Box.value", value.fieldKey());
        assertEquals(3, value.count());
        assertEquals(Map.of(RaceKind.WR, 2L, RaceKind.WW, 1L), value.countByKind());
        assertEquals(first, value.first());
        assertEquals(List.of(new FieldRaces.SitePair(RaceKind.WR, GET, SET),
                new FieldRaces.SitePair(RaceKind.WW, RESET, SET)), value.sitePairs());
        assertEquals(4, agg.totalReports());
    }

    /**
     * The report stream asks for the fields whose line is out of date: a new field, test, site pair or index makes a
     * line stale, a repeat only its count; counted, the last call also hands out the fields only counted more.
     */
    @Test
    void unreportedHandsOutEachChangedFieldOnceAndCountsOnlyWhenAsked() {
        RaceAggregator agg = new RaceAggregator();
        assertEquals(List.of(), agg.unreported(false));
        agg.race(report("pkg.Box.value", RaceKind.WR, GET, SET));
        agg.race(report("pkg.Box.other", RaceKind.WW, SET, SET));
        assertEquals(List.of("pkg.Box.value", "pkg.Box.other"), keys(agg.unreported(false)));
        assertEquals(List.of(), agg.unreported(false), "handed out: up to date");

        agg.race(report("pkg.Box.value", RaceKind.WR, GET, SET)); // the same pair again: a count
        assertEquals(List.of(), agg.unreported(false));
        agg.race(report("pkg.Box.other", RaceKind.WW, RESET, SET)); // a new site pair
        List<FieldRaces> other = agg.unreported(false);
        assertEquals(List.of("pkg.Box.other"), keys(other));
        assertEquals(2, other.get(0).count(), "a line is the field's state so far");

        agg.testStarted("pkg.BoxTest#t()");
        agg.race(report("pkg.Box.other", RaceKind.WW, RESET, SET)); // a new test
        agg.testFinished();
        assertEquals(List.of("pkg.Box.other"), keys(agg.unreported(false)));
        agg.race(new RaceReport("pkg.Box.cells[]", RaceKind.WR, new Access("r", GET, List.of()),
                new Access("w", SET, List.of()), 3));
        assertEquals(List.of("pkg.Box.cells[]"), keys(agg.unreported(false)));
        agg.race(new RaceReport("pkg.Box.cells[]", RaceKind.WR, new Access("r", GET, List.of()),
                new Access("w", SET, List.of()), 4)); // a new index
        assertEquals(List.of("pkg.Box.cells[]"), keys(agg.unreported(false)));

        List<FieldRaces> last = agg.unreported(true); // only pkg.Box.value was counted since its line
        assertEquals(List.of("pkg.Box.value"), keys(last));
        assertEquals(agg.fields().get(0), last.get(0));
        assertEquals(List.of(), agg.unreported(true));
    }

    private static List<String> keys(List<FieldRaces> fields) {
        List<String> keys = new java.util.ArrayList<>();
        for (FieldRaces f : fields) {
            keys.add(f.fieldKey());
        }
        return keys;
    }

    /** A racy loop reports on every iteration: only the first report of a field pays for a stack. */
    @Test
    void onlyTheFirstReportOfAFieldCapturesAStack() {
        RaceAggregator agg = new RaceAggregator();
        HSummaryDetector detector = new HSummaryDetector(new SiteTable(), agg);
        dev.racetriage.agent.hb.HappensBefore hb = new dev.racetriage.agent.hb.HappensBefore();
        dev.racetriage.agent.hb.ThreadState writer = hb.newThread("writer");
        dev.racetriage.agent.hb.ThreadState reader = hb.newThread("reader");
        LocationState x = new LocationState("pkg.Box.value");
        LocationState y = new LocationState("pkg.Box.other");
        assertTrue(agg.wantsStack("pkg.Box.value"));
        detector.write(writer, x, -1);
        assertTrue(detector.read(reader, x, -1));
        assertFalse(agg.wantsStack("pkg.Box.value"));
        assertTrue(agg.wantsStack("pkg.Box.other"));
        assertTrue(detector.read(reader, x, -1)); // still reported and counted, without a stack
        detector.write(writer, y, -1);
        assertTrue(detector.read(reader, y, -1));
        List<FieldRaces> fields = agg.fields();
        assertEquals(2, fields.get(0).count());
        assertFalse(fields.get(0).first().current().stack().isEmpty(), "the first report keeps its stack");
        assertFalse(fields.get(1).first().current().stack().isEmpty());
        assertEquals(2, detector.raceCount(), "the repeat was counted by the aggregator, not built");
        assertEquals(3, agg.totalReports());
    }

    /**
     * A location that keeps racing: repeats of a known (field, kind, sites, test, index) are only counted, and anything
     * new — an index, a test, a site pair — still reaches the aggregate whole.
     */
    @Test
    void repeatsThatAddNothingAreCountedWhileAnythingNewIsTakenWhole() {
        RaceAggregator agg = new RaceAggregator();
        SiteTable sites = new SiteTable();
        int read = sites.register(GET.className(), GET.methodName(), GET.fileName(), GET.line());
        int write = sites.register(SET.className(), SET.methodName(), SET.fileName(), SET.line());
        HSummaryDetector detector = new HSummaryDetector(sites, agg);
        dev.racetriage.agent.hb.HappensBefore hb = new dev.racetriage.agent.hb.HappensBefore();
        dev.racetriage.agent.hb.ThreadState writer = hb.newThread("writer");
        dev.racetriage.agent.hb.ThreadState reader = hb.newThread("reader");
        String key = "pkg.Box.cells[]";
        for (int round = 0; round < 1000; round++) {
            detector.reportRead(reader, key, read, write, "writer", round % 3); // indices 0, 1, 2 over and over
        }
        assertEquals(3, detector.raceCount(), "one whole report per distinct index");
        agg.testStarted("pkg.BoxTest#second()");
        detector.reportRead(reader, key, read, write, "writer", 1);
        assertEquals(4, detector.raceCount(), "a new test is taken whole");
        for (int i = 0; i < RaceAggregator.MAX_INDICES + 10; i++) {
            detector.reportRead(reader, key, read, write, "writer", 100 + i);
        }
        long whole = detector.raceCount();
        for (int i = 0; i < 500; i++) {
            detector.reportRead(reader, key, read, write, "writer", 5000 + i); // the index set is full: nothing new
        }
        assertEquals(whole, detector.raceCount());
        detector.reportWrite(writer, key, write, write, "writer", 1); // another kind and pair
        assertEquals(whole + 1, detector.raceCount());
        FieldRaces f = agg.fields().get(0);
        assertEquals(1000 + 1 + RaceAggregator.MAX_INDICES + 10 + 500 + 1, f.count());
        assertEquals(1000L + 1 + RaceAggregator.MAX_INDICES + 10 + 500, f.countByKind().get(RaceKind.WR));
        assertEquals(1L, f.countByKind().get(RaceKind.WW));
        assertEquals(List.of("pkg.BoxTest#second()"), f.tests());
        assertTrue(f.indices().containsAll(List.of(0, 1, 2)), f.indices().toString());
        assertEquals(f.count(), agg.totalReports());
    }

    @Test
    void racesAreAttributedToTheTestRunningWhenTheyAreReported() {
        RaceAggregator agg = new RaceAggregator();
        agg.race(report("pkg.Box.value", RaceKind.WR, GET, SET));
        agg.testStarted("pkg.BoxTest#first()");
        agg.race(report("pkg.Box.value", RaceKind.WR, GET, SET));
        agg.race(report("pkg.Box.value", RaceKind.WR, GET, SET));
        agg.testFinished();
        agg.testStarted("pkg.BoxTest#second()");
        agg.race(report("pkg.Box.value", RaceKind.WW, RESET, SET));
        agg.race(report("pkg.Box.other", RaceKind.WW, SET, SET));
        agg.testFinished();
        agg.race(report("pkg.Box.other", RaceKind.WW, SET, SET));
        assertEquals(List.of("pkg.BoxTest#first()", "pkg.BoxTest#second()"), agg.fields().get(0).tests());
        assertEquals(List.of("pkg.BoxTest#second()"), agg.fields().get(1).tests());
    }

    @Test
    void sitePairsAreBoundedPerField() {
        RaceAggregator agg = new RaceAggregator();
        for (int i = 0; i < RaceAggregator.MAX_PAIRS + 5; i++) {
            agg.race(report("pkg.Box.value", RaceKind.WR, new Site("pkg.Box", "m" + i, "Box.java", i), SET));
        }
        FieldRaces f = agg.fields().get(0);
        assertEquals(RaceAggregator.MAX_PAIRS, f.sitePairs().size());
        assertTrue(f.sitePairsTruncated());
        assertEquals(RaceAggregator.MAX_PAIRS + 5, f.count());
    }

    /** The runner jumbles the elements that raced: element races carry their index to the report, fields none. */
    @Test
    void elementRacesReportTheirIndexAndFieldRacesNone() throws IOException {
        RaceAggregator agg = new RaceAggregator();
        HSummaryDetector detector = new HSummaryDetector(new SiteTable(), agg);
        dev.racetriage.agent.hb.HappensBefore hb = new dev.racetriage.agent.hb.HappensBefore();
        dev.racetriage.agent.hb.ThreadState writer = hb.newThread("writer");
        dev.racetriage.agent.hb.ThreadState reader = hb.newThread("reader");
        LocationState five = new LocationState("pkg.Sieve.composite[]");
        LocationState field = new LocationState("pkg.Sieve.count");
        detector.write(writer, five, -1, 5);
        assertTrue(detector.read(reader, five, -1, 5));
        detector.write(writer, field, -1);
        assertTrue(detector.read(reader, field, -1));
        List<FieldRaces> fields = agg.fields();
        assertEquals(List.of(5), fields.get(0).indices());
        assertEquals(5, fields.get(0).first().index());
        assertEquals(List.of(), fields.get(1).indices());
        assertEquals(RaceReport.NO_INDEX, fields.get(1).first().index());

        StringWriter out = new StringWriter();
        RaceReportWriter.write(out, fields, agg.totalReports(), new RunSummary());
        Map<?, ?> line = (Map<?, ?>) JsonCheck.parse(out.toString().split("\n")[0]);
        assertEquals(List.of(5L), line.get("indices"));
    }

    /** Indices of WR races (where a stale value can be served) come first, then WW-only ones; both bounded. */
    @Test
    void racingIndicesAreDistinctReadsFirstAndBounded() {
        RaceAggregator agg = new RaceAggregator();
        String key = "pkg.Sieve.composite[]";
        agg.race(indexed(key, RaceKind.WW, 16));
        agg.race(indexed(key, RaceKind.WR, 4));
        agg.race(indexed(key, RaceKind.WW, 20));
        agg.race(indexed(key, RaceKind.WR, 4));
        agg.race(indexed(key, RaceKind.WR, 9));
        agg.race(indexed(key, RaceKind.WW, 4));
        FieldRaces f = agg.fields().get(0);
        assertEquals(List.of(4, 9, 16, 20), f.indices());
        assertFalse(f.indicesTruncated());

        for (int i = 0; i < 3 * RaceAggregator.MAX_INDICES; i++) {
            agg.race(indexed(key, RaceKind.WW, 1000 + i));
        }
        agg.race(indexed(key, RaceKind.WR, 12)); // a read's index is not crowded out by many writes'
        f = agg.fields().get(0);
        assertEquals(RaceAggregator.MAX_INDICES, f.indices().size());
        assertEquals(List.of(4, 9, 12, 16, 20, 1000), f.indices().subList(0, 6));
        assertTrue(f.indicesTruncated());
    }

    private static RaceReport indexed(String field, RaceKind kind, int index) {
        RaceReport r = report(field, kind, GET, SET);
        return new RaceReport(r.fieldKey(), r.kind(), r.current(), r.previous(), index);
    }

    @Test
    void reportFileIsOneParsableLinePerFieldThenTheSummary() throws IOException {
        RaceAggregator agg = new RaceAggregator();
        agg.race(report("pkg.Box.value", RaceKind.WR, GET, SET));
        agg.testStarted("pkg.BoxTest#get()");
        agg.race(report("pkg.Box.value", RaceKind.WW, RESET, SET));
        RunSummary summary = new RunSummary();
        summary.classInstrumented();
        summary.classInstrumented();
        summary.classSkipped("pkg.Huge", "method too large: pkg.Huge.run");
        summary.classSkipped("pkg.Huge", "second reason is ignored");
        StringWriter out = new StringWriter();
        RaceReportWriter.write(out, agg.fields(), agg.totalReports(), summary);
        String[] lines = out.toString().split("\n");
        assertEquals(2, lines.length);

        Map<?, ?> race = (Map<?, ?>) JsonCheck.parse(lines[0]);
        assertEquals("race", race.get("type"));
        assertEquals("pkg.Box.value", race.get("field"));
        assertEquals(2L, race.get("count"));
        assertEquals(1L, race.get("wr"));
        assertEquals(1L, race.get("ww"));
        assertEquals("WR", race.get("kind"));
        Map<?, ?> current = (Map<?, ?>) race.get("current");
        assertEquals("reader \"1\"", current.get("thread"));
        assertEquals("pkg.Box", current.get("class"));
        assertEquals("get", current.get("method"));
        assertEquals("Box.java", current.get("file"));
        assertEquals(12L, current.get("line"));
        assertEquals(List.of("pkg.Box.get(Box.java:12)"), current.get("stack"));
        Map<?, ?> previous = (Map<?, ?>) race.get("previous");
        assertEquals("writer", previous.get("thread"));
        assertEquals("set", previous.get("method"));
        List<?> pairs = (List<?>) race.get("sitePairs");
        assertEquals(2, pairs.size());
        Map<?, ?> second = (Map<?, ?>) pairs.get(1);
        assertEquals("WW", second.get("kind"));
        assertEquals(null, ((Map<?, ?>) second.get("current")).get("file"));
        assertEquals(-1L, ((Map<?, ?>) second.get("current")).get("line"));
        assertEquals(false, race.get("sitePairsTruncated"));
        assertEquals(List.of("pkg.BoxTest#get()"), race.get("tests"));
        assertEquals(List.of(), race.get("indices"), "a field has no racing indices");
        assertEquals(false, race.get("indicesTruncated"));

        Map<?, ?> s = (Map<?, ?>) JsonCheck.parse(lines[1]);
        assertEquals("summary", s.get("type"));
        assertEquals(2L, s.get("classesInstrumented"));
        assertEquals(List.of(Map.of("class", "pkg.Huge", "reason", "method too large: pkg.Huge.run")),
                s.get("classesSkipped"));
        assertEquals(1L, s.get("races"));
        assertEquals(2L, s.get("raceReports"));
        assertEquals(0L, s.get("internalErrors"));
    }

    @Test
    void emptyRunStillWritesTheSummary() throws IOException {
        StringWriter out = new StringWriter();
        RaceReportWriter.write(out, List.of(), 0, new RunSummary());
        Map<?, ?> s = (Map<?, ?>) JsonCheck.parse(out.toString().trim());
        assertEquals(0L, s.get("classesInstrumented"));
        assertEquals(0L, s.get("races"));
    }

    @Test
    void siteTableGivesDenseStableIds() {
        SiteTable t = new SiteTable();
        int a = t.register("pkg.A", "m", "A.java", 1);
        int b = t.register("pkg.A", "m", "A.java", 2);
        assertEquals(0, a);
        assertEquals(1, b);
        assertEquals(a, t.register("pkg.A", "m", "A.java", 1));
        for (int i = 0; i < 1000; i++) {
            t.register("pkg.B", "m", "B.java", i);
        }
        assertEquals(new Site("pkg.A", "m", "A.java", 2), t.site(b));
        assertEquals(new Site("pkg.B", "m", "B.java", 999), t.site(1001));
        assertEquals(Site.UNKNOWN, t.site(-1));
        assertEquals(Site.UNKNOWN, t.site(5000));
        assertEquals(1002, t.size());
        assertEquals("pkg.A.m(A.java:2)", t.site(b).toString());
        assertEquals("pkg.B.m(Unknown Source)", new Site("pkg.B", "m", null, -1).toString());
    }

    @Test
    void stackCaptureDropsLeadingAgentFramesAndCaps() {
        StackTraceElement agent = new StackTraceElement("dev.racetriage.agent.detect.HSummaryDetector", "read",
                "HSummaryDetector.java", 1);
        StackTraceElement hook = new StackTraceElement("dev.racetriage.agent.runtime.Hooks", "read", "Hooks.java", 1);
        StackTraceElement app1 = new StackTraceElement("pkg.Box", "get", "Box.java", 12);
        StackTraceElement app2 = new StackTraceElement("pkg.Main", "main", "Main.java", 3);
        StackTraceElement app3 = new StackTraceElement("pkg.Main", "run", "Main.java", 4);
        StackCapture capture = new StackCapture(2, StackCapture.AGENT_PREFIXES);
        assertEquals(List.of(app1, app2), capture.trim(new StackTraceElement[]{agent, hook, app1, app2, app3}));
        assertEquals(List.of(), capture.trim(new StackTraceElement[]{agent}));
        List<StackTraceElement> live = new StackCapture(3, List.of()).capture();
        assertFalse(live.isEmpty());
        assertTrue(live.size() <= 3);
        assertEquals(StackCapture.class.getName(), live.get(0).getClassName());
    }
}
