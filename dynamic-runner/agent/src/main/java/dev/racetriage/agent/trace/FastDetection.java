package dev.racetriage.agent.trace;

import dev.racetriage.agent.detect.HSummaryDetector;
import dev.racetriage.agent.detect.LocationState;
import dev.racetriage.agent.detect.RaceKind;
import dev.racetriage.agent.detect.RaceReport;
import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.detect.StackCapture;
import dev.racetriage.agent.hb.ThreadState;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Drives the runtime detector — {@link dev.racetriage.agent.hb.HappensBefore} plus {@link HSummaryDetector} — over a
 * trace, exactly as the runtime hooks would, and collects its races and full reports. Location x is reported under
 * the field key {@code "x<id>"}; the site of event i is registered as line i of {@code Trace.trace}.
 */
public final class FastDetection implements TraceMachine {
    private final TraceThreads hb = new TraceThreads();
    private final SiteTable sites = new SiteTable();
    private final Map<Integer, LocationState> locations = new HashMap<>();
    private final List<TraceRace> races = new ArrayList<>();
    private final List<RaceReport> reports = new ArrayList<>();
    private final HSummaryDetector detector;
    private int currentIndex;
    private int currentLocation;

    public FastDetection() {
        detector = new HSummaryDetector(sites, this::onRace, new StackCapture(0, List.of()));
    }

    private void onRace(RaceReport report) {
        reports.add(report);
        races.add(new TraceRace(currentIndex, currentLocation, report.kind()));
    }

    @Override
    public void apply(int index, Event event) {
        currentIndex = index;
        if (hb.applySync(event)) {
            return;
        }
        if (event instanceof Event.Read e) {
            detector.read(hb.thread(e.thread()), location(e.location()), site(index));
        } else if (event instanceof Event.Write e) {
            detector.write(hb.thread(e.thread()), location(e.location()), site(index));
        } else if (event instanceof Event.New e) {
            for (int x = e.firstLocation(); x < e.firstLocation() + e.count(); x++) {
                detector.instantiate(hb.thread(e.thread()), location(x));
            }
        } else if (event instanceof Event.ClinitWrite e) {
            ThreadState t = hb.thread(e.thread());
            t.enterClinit();
            detector.write(t, location(e.location()), site(index));
            t.exitClinit();
        } else {
            throw new IllegalStateException("unhandled event " + event);
        }
    }

    private LocationState location(int x) {
        currentLocation = x;
        return locations.computeIfAbsent(x, k -> new LocationState("x" + k));
    }

    private int site(int index) {
        return sites.register("Trace", "trace", "Trace.java", index);
    }

    public TraceThreads threads() {
        return hb;
    }

    public HSummaryDetector detector() {
        return detector;
    }

    public LocationState locationState(int x) {
        return location(x);
    }

    public List<TraceRace> races() {
        return List.copyOf(races);
    }

    public List<RaceReport> reports() {
        return List.copyOf(reports);
    }

    /** The kinds of races, for messages. */
    public static String describe(List<TraceRace> races) {
        StringBuilder sb = new StringBuilder();
        for (TraceRace r : races) {
            sb.append(r.kind() == RaceKind.WR ? "WR" : "WW").append(" x").append(r.location()).append(" @")
                    .append(r.eventIndex()).append(' ');
        }
        return sb.toString();
    }
}
