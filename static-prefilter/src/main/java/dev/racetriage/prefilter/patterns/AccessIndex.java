package dev.racetriage.prefilter.patterns;

import dev.racetriage.prefilter.facts.AccessKind;
import dev.racetriage.prefilter.facts.Access;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jdt.core.dom.ASTNode;

/** The field accesses of one unit by position, so a detector can ask what a statement reads and writes. */
public final class AccessIndex {

  private final List<Access> byOffset;

  public AccessIndex(List<Access> accesses) {
    byOffset = new ArrayList<>(accesses);
    byOffset.sort(Comparator.comparingInt(Access::offset));
  }

  /** The accesses inside {@code node}, in source order. */
  public List<Access> within(ASTNode node) {
    if (node == null) {
      return List.of();
    }
    int start = node.getStartPosition();
    int end = start + node.getLength();
    int low = 0;
    int high = byOffset.size();
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (byOffset.get(mid).offset() < start) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    List<Access> found = new ArrayList<>();
    for (int i = low; i < byOffset.size() && byOffset.get(i).offset() < end; i++) {
      found.add(byOffset.get(i));
    }
    return found;
  }

  /** Fields read, without any lock held, inside {@code node}. */
  public Set<String> unlockedReads(ASTNode node) {
    return keys(node, AccessKind.READ, true);
  }

  /** Fields written inside {@code node}; {@code unlockedOnly} keeps those written with no lock held. */
  public Set<String> writes(ASTNode node, boolean unlockedOnly) {
    return keys(node, AccessKind.WRITE, unlockedOnly);
  }

  public List<Access> all() {
    return byOffset;
  }

  private Set<String> keys(ASTNode node, AccessKind kind, boolean unlockedOnly) {
    Set<String> keys = new TreeSet<>();
    for (Access access : within(node)) {
      if (access.kind() == kind && (!unlockedOnly || access.locks().isEmpty())) {
        keys.add(access.fieldKey());
      }
    }
    return keys;
  }
}
