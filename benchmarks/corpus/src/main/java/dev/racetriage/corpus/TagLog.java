package dev.racetriage.corpus;

import java.util.ArrayList;
import java.util.List;

/**
 * Tags appended from worker threads to an unsynchronised list (issue 22: an {@code ArrayList} appended from a pool).
 * Two threads' {@code add}s may both read the same size and store into the same slot: a tag is lost.
 */
public class TagLog {
  private final List<String> tags = new ArrayList<>();

  public void tag(String tag) {
    tags.add(tag);
  }

  public int count() {
    return tags.size();
  }
}
