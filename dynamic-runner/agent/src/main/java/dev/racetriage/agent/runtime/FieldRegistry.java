package dev.racetriage.agent.runtime;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Dense int ids for fields, assigned at instrumentation time and baked into the instrumented code, so a hook gets
 * an int instead of a string. The id maps back to the field key ({@code pkg.Outer$Inner.field}) for reports, and
 * indexes the shadow of static fields.
 */
public final class FieldRegistry {
  private final Map<String, Integer> ids = new HashMap<>();
  private volatile String[] keys = new String[256];
  private int size;

  /** The id of the field {@code declaringClass.name} ({@code declaringClass} in internal form), registering it. */
  public synchronized int id(String declaringClassInternal, String name) {
    String key = declaringClassInternal.replace('/', '.') + "." + name;
    Integer known = ids.get(key);
    if (known != null) {
      return known;
    }
    String[] current = keys;
    if (size == current.length) {
      current = Arrays.copyOf(current, size * 2);
    }
    current[size] = key;
    keys = current; // publish after the element is in place
    ids.put(key, size);
    return size++;
  }

  /** The field key of an id ({@code pkg.Cls.f}); {@code "?"} for an id never handed out. */
  public String key(int id) {
    String[] current = keys;
    String key = id >= 0 && id < current.length ? current[id] : null;
    return key == null ? "?" : key;
  }

  public synchronized int size() {
    return size;
  }
}
