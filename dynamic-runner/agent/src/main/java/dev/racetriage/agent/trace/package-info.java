/**
 * Program traces (JUMBLE Figure 3 plus the JRF actions) and the machines that interpret them: the literal h-summary
 * ({@link dev.racetriage.agent.trace.ReferenceDetection}), the runtime detector
 * ({@link dev.racetriage.agent.trace.FastDetection}) and, later, adversarial memory. Used by tests to check the
 * runtime forms against their specifications event by event.
 */
package dev.racetriage.agent.trace;
