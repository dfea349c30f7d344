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
  private volatile String[] arrayKeys = new String[256];

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

  /**
   * The key of the arrays held by field {@code id} ({@code pkg.Cls.slots[]}), built once per field: every array
   * stored in or loaded from the field is named by it, and a string per array was a string per array's shadow.
   */
  public String arrayKey(int id) {
    if (id < 0) {
      return key(id) + "[]";
    }
    String[] known = arrayKeys;
    String key = id < known.length ? known[id] : null;
    if (key == null) {
      key = key(id) + "[]";
      synchronized (this) {
        known = arrayKeys;
        if (id >= known.length) {
          known = Arrays.copyOf(known, Math.max(id + 1, known.length * 2));
        }
        known[id] = key;
        arrayKeys = known; // publish after the element is in place
      }
    }
    return key;
  }

  public synchronized int size() {
    return size;
  }
}
