package dev.racetriage.prefilter.rank;

/**
 * One named adjustment of a candidate's confidence, SpotBugs style: what was seen and how much it moved the score
 * (in points out of 100).
 */
public record Reason(String text, int delta) {

  @Override
  public String toString() {
    return text + " (" + (delta >= 0 ? "+" : "") + delta + ")";
  }
}
