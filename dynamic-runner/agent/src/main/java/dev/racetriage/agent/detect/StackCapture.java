package dev.racetriage.agent.detect;

import java.util.ArrayList;
import java.util.List;

/**
 * Takes the short stack of the access that detected a race: {@code new Throwable().getStackTrace()}, minus the leading
 * frames of the agent itself (hooks, detector), capped at a few frames. Only called on the race path.
 */
public final class StackCapture {
    /** The agent packages whose frames sit between the program's access and the capture. */
    public static final List<String> AGENT_PREFIXES = List.of(
            "dev.racetriage.agent.detect.", "dev.racetriage.agent.hb.", "dev.racetriage.agent.runtime.",
            "dev.racetriage.agent.trace.", "dev.racetriage.agent.jumble.");

    private final int maxFrames;
    private final List<String> skippedPrefixes;

    public StackCapture(int maxFrames, List<String> skippedPrefixes) {
        this.maxFrames = Math.max(0, maxFrames);
        this.skippedPrefixes = List.copyOf(skippedPrefixes);
    }

    /** Eight frames, agent frames skipped. */
    public static StackCapture defaults() {
        return new StackCapture(8, AGENT_PREFIXES);
    }

    public List<StackTraceElement> capture() {
        return trim(new Throwable().getStackTrace());
    }

    /** The frames after the leading agent frames, at most {@code maxFrames} of them. */
    List<StackTraceElement> trim(StackTraceElement[] frames) {
        int first = 0;
        while (first < frames.length && isAgentFrame(frames[first])) {
            first++;
        }
        int end = Math.min(frames.length, first + maxFrames);
        List<StackTraceElement> out = new ArrayList<>(Math.max(0, end - first));
        for (int i = first; i < end; i++) {
            out.add(frames[i]);
        }
        return out;
    }

    private boolean isAgentFrame(StackTraceElement frame) {
        String cls = frame.getClassName();
        for (String prefix : skippedPrefixes) {
            if (cls.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
