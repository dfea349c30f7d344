package dev.racetriage.prefilter.rank;

import java.util.ArrayList;
import java.util.List;

/** A base priority adjusted by named reasons, kept between 5 and 95: the prefilter is never certain either way. */
public final class Confidence {

  public static final int BASE = 50;

  private final List<Reason> reasons = new ArrayList<>();

  public Confidence add(String text, int delta) {
    reasons.add(new Reason(text, delta));
    return this;
  }

  public List<Reason> reasons() {
    return List.copyOf(reasons);
  }

  public double value() {
    int score = BASE;
    for (Reason reason : reasons) {
      score += reason.delta();
    }
    return Math.max(5, Math.min(95, score)) / 100.0;
  }
}
