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
  /** Container → the id of the field first seen holding it. */
  private static final WeakIdentityTable<Integer> HOLDERS = new WeakIdentityTable<>();
  /** Container no field was seen holding → its pseudo-field id, after the method of its first modelled call. */
  private static final WeakIdentityTable<Integer> UNNAMED = new WeakIdentityTable<>();
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
  @DontInline
  public static void inField(Object value, int fieldId) {
    if (value == null || Hooks.installed() == null || !ContainerModel.isModelled(value.getClass())) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      HOLDERS.getOrCreate(value, new java.util.function.Function<Object, Integer>() {
        @Override
        public Integer apply(Object container) {
          return fieldId;
        }
      });
    } catch (Throwable e) {
      Hooks.installed().internalError();
    } finally {
      t.busy = false;
    }
  }

  /** Before a modelled call on {@code receiver}: {@code write} 1 for a mutator, 0 for an accessor. */
  @DontInline
  public static void call(Object receiver, int write, int site) {
    DetectRuntime rt = Hooks.installed();
    if (receiver == null || rt == null || !ContainerModel.isModelled(receiver.getClass())) {
      return;
    }
    int id = pseudoId(rt, receiver, site);
    if (id < 0) {
      return;
    }
    if (write != 0) {
      Hooks.writeField(receiver, id, site);
    } else {
      Hooks.readField(receiver, id, site);
    }
  }

  /** The pseudo-field id of the container (-1 if it cannot be named). */
  private static int pseudoId(DetectRuntime rt, Object container, int site) {
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return -1;
    }
    try {
      Integer holder = HOLDERS.get(container);
      if (holder != null) {
        return BY_HOLDER.get(rt, holder);
      }
      Integer unnamed = UNNAMED.getOrCreate(container, new java.util.function.Function<Object, Integer>() {
        @Override
        public Integer apply(Object c) {
          return unnamedId(rt, site);
        }
      });
      return unnamed;
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
   * ids are kept plus one, so 0 is "not asked yet" (and an id of -1 is asked again).
   */
  private abstract static class IdsByKey {
    private int[] ids = new int[256];
    private FieldRegistry of;

    final synchronized int get(DetectRuntime rt, int key) {
      if (of != rt.fields()) {
        ids = new int[256];
        of = rt.fields();
      }
      if (key >= ids.length) {
        ids = java.util.Arrays.copyOf(ids, Math.max(key + 1, ids.length * 2));
      }
      int known = ids[key];
      if (known != 0) {
        return known - 1;
      }
      int id = compute(rt, key);
      ids[key] = id + 1;
      return id;
    }

    abstract int compute(DetectRuntime rt, int key);
  }
}
