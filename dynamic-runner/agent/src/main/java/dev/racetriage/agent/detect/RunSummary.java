package dev.racetriage.agent.detect;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the runtime did in one run, for the summary record of the report file: classes instrumented, classes left
 * alone with the reason (ARCHITECTURE: reported loudly, so that a run that instrumented nothing never passes as "no
 * races"), and internal errors. Filled by the runtime from many threads; one monitor.
 */
public final class RunSummary {
    /** A class the instrumenter could not or would not instrument. */
    public record SkippedClass(String className, String reason) {
    }

    /** An array too long to check element by element: its key, element type and length, and how many such arrays. */
    public record UntrackedArray(String key, String type, long length, long count) {
    }

    /** At most this many distinct keys are named; the status line's count covers the rest. */
    static final int MAX_UNTRACKED_NAMED = 32;

    private final Map<String, UntrackedArray> untracked = new LinkedHashMap<>();
    private long classesInstrumented;
    private final Map<String, String> skipped = new LinkedHashMap<>();
    private long internalErrors;
    private long predictionEvents;
    private long predictionStoppedAfterEvents;
    private long predictionStops;

    public synchronized void classInstrumented() {
        classesInstrumented++;
    }

    /** Records why a class was left alone; the first reason for a class wins. */
    public synchronized void classSkipped(String className, String reason) {
        skipped.putIfAbsent(className, reason);
    }

    public synchronized void internalError() {
        internalErrors++;
    }

    public synchronized long classesInstrumented() {
        return classesInstrumented;
    }

    public synchronized List<SkippedClass> skippedClasses() {
        List<SkippedClass> out = new ArrayList<>(skipped.size());
        for (Map.Entry<String, String> e : skipped.entrySet()) { // no lambda: linked at exit, in the report
            out.add(new SkippedClass(e.getKey(), e.getValue()));
        }
        return out;
    }

    /** Names an array left unchecked (first {@link #MAX_UNTRACKED_NAMED} keys; the longest length per key). */
    public synchronized void untrackedArray(String key, String type, long length) {
        UntrackedArray seen = untracked.get(key);
        if (seen != null) {
            untracked.put(key, new UntrackedArray(key, type, Math.max(length, seen.length()), seen.count() + 1));
        } else if (untracked.size() < MAX_UNTRACKED_NAMED) {
            untracked.put(key, new UntrackedArray(key, type, length, 1));
        }
    }

    public synchronized List<UntrackedArray> untrackedArrays() {
        return new ArrayList<>(untracked.values());
    }

    /** A predictive analysis (predict=true; one per test) spent its budget: it took {@code events} events and stopped. */
    public synchronized void predictionStopped(long events) {
        predictionStoppedAfterEvents = Math.max(predictionStoppedAfterEvents, events);
        predictionStops++;
    }

    /** At exit, the events every predictive analysis of the run took. */
    public synchronized void predictionEvents(long events) {
        predictionEvents = events;
    }

    /** How many predictive analyses (one per test, or one for the run) spent their budget and stopped. */
    public synchronized long predictionStops() {
        return predictionStops;
    }

    /** Events the predictive analysis took (0: predict=false, or none recorded yet). */
    public synchronized long predictionEvents() {
        return predictionEvents;
    }

    /** After how many events the predictive analysis stopped (its budget); 0 if it did not stop. */
    public synchronized long predictionStoppedAfterEvents() {
        return predictionStoppedAfterEvents;
    }

    public synchronized long internalErrors() {
        return internalErrors;
    }
}
