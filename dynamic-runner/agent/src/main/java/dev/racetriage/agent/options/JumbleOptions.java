package dev.racetriage.agent.options;

import java.util.List;

/**
 * The adversarial-memory part of the agent argument ({@code mode=jumble;field=…;heuristic=…;seed=…}).
 *
 * @param fields    the jumbled field keys: {@code pkg.Cls.f} for a field, {@code pkg.Cls.slots[]} for the sampled
 *                  elements of the arrays held in {@code slots}
 * @param heuristic the read heuristic ({@code sc}, {@code oldest}, {@code oldest-but-different}, {@code random},
 *                  {@code random-but-different})
 * @param seed      the run's seed: the same seed and schedule make the same choices
 * @param bound     the write buffer size at which REMOVE OLDEST applies (JUMBLE §5.2: 32)
 * @param indices   the array elements sampled in each jumbled array (JUMBLE §6: 0 and 1)
 * @param noise     seeded Thread.yield / short parks at jumbled accesses, to vary the schedule
 */
public record JumbleOptions(List<String> fields, String heuristic, long seed, int bound, List<Integer> indices,
                            boolean noise) {
  public static final int DEFAULT_BOUND = 32;
  public static final List<Integer> DEFAULT_INDICES = List.of(0, 1);

  public JumbleOptions {
    fields = List.copyOf(fields);
    indices = List.copyOf(indices);
  }
}
