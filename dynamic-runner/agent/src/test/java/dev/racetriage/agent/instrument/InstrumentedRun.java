package dev.racetriage.agent.instrument;

import dev.racetriage.agent.detect.FieldRaces;
import dev.racetriage.agent.detect.RunSummary;
import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.runtime.DetectRuntime;
import dev.racetriage.agent.runtime.FieldRegistry;
import dev.racetriage.agent.runtime.Hooks;
import dev.racetriage.agent.jumble.JumbleConfig;
import dev.racetriage.agent.runtime.JumbleHooks;
import dev.racetriage.agent.runtime.JumbleRuntime;
import dev.racetriage.agent.runtime.JumbleTargets;
import java.util.List;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Set;
import java.util.TreeSet;

/**
 * One detect-mode runtime installed in the hooks, plus a loader that instruments the fixture package with the same
 * site and field tables. Threads are started and joined through {@link #start}/{@link #join}, which do what the
 * agent's instrumented {@code Thread.start}/{@code Thread.join} do (there is no agent in a unit test; the forked-JVM
 * tests cover the real thing).
 */
final class InstrumentedRun implements AutoCloseable {
  static final String FIXTURES = "dev.racetriage.agent.instrument.fixtures.";

  private final DetectRuntime runtime;
  private final InstrumentingLoader loader;
  private final JumbleRuntime jumble;

  InstrumentedRun() {
    this(null, null, new int[0]);
  }

  /**
   * Jumble mode on {@code jumbled} (field keys) when non-null: the loader instruments for jumble mode and a
   * {@link JumbleRuntime} on this run's engine is installed in {@link JumbleHooks}.
   */
  InstrumentedRun(List<String> jumbled, JumbleConfig config, int[] indices) {
    this(jumbled, config, indices, null);
  }

  /**
   * Detect mode, with {@code applicationClass} telling the instrumenter which superclasses are application classes (a
   * subclass of one inherits its shadow slot); null: none is, every class declares its own.
   */
  InstrumentedRun(java.util.function.Predicate<String> applicationClass) {
    this(null, null, new int[0], applicationClass);
  }

  private InstrumentedRun(List<String> jumbled, JumbleConfig config, int[] indices,
                          java.util.function.Predicate<String> applicationClass) {
    SiteTable sites = new SiteTable();
    FieldRegistry fields = new FieldRegistry();
    runtime = new DetectRuntime(sites, fields, new RunSummary(), 4);
    JumbleTargets targets = jumbled == null ? null : new JumbleTargets(jumbled);
    loader = new InstrumentingLoader(getClass().getClassLoader(), FIXTURES,
        applicationClass == null ? new ClassInstrumenter(sites, fields, targets, null)
            : new ClassInstrumenter(sites, fields, targets, null, applicationClass));
    jumble = targets == null ? null : new JumbleRuntime(runtime, targets, config, indices, null);
    Hooks.install(runtime);
    JumbleHooks.install(jumble);
  }

  JumbleRuntime jumble() {
    return jumble;
  }

  Class<?> load(Class<?> fixture) throws ClassNotFoundException {
    return loader.loadClass(fixture.getName());
  }

  /** A fresh, uninstrumented copy of the fixture (its own static state), to compare with. */
  Class<?> loadPlain(Class<?> fixture) throws ClassNotFoundException {
    return new InstrumentingLoader(getClass().getClassLoader(), FIXTURES, null).loadClass(fixture.getName());
  }

  static Object call(Class<?> owner, String method, Object... args) throws Throwable {
    for (Method m : owner.getDeclaredMethods()) {
      if (m.getName().equals(method) && m.getParameterCount() == args.length) {
        m.setAccessible(true);
        try {
          return m.invoke(null, args);
        } catch (InvocationTargetException e) {
          throw e.getCause();
        }
      }
    }
    throw new NoSuchMethodException(owner.getName() + "." + method);
  }

  Thread start(ThrowingRunnable body) {
    Thread t = new Thread(() -> {
      try {
        body.run();
      } catch (Throwable e) {
        // expected by some fixtures (they leave monitors by exceptions); the trace is what is checked
      }
    });
    Hooks.threadStarting(t);
    t.start();
    return t;
  }

  void join(Thread t) throws InterruptedException {
    t.join();
    Hooks.joinReturned(t);
  }

  /** Waits for a thread to end without creating a happens-before edge (Thread.getState is not a hook). */
  static void awaitEndWithoutEdge(Thread t) {
    while (t.getState() != Thread.State.TERMINATED) {
      Thread.onSpinWait();
    }
  }

  Set<String> racyFields() {
    Set<String> keys = new TreeSet<>();
    for (FieldRaces r : runtime.aggregator().fields()) {
      keys.add(r.fieldKey());
    }
    return keys;
  }

  /** Everything reported on field key {@code key}, or null if it did not race. */
  FieldRaces races(String key) {
    for (FieldRaces r : runtime.aggregator().fields()) {
      if (r.fieldKey().equals(key)) {
        return r;
      }
    }
    return null;
  }

  long internalErrors() {
    return runtime.summary().internalErrors() + runtime.detector().internalErrors();
  }

  @Override
  public void close() {
    Hooks.install(null);
    JumbleHooks.install(null);
  }

  interface ThrowingRunnable {
    void run() throws Throwable;
  }
}
