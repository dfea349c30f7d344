package dev.racetriage.agent.runtime;

import dev.racetriage.agent.jumble.FieldStats;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields under trial in jumble mode, by key, each with a dense slot number that the instrumenter bakes into the
 * hook calls of its accesses (so a hook finds the field's buffers by index, not by name). A key {@code pkg.Cls.f}
 * jumbles the field itself; {@code pkg.Cls.f[]} jumbles the sampled elements of the arrays held in {@code f}.
 */
public final class JumbleTargets {
  private final List<String> keys;

  public JumbleTargets(List<String> keys) {
    this.keys = List.copyOf(keys);
  }

  /** Every key, in slot order. */
  public List<String> keys() {
    return keys;
  }

  public String key(int slot) {
    return keys.get(slot);
  }

  /** Zero counters for every key: the report of a run whose jumble runtime never started. */
  public List<FieldStats> emptyStats() {
    List<FieldStats> out = new ArrayList<>(keys.size());
    for (String key : keys) {
      out.add(new FieldStats(key));
    }
    return out;
  }

  /** The slot of the field {@code name} declared in {@code declaringInternal} ({@code pkg/Cls}), or -1. */
  public int fieldSlot(String declaringInternal, String name) {
    return keys.indexOf(keyOf(declaringInternal, name));
  }

  /** The slot of the elements of the arrays held in that field, or -1. */
  public int arraySlot(String declaringInternal, String name) {
    return keys.indexOf(keyOf(declaringInternal, name) + "[]");
  }

  /** The slot of the container held in that field ({@code pkg.Cls.map{}}, a container race), or -1. */
  public int containerSlot(String declaringInternal, String name) {
    return keys.indexOf(keyOf(declaringInternal, name) + "{}");
  }

  /** The slot of {@code pkg.Cls.method(){}}: a container no field held, named after a method of its calls; or -1. */
  public int unnamedContainerSlot(String classInternal, String method) {
    return keys.indexOf(keyOf(classInternal, method + "()") + "{}");
  }

  /** True iff some key names a container: only then are container calls bracketed ({@link ContainerTrials}). */
  public boolean hasContainers() {
    for (String key : keys) {
      if (key.endsWith("{}")) {
        return true;
      }
    }
    return false;
  }

  /** True iff some key names array elements: only then are array loads and stores instrumented. */
  public boolean hasArrays() {
    for (String key : keys) {
      if (key.endsWith("[]")) {
        return true;
      }
    }
    return false;
  }

  private static String keyOf(String declaringInternal, String name) {
    return declaringInternal.replace('/', '.') + "." + name;
  }
}
