/**
 * Adversarial memory (JUMBLE §4–5): per jumbled location a {@link dev.racetriage.agent.jumble.WriteBuffer} of
 * value@vector-clock entries under the Operational Progressive JMM — rules WRITE, READ, GC1, GC2 and REMOVE OLDEST —
 * and the read heuristics that choose a stale-but-legal value: {@code sc}, {@code oldest},
 * {@code oldest-but-different}, {@code random}, {@code random-but-different}, seeded and replayable, with fairness and
 * non-atomic long/double reads.
 *
 * <h2>Contract for the runtime hooks</h2>
 * <ul>
 * <li>Start of a trial run: {@code new AdversarialMemory(engine, JumbleConfig.of(heuristicName, seed))} — the same
 * {@link dev.racetriage.agent.hb.HappensBefore} engine as detection.</li>
 * <li>First hooked access to a location of a field under trial: {@code memory.newBuffer(fieldKey, kind, currentBits)}
 * ({@code NARROW} for int-like and float bits, {@code WIDE} for long and double bits) or
 * {@code memory.newReferenceBuffer(fieldKey, currentRef)}; keep it in the shadow memory of that location (for arrays:
 * only the sampled indices).</li>
 * <li>Every write: {@code buffer.write(threadState, bits)} / {@code writeRef}; every read: return
 * {@code buffer.read(threadState)} / {@code readRef} to the program instead of the field's value. Writes inside
 * {@code <clinit>} are stamped ⊥.</li>
 * <li>Thread exit, when the runtime sees it: {@code engine.terminated(threadState)} so GC1 stops waiting for it.</li>
 * <li>End of run: {@code memory.stats()} — reads, reads with a choice, stale reads served, writes per field.</li>
 * </ul>
 */
package dev.racetriage.agent.jumble;
