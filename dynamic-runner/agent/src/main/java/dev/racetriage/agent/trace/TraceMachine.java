package dev.racetriage.agent.trace;

/** Something a {@link Trace} drives event by event: a detector, an adversarial memory. */
public interface TraceMachine {
    void apply(int index, Event event);
}
