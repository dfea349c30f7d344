package dev.racetriage.agent.runtime;

import dev.racetriage.agent.instrument.ContainerModel;
import jdk.internal.vm.annotation.DontInline;

/**
 * Container calls at application call sites ({@code ContainerModel}): a mutator is a write and an accessor a read of
 * one pseudo-location of the receiver, checked by {@link Hooks#readField}/{@link Hooks#writeField} under a field id
 * of its own, {@code pkg.Cls.cache{}} after the field first seen holding the container ({@link #inField}), or, for
 * a container no field was seen holding (a local two lambdas capture), {@code pkg.Cls.method(){}} after the method of
 * its first modelled call (as an unnamed array is keyed {@code pkg.Cls.method()[]}).
 */
public final class ContainerHooks {
  /** Holder field id → its container pseudo-field id, {@code pkg.Cls.cache{}}. */
  private static final IdsByKey BY_HOLDER = new IdsByKey() {
    @Override
    int compute(DetectRuntime rt, int holder) {
      String key = rt.fields().key(holder);
      int dot = key.lastIndexOf('.');
      if (dot <= 0) {
        return -1; // an id this registry never handed out
      }
      return rt.fields().id(key.substring(0, dot).replace('.', '/'), key.substring(dot + 1) + "{}");
    }
  };
  /**
   * Site → the pseudo-field id of the unnamed containers first seen there, {@code pkg.Cls.method(){}}: looked up once
   * per site (a new container per call is common).
   */
  private static final IdsByKey BY_SITE = new IdsByKey() {
    @Override
    int compute(DetectRuntime rt, int site) {
      dev.racetriage.agent.detect.Site where = rt.sites().site(site);
      return rt.fields().id(where.className().replace('.', '/'), where.methodName() + "(){}");
    }
  };

  private ContainerHooks() {
  }

  /** A field of a container type was read or written with {@code value}: name the container after it. */
  public static void inField(Object value, int fieldId) {
    inField(value, fieldId, null);
  }

  /**
   * As {@link #inField(Object, int)}, with the calling method's thread slot (see {@code Hooks.readField}): returns
   * the thread's shadow for the slot, or {@code thread} as given.
   */
  @DontInline
  public static ThreadShadow inField(Object value, int fieldId, ThreadShadow thread) {
    DetectRuntime rt = Hooks.installed();
    if (value == null || rt == null) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    // a container this thread met in a field has its holder (set once): nothing to do
    if (t.busy || t.heldContainerId(value, rt) >= 0 || !ContainerModel.isModelled(value.getClass())) {
      return t;
    }
    t.busy = true;
    try {
      WeakIdentityTable.Entry<ObjectShadow> e = rt.containerEntry(t, value);
      ObjectShadow.ContainerShadow c = containerShadow(rt, t, value, e);
      if (c != null) {
        int id = BY_HOLDER.get(rt, c.hold(fieldId));
        if (e != null) {
          t.cacheHeldContainer(e, id, rt);
        }
      }
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
    return t;
  }

  /**
   * The container's shadow, where its names live ({@link ObjectShadow.ContainerShadow}): {@code e}'s if its class has
   * no slot, else its slot's. Every modelled container's shadow is one; null (counted as an internal error, so never
   * silent) if not.
   */
  private static ObjectShadow.ContainerShadow containerShadow(DetectRuntime rt, ThreadShadow t, Object container,
                                                              WeakIdentityTable.Entry<ObjectShadow> e) {
    ObjectShadow s = e != null ? e.value : rt.containerShadow(t, container);
    if (s instanceof ObjectShadow.ContainerShadow c) {
      return c;
    }
    rt.internalError();
    return null;
  }

  /** Before a modelled call on {@code receiver}: {@code write} 1 for a mutator, 0 for an accessor. */
  public static void call(Object receiver, int write, int site) {
    call(receiver, write, site, null);
  }

  /** As {@link #call(Object, int, int)}, with the calling method's thread slot, as {@link #inField} takes it. */
  @DontInline
  public static ThreadShadow call(Object receiver, int write, int site, ThreadShadow thread) {
    DetectRuntime rt = Hooks.installed();
    if (receiver == null || rt == null) {
      return thread;
    }
    ThreadShadow t = thread != null ? thread : ThreadShadow.current();
    int id = pseudoId(rt, t, receiver, site);
    if (id < 0) {
      return t;
    }
    return write != 0 ? Hooks.writeField(receiver, id, site, t) : Hooks.readField(receiver, id, site, t);
  }

  /**
   * The pseudo-field id of the container (-1 if it cannot be named, or if it is not a modelled container: a held
   * container this thread cached is one).
   */
  private static int pseudoId(DetectRuntime rt, ThreadShadow t, Object container, int site) {
    if (t.busy) {
      return -1;
    }
    int held = t.heldContainerId(container, rt);
    if (held >= 0) {
      return held;
    }
    if (!ContainerModel.isModelled(container.getClass())) {
      return -1;
    }
    t.busy = true;
    try {
      WeakIdentityTable.Entry<ObjectShadow> e = rt.containerEntry(t, container);
      ObjectShadow.ContainerShadow c = containerShadow(rt, t, container, e);
      if (c == null) {
        return -1;
      }
      int holder = c.holder();
      if (holder >= 0) {
        int id = BY_HOLDER.get(rt, holder);
        if (e != null) {
          t.cacheHeldContainer(e, id, rt);
        }
        return id;
      }
      return c.hasUnnamed() ? c.unnamed() : c.nameUnnamed(unnamedId(rt, site));
    } catch (Throwable e) {
      rt.internalError();
      return -1;
    } finally {
      t.busy = false;
    }
  }

  /** {@code pkg.Cls.method(){}} for the method of {@code site}; -1 for a site the table does not know. */
  private static int unnamedId(DetectRuntime rt, int site) {
    if (site < 0 || site >= rt.sites().size()) {
      return -1;
    }
    return BY_SITE.get(rt, site);
  }

  /**
   * An int key → pseudo-field id table of one registry (tests install a new runtime per run), filled on first use;
   * ids are kept plus one, so 0 is "not asked yet" (and an id of -1 is asked again). Reads take no lock: the table
   * and its registry are published together (final fields), and an entry is a whole int, written once with the same
   * value by whichever thread computes it first; a racing reader that sees 0 asks again under the lock.
   */
  private abstract static class IdsByKey {
    private static final class Table {
      final FieldRegistry of;
      final int[] ids;

      Table(FieldRegistry of, int[] ids) {
        this.of = of;
        this.ids = ids;
      }
    }

    private Table table = new Table(null, new int[0]);

    final int get(DetectRuntime rt, int key) {
      Table t = table;
      if (t.of == rt.fields() && key >= 0 && key < t.ids.length) {
        int known = t.ids[key];
        if (known != 0) {
          return known - 1;
        }
      }
      return miss(rt, key);
    }

    private synchronized int miss(DetectRuntime rt, int key) {
      Table t = table;
      if (t.of != rt.fields()) {
        t = new Table(rt.fields(), new int[256]);
      }
      if (key >= t.ids.length) {
        t = new Table(t.of, java.util.Arrays.copyOf(t.ids, Math.max(key + 1, t.ids.length * 2)));
      }
      table = t;
      int known = t.ids[key];
      if (known != 0) {
        return known - 1;
      }
      int id = compute(rt, key);
      t.ids[key] = id + 1;
      return id;
    }

    abstract int compute(DetectRuntime rt, int key);
  }
}
