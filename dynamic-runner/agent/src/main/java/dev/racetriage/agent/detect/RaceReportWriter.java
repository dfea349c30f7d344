package dev.racetriage.agent.detect;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * The lines of the per-run report file (JSON lines): one {@code "type":"race"} line per raced field (an aggregated
 * {@link FieldRaces}), {@code "type":"progress"} lines, and one {@code "type":"summary"} line. In detect mode the file
 * is written while the program runs ({@code runtime.ReportStream}): after the status line, each flush appends the
 * line of every field that first raced or gained a test, site pair or index since the last flush — cumulative, the
 * field's state so far, so a field can have several lines and its last one is its state — and a progress line; the
 * exit appends the lines of the fields counted more since, then the summary. The summary comes last, once, so a
 * reader that finds it knows the file is complete (and each field's last line is then its final state); without it
 * the JVM died, and the lines before (all but a cut last one) are what the agent had found. {@link #write} writes a
 * whole file at once (jumble mode, a run whose agent did not start). Schema (all keys always present; file/line may
 * be null/-1):
 *
 * <pre>
 * {"type":"race","field":"pkg.C.f","count":3,"wr":2,"ww":1,
 *  "current":{"thread":"T1","class":"pkg.C","method":"run","file":"C.java","line":12,"stack":["pkg.C.run(C.java:12)"]},
 *  "previous":{"thread":"T0","class":"pkg.C","method":"init","file":"C.java","line":7,"stack":[]},
 *  "sitePairs":[{"kind":"WR","current":{...site},"previous":{...site}}],"sitePairsTruncated":false,
 *  "tests":["pkg.BoxTest#concurrentGet()"],"indices":[],"indicesTruncated":false}
 * {"type":"race","field":"pkg.Sieve.composite[]",…,"indices":[4,8,9,16],"indicesTruncated":false}
 * {"type":"race","field":"pkg.Cache.map{}",…,"kind":"container",…,"sitePairs":[{"kind":"WR",…}],…}
 * {"type":"progress","classesInstrumented":9,"races":2,"raceReports":14,"internalErrors":0}
 * {"type":"race","field":"pkg.C.f","count":5,…}
 * {"type":"summary","classesInstrumented":12,"classesSkipped":[{"class":"pkg.Big","reason":"method too large"}],
 *  "untrackedArrays":[{"array":"pkg.Grid.cells[]","type":"double","length":5000000,"count":1}],
 *  "predictionEvents":250000,"predictionStoppedAfterEvents":100000,"predictionStops":1,"races":3,"raceReports":17,"internalErrors":0}
 * </pre>
 *
 * {@code indices} lists, for an array key, the distinct element indices that raced — those of WR races first, then
 * those of WW races only, each in order of first report, at most {@link RaceAggregator#MAX_INDICES} — and is empty
 * for a field; {@code indicesTruncated} says more distinct indices raced. The runner jumbles these elements.
 */
public final class RaceReportWriter {
    private RaceReportWriter() {
    }

    public static void write(Writer out, List<FieldRaces> races, long raceReports, RunSummary summary)
            throws IOException {
        for (FieldRaces r : races) {
            out.write(raceLine(r));
            out.write('\n');
        }
        out.write(summaryLine(summary, races.size(), raceReports));
        out.write('\n');
        out.flush();
    }

    public static String raceLine(FieldRaces r) {
        StringBuilder sb = new StringBuilder(512);
        JsonText j = new JsonText(sb).beginObject();
        j.name("type").value("race");
        j.name("field").value(r.fieldKey());
        j.name("count").value(r.count());
        j.name("wr").value(r.countByKind().getOrDefault(RaceKind.WR, 0L));
        j.name("ww").value(r.countByKind().getOrDefault(RaceKind.WW, 0L));
        // a container's contents (pkg.C.map{}: its mutators and accessors, ContainerModel) are their own kind; the
        // site pairs keep which conflict it was (a mutator then an accessor: WR; two mutators: WW)
        j.name("kind").value(r.fieldKey().endsWith("{}") ? "container" : r.first().kind().name());
        if (r.predicted()) { // predict=true: only another schedule exposes it (WcpAnalysis); the witness says which
            j.name("predicted").value(true);
            j.name("witness").value(r.witness());
        }
        j.name("current");
        access(j, r.first().current());
        j.name("previous");
        access(j, r.first().previous());
        j.name("sitePairs").beginArray();
        for (FieldRaces.SitePair p : r.sitePairs()) {
            j.beginObject().name("kind").value(p.kind().name());
            j.name("current");
            site(j, p.current());
            j.name("previous");
            site(j, p.previous());
            j.endObject();
        }
        j.endArray();
        j.name("sitePairsTruncated").value(r.sitePairsTruncated());
        j.name("tests").beginArray();
        for (String t : r.tests()) {
            j.value(t);
        }
        j.endArray();
        j.name("indices").beginArray();
        for (int index : r.indices()) {
            j.value(index);
        }
        j.endArray();
        j.name("indicesTruncated").value(r.indicesTruncated());
        j.endObject();
        return sb.toString();
    }

    /**
     * What a streamed report knew at a flush, for a reader whose JVM was killed before the summary: the classes
     * instrumented so far tell "the agent checked nothing" from "killed early".
     */
    public static String progressLine(long classesInstrumented, long races, long raceReports, long internalErrors) {
        StringBuilder sb = new StringBuilder(128);
        JsonText j = new JsonText(sb).beginObject();
        j.name("type").value("progress");
        j.name("classesInstrumented").value(classesInstrumented);
        j.name("races").value(races);
        j.name("raceReports").value(raceReports);
        j.name("internalErrors").value(internalErrors);
        j.endObject();
        return sb.toString();
    }

    public static String summaryLine(RunSummary s, long races, long raceReports) {
        StringBuilder sb = new StringBuilder(256);
        JsonText j = new JsonText(sb).beginObject();
        j.name("type").value("summary");
        j.name("classesInstrumented").value(s.classesInstrumented());
        j.name("classesSkipped").beginArray();
        for (RunSummary.SkippedClass c : s.skippedClasses()) {
            j.beginObject().name("class").value(c.className()).name("reason").value(c.reason()).endObject();
        }
        j.endArray();
        j.name("untrackedArrays").beginArray();
        for (RunSummary.UntrackedArray a : s.untrackedArrays()) {
            j.beginObject().name("array").value(a.key()).name("type").value(a.type()).name("length").value(a.length())
                .name("count").value(a.count()).endObject();
        }
        j.endArray();
        // predict=true: the events the predictive analyses (one per test) took, after how many one stopped (its
        // budget; 0: none did) and how many stopped: races they would have predicted later are not reported
        j.name("predictionEvents").value(s.predictionEvents());
        j.name("predictionStoppedAfterEvents").value(s.predictionStoppedAfterEvents());
        j.name("predictionStops").value(s.predictionStops());
        j.name("races").value(races);
        j.name("raceReports").value(raceReports);
        j.name("internalErrors").value(s.internalErrors());
        j.endObject();
        return sb.toString();
    }

    private static void access(JsonText j, Access a) {
        j.beginObject().name("thread").value(a.threadName());
        siteMembers(j, a.site());
        j.name("stack").beginArray();
        for (StackTraceElement f : a.stack()) {
            j.value(f.toString());
        }
        j.endArray().endObject();
    }

    private static void site(JsonText j, Site s) {
        j.beginObject();
        siteMembers(j, s);
        j.endObject();
    }

    private static void siteMembers(JsonText j, Site s) {
        j.name("class").value(s.className()).name("method").value(s.methodName()).name("file").value(s.fileName())
                .name("line").value(s.line());
    }
}
