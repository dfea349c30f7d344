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
  /** Holder field id → its container pseudo-field id ({@code pkg.Cls.cache{}}), 0 when not registered yet. */
  private static int[] pseudoIds = new int[256];
  /** The registry {@link #pseudoIds} belongs to (tests install a new runtime per run). */
  private static FieldRegistry pseudoIdsOf;

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
        return pseudoIdOf(rt.fields(), holder);
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
    return unnamedIdOf(rt, site);
  }

  /** Per site, 1 + the pseudo-field id of the unnamed containers first seen there (0: not yet asked). */
  private static int[] unnamedIds = new int[256];
  private static FieldRegistry unnamedIdsOf;

  /** The pseudo-field id of a site's method, looked up once per site (a new container per call is common). */
  private static synchronized int unnamedIdOf(DetectRuntime rt, int site) {
    if (unnamedIdsOf != rt.fields()) {
      unnamedIds = new int[256];
      unnamedIdsOf = rt.fields();
    }
    if (site >= unnamedIds.length) {
      unnamedIds = java.util.Arrays.copyOf(unnamedIds, Math.max(site + 1, unnamedIds.length * 2));
    }
    int known = unnamedIds[site];
    if (known != 0) {
      return known - 1;
    }
    dev.racetriage.agent.detect.Site where = rt.sites().site(site);
    int id = rt.fields().id(where.className().replace('.', '/'), where.methodName() + "(){}");
    unnamedIds[site] = id + 1;
    return id;
  }

  private static synchronized int pseudoIdOf(FieldRegistry fields, int holder) {
    if (pseudoIdsOf != fields) {
      pseudoIds = new int[256];
      pseudoIdsOf = fields;
    }
    if (holder >= pseudoIds.length) {
      pseudoIds = java.util.Arrays.copyOf(pseudoIds, Math.max(holder + 1, pseudoIds.length * 2));
    }
    int known = pseudoIds[holder];
    if (known != 0) {
      return known - 1;
    }
    String key = fields.key(holder);
    int dot = key.lastIndexOf('.');
    if (dot <= 0) {
      return -1; // an id this registry never handed out
    }
    int id = fields.id(key.substring(0, dot).replace('.', '/'), key.substring(dot + 1) + "{}");
    pseudoIds[holder] = id + 1;
    return id;
  }
}
