package dev.racetriage.agent.detect;

import java.util.List;

/**
 * One side of a race: who accessed, where, and (for the access that detected the race) a short stack.
 *
 * @param threadName the accessing thread's name
 * @param site the instrumented access site ({@link Site#UNKNOWN} when not registered)
 * @param stack the innermost program frames, agent frames dropped; empty for the earlier access, whose stack is
 *              not recorded (recording one per write would cost an allocation per write)
 */
public record Access(String threadName, Site site, List<StackTraceElement> stack) {
    public Access {
        stack = List.copyOf(stack);
    }
}
