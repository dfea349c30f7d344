package dev.racetriage.agent;

import dev.racetriage.agent.detect.RaceAggregator;
import dev.racetriage.agent.detect.RunSummary;
import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.instrument.ClassFilter;
import dev.racetriage.agent.instrument.ClassInstrumenter;
import dev.racetriage.agent.instrument.ClassKind;
import dev.racetriage.agent.instrument.InstrumentedClassCache;
import dev.racetriage.agent.instrument.InstrumentingTransformer;
import dev.racetriage.agent.jumble.JumbleConfig;
import dev.racetriage.agent.jumble.ReadHeuristics;
import dev.racetriage.agent.options.AgentOptions;
import dev.racetriage.agent.options.AgentOptionsParser;
import dev.racetriage.agent.options.InvalidAgentOptionException;
import dev.racetriage.agent.options.JumbleOptions;
import dev.racetriage.agent.runtime.DetectRuntime;
import dev.racetriage.agent.runtime.FieldRegistry;
import dev.racetriage.agent.runtime.BulkHooks;
import dev.racetriage.agent.runtime.ContainerHooks;
import dev.racetriage.agent.runtime.HookEntry;
import dev.racetriage.agent.runtime.Hooks;
import dev.racetriage.agent.runtime.LockContracts;
import dev.racetriage.agent.runtime.JumbleHooks;
import dev.racetriage.agent.runtime.JumbleRuntime;
import dev.racetriage.agent.runtime.JumbleTargets;
import dev.racetriage.agent.runtime.ReportStream;
import dev.racetriage.agent.runtime.ScheduleNoise;
import dev.racetriage.agent.runtime.RunReport;
import dev.racetriage.agent.runtime.ThreadShadow;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts detect or jumble mode inside the JVM (loaded from the boot class path, see {@link AgentMain}): parses the options,
 * installs the transformer, retransforms the JDK classes that were loaded before the agent (java.util.concurrent,
 * java.lang.Thread), installs the hooks and arranges for the report to be written: in detect mode while the program
 * runs ({@link ReportStream}, flushed by a daemon thread every {@code flush=} milliseconds and on the launcher's
 * request) and completed at exit; in jumble mode at exit. Jumble mode runs the same
 * synchronisation hooks into the same happens-before engine, and adds the {@link JumbleRuntime} behind the hooks of
 * the fields under trial.
 */
public final class AgentBootstrap {
  private static final PrintStream ERR = System.err;

  private AgentBootstrap() {
  }

  public static void start(String argument, Instrumentation inst) {
    start(argument, inst, null);
  }

  /**
   * @param agentJar the agent jar's path, which the class cache's identity is derived from; null (running from a
   *                 classes directory) disables the cache
   */
  public static void start(String argument, Instrumentation inst, String agentJar) {
    AgentOptions options;
    try {
      options = AgentOptionsParser.parse(argument);
    } catch (InvalidAgentOptionException e) {
      ERR.println("racetriage agent: ERROR: " + e.getMessage() + " in -javaagent argument '" + argument
          + "'. The program runs uninstrumented and the run is reported as an error.");
      RunSummary empty = new RunSummary();
      reportAtExit(Path.of(outOrDefault(argument)), empty, new RaceAggregator(),
          "invalid agent options: " + e.getMessage() + "; the program ran uninstrumented",
          new TransformTally(empty, ERR), null, null, null);
      return;
    }
    try {
      install(options, inst, agentJar);
    } catch (Throwable e) {
      ERR.println("racetriage agent: ERROR: could not start (" + e + "). The program runs uninstrumented.");
      RunSummary empty = new RunSummary();
      reportAtExit(Path.of(options.out()), empty, new RaceAggregator(),
          "the agent could not start (" + e + "); the program ran uninstrumented", new TransformTally(empty, ERR),
          options.jumble(), null, null);
    }
  }

  private static void install(AgentOptions options, Instrumentation inst, String agentJar) throws IOException {
    long started = System.nanoTime();
    RunSummary summary = new RunSummary();
    SiteTable sites = new SiteTable();
    FieldRegistry fields = new FieldRegistry();
    DetectRuntime runtime = new DetectRuntime(sites, fields, summary, options.stackDepth(),
        options.maxArrayElements());
    dev.racetriage.agent.instrument.ContainerModel.enable(options.jumble() == null && options.containers());
    if (options.predict()) {
      runtime.enablePredictions(options.predictEvents());
      dev.racetriage.agent.instrument.TransparentSections.enable();
    }
    TransformTally tally = new TransformTally(summary, ERR);
    ClassFilter filter = new ClassFilter(options.includes(), options.excludes());
    JumbleOptions jumbleOptions = options.jumble();
    JumbleTargets targets = jumbleOptions == null ? null : new JumbleTargets(jumbleOptions.fields());
    JumbleRuntime jumble = jumbleOptions == null ? null : jumbleRuntime(runtime, targets, jumbleOptions);
    InstrumentedClassCache cache = ClassCacheLocation.open(options, agentJar, ERR);
    ClassInstrumenter instrumenter = new ClassInstrumenter(sites, fields, targets, cache,
        new java.util.function.Predicate<String>() { // not a lambda: see the class comment on start-up
          @Override
          public boolean test(String superName) {
            return filter.kindOf(superName) == ClassKind.APPLICATION;
          }
        });
    InstrumentingTransformer transformer = new InstrumentingTransformer(filter, instrumenter, tally,
        options.dumpDir() == null ? null : Path.of(options.dumpDir()));
    warmUp(runtime);
    if (jumbleOptions != null) {
      warmUp(jumbleRuntime(runtime, targets, jumbleOptions)); // a throwaway: its counters must not reach the report
    }
    warmUp(filter, instrumenter);
    // opened before any class is instrumented: a report file that cannot be created is a start-up failure
    ReportStream stream = jumbleOptions != null ? null : openStream(options, runtime, summary, tally);
    long warm = System.nanoTime();
    inst.addTransformer(transformer, true);
    int retransformed = retransformLoaded(inst, filter, tally);
    Hooks.install(runtime);
    JumbleHooks.install(jumble);
    reportAtExit(Path.of(options.out()), summary, runtime.aggregator(), null, tally, jumbleOptions, jumble, stream);
    if (stream != null) {
      stream.startFlushing(options.flushMillis());
    }
    if (options.verbose()) {
      long done = System.nanoTime();
      ERR.println("racetriage agent: " + options.mode() + " mode, report " + Path.of(options.out()).toAbsolutePath()
          + "; started in " + (done - started) / 1_000_000 + " ms (warm-up " + (warm - started) / 1_000_000
          + " ms, " + retransformed + " loaded JDK classes retransformed in " + (done - warm) / 1_000_000 + " ms)"
          + ClassCacheLocation.describe(cache));
      if (cache != null) {
        Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() { // not a lambda: see reportAtExit
          @Override
          public void run() {
            ERR.println("racetriage agent: at exit" + ClassCacheLocation.describe(cache));
          }
        }, "racetriage-cache-summary"));
      }
    }
  }

  /** The detect-mode report, opened with the running status line (the file a killed JVM leaves starts with it). */
  private static ReportStream openStream(AgentOptions options, DetectRuntime runtime, RunSummary summary,
                                         TransformTally tally) throws IOException {
    ThreadShadow thread = ThreadShadow.current();
    boolean previous = thread.enterAgent();
    try {
      return ReportStream.open(Path.of(options.out()), runtime.aggregator(), summary, tally.trustedJdkClasses(), ERR);
    } catch (IOException e) {
      throw new IOException("cannot create the report file " + Path.of(options.out()).toAbsolutePath() + ": " + e, e);
    } finally {
      thread.exitAgent(previous);
    }
  }

  /**
   * Runs every hook path once on agent-private objects before the hooks go live, so the classes they use are
   * loaded and initialised outside of any program event.
   */
  private static void warmUp(DetectRuntime runtime) {
    Object lock = new Object();
    int[] array = new int[1];
    Hooks.install(runtime);
    try {
      Hooks.monitorEnter(lock);
      Hooks.monitorExit(lock);
      Hooks.monitorEnterTransparent(lock);
      Hooks.monitorExit(lock);
      Hooks.volatileWrite(lock, 0);
      Hooks.volatileRead(lock, 0);
      Hooks.writeField(lock, 0, -1);
      Hooks.readField(lock, 0, -1);
      Hooks.arrayInField(array, 0);
      Hooks.writeElement(array, 0, -1);
      Hooks.writeRange(array, 0, 1, -1);
      Hooks.readRange(array, 0, 1, -1);
      BulkHooks.writeRange(array, 0, 1, -1);
      BulkHooks.writeAll(array, -1);
      BulkHooks.arraycopy(array, 0, array, 0, 1, -1);
      LockContracts.readAcquiring();
      LockContracts.readAcquired(true, lock);
      LockContracts.readReleasing(lock);
      LockContracts.readReleased();
      LockContracts.writeAcquired(true, lock);
      ContainerHooks.inField(new java.util.ArrayList<Object>(), 0); // loads the naming path (a garbage entry)
      ContainerHooks.call(lock, 0, -1);
      Hooks.readElement(array, 0, -1);
      Hooks.trustedReferenceRead(lock, null);
      Hooks.atomicBefore(lock, lock, Hooks.SYNC_RELEASE | Hooks.SYNC_ACQUIRE);
      Hooks.atomicAfter(lock, lock, Hooks.SYNC_RELEASE | Hooks.SYNC_ACQUIRE);
      Hooks.clinitEnter();
      Hooks.clinitExit();
      HookEntry.readElement(array, 0, -1, null); // loads the element hooks' forwarders, which instrumented code calls
      HookEntry.writeElement(array, 0, -1, null);
      HookEntry.readElements(array, 0, 1, -1, null);
      HookEntry.writeElements(array, 0, 1, -1, null);
    } finally {
      Hooks.install(null);
    }
  }

  private static JumbleRuntime jumbleRuntime(DetectRuntime runtime, JumbleTargets targets, JumbleOptions options) {
    JumbleConfig config = new JumbleConfig(
        ReadHeuristics.byName(dev.racetriage.agent.runtime.ContainerTrials.memoryHeuristic(options.heuristic())),
        options.seed(), options.bound(), JumbleConfig.DEFAULT_FAIRNESS_LIMIT, true);
    int[] indices = options.indices().stream().mapToInt(Integer::intValue).toArray();
    return new JumbleRuntime(runtime, targets, config, indices,
        options.noise() ? new ScheduleNoise(options.seed()) : null).startedAs(options.heuristic());
  }

  /** Runs every jumble hook once on agent-private objects (slot 0), like {@link #warmUp(DetectRuntime)}. */
  private static void warmUp(JumbleRuntime jumble) {
    Object holder = new Object();
    int[] ints = new int[1];
    long[] longs = new long[1];
    JumbleHooks.install(jumble);
    try {
      JumbleHooks.writeInt(holder, 0, 1, 0);
      JumbleHooks.readInt(holder, 1, 0);
      JumbleHooks.writeRef(null, null, holder, 0);
      JumbleHooks.readRef(null, holder, 0);
      JumbleHooks.arrayInField(ints, 0);
      JumbleHooks.arrayInField(longs, 0);
      JumbleHooks.writeElementInt(ints, 0, 0, 1);
      JumbleHooks.readElementInt(ints, 0, 1);
      JumbleHooks.writeElementLong(longs, 0, 0, 1);
      JumbleHooks.readElementLong(longs, 0, 1);
    } finally {
      JumbleHooks.install(null);
    }
  }

  /** Loads every class the transformer needs by instrumenting a sample (see {@code WarmUpSample}). */
  private static void warmUp(ClassFilter filter, ClassInstrumenter instrumenter) throws IOException {
    ThreadShadow thread = ThreadShadow.current();
    boolean previous = thread.enterAgent();
    try (InputStream in = AgentBootstrap.class.getResourceAsStream(
        "/dev/racetriage/agent/instrument/WarmUpSample.class")) {
      if (in == null) {
        throw new IOException("the agent jar lacks dev/racetriage/agent/instrument/WarmUpSample.class");
      }
      byte[] sample = in.readAllBytes();
      filter.kindOf("java/lang/Thread");
      filter.kindOf("java/util/concurrent/ConcurrentHashMap");
      filter.kindOf("warm/Up");
      ClassInstrumenter.Outcome outcome = instrumenter.instrument(ClassKind.APPLICATION, null, sample);
      if (outcome.bytes() == null) {
        throw new IOException("the agent cannot instrument its own sample: " + outcome.skipReason());
      }
      instrumenter.instrument(ClassKind.TRUSTED_JDK, null, sample);
      // a read-lock view loads the read-lock contract's instrumentation (instrument.LockContracts) here too
      try (InputStream readLock = ClassLoader.getSystemResourceAsStream(
          "java/util/concurrent/locks/ReentrantReadWriteLock$ReadLock.class")) {
        if (readLock != null) {
          instrumenter.instrument(ClassKind.TRUSTED_JDK, null, readLock.readAllBytes());
        }
      }
    } finally {
      thread.exitAgent(previous);
    }
  }

  /** Retransforms the trusted JDK classes (and Thread) loaded before the agent; returns how many. */
  private static int retransformLoaded(Instrumentation inst, ClassFilter filter, TransformTally listener) {
    List<Class<?>> targets = new ArrayList<>();
    for (Class<?> c : inst.getAllLoadedClasses()) {
      ClassKind kind = filter.kindOf(c.getName().replace('.', '/'));
      if (kind != ClassKind.IGNORED && !c.isArray() && inst.isModifiableClass(c)) {
        targets.add(c);
      }
    }
    ThreadShadow thread = ThreadShadow.current();
    boolean previous = thread.enterAgent();
    try {
      inst.retransformClasses(targets.toArray(new Class<?>[0]));
    } catch (Throwable batchFailure) {
      for (Class<?> c : targets) { // find the one that failed; keep the others
        try {
          inst.retransformClasses(c);
        } catch (Throwable e) {
          listener.skipped(c.getName(), "retransformation failed: " + e);
        }
      }
    } finally {
      thread.exitAgent(previous);
    }
    return targets.size();
  }

  /**
   * @param jumbleOptions the jumble settings when the argument asked for jumble mode (null: detect mode)
   * @param jumble        the running jumble runtime, or null if it did not start
   * @param stream        the detect-mode report written so far, or null (jumble mode, or the agent did not start):
   *                      the exit completes it; if it had failed, the report is written whole
   */
  private static void reportAtExit(Path out, RunSummary summary, RaceAggregator races, String startError,
                                   TransformTally tally, JumbleOptions jumbleOptions, JumbleRuntime jumble,
                                   ReportStream stream) {
    // an anonymous class, not a lambda: a lambda linked at start-up spins hidden classes (see ClassFilter.internal)
    Thread writer = new Thread(new Runnable() {
      @Override
      public void run() {
        ThreadShadow thread = ThreadShadow.current();
        thread.enterAgent();
        DetectRuntime runtime = Hooks.installed();
        Hooks.install(null); // late events of other shutdown hooks would race with the report
        JumbleHooks.install(null);
        RunReport.Status status = RunReport.statusOf(summary, startError);
        try {
          if (jumbleOptions != null) {
            // the last run's settings: a trial server (JumbleRuntime.beginRun) changes them between runs
            RunReport.writeJumble(out, status, tally.trustedJdkClasses(),
                jumble != null ? jumble.heuristic() : jumbleOptions.heuristic(),
                jumble != null ? jumble.seed() : jumbleOptions.seed(),
                jumble != null ? jumble.stats() : new JumbleTargets(jumbleOptions.fields()).emptyStats(), summary);
          } else {
            long untracked = runtime == null ? 0 : runtime.untrackedArrays();
            if (runtime != null) {
              runtime.recordPredictionEvents();
            }
            if (stream == null || !stream.close(status, tally.trustedJdkClasses(), untracked)) {
              RunReport.write(out, status, tally.trustedJdkClasses(), untracked, races, summary);
            }
          }
        } catch (Throwable e) {
          ERR.println("racetriage agent: ERROR: could not write the report " + out.toAbsolutePath() + ": " + e);
        }
        if (summary.predictionStoppedAfterEvents() > 0) {
          ERR.println("racetriage agent: the predictive analysis stopped after " + summary.predictionStoppedAfterEvents()
              + " events (its budget, predictEvents=) " + summary.predictionStops() + " time(s): races another"
              + " schedule would expose are predicted in the part of the test (or run) before only; happens-before"
              + " detection covered all of it");
        }
        if (!status.ok()) {
          ERR.println("racetriage agent: ERROR: " + status.message() + " (report: " + out.toAbsolutePath() + ")");
        } else if (runtime != null && (races.totalReports() > 0 || !summary.skippedClasses().isEmpty())) {
          ERR.println("racetriage agent: " + races.fields().size() + " racy field(s), " + summary.classesInstrumented()
              + " class(es) instrumented, " + summary.skippedClasses().size() + " left uninstrumented (report: "
              + out.toAbsolutePath() + ")");
        }
      }
    }, "racetriage-report");
    Runtime.getRuntime().addShutdownHook(writer);
  }

  /** The out= value of an argument that failed to parse, so even that error lands where the runner looks. */
  private static String outOrDefault(String argument) {
    if (argument != null) {
      for (String pair : argument.split(";")) {
        String p = pair.strip();
        if (p.startsWith("out=") && p.length() > 4) {
          return p.substring(4).strip();
        }
      }
    }
    return AgentOptions.DEFAULT_OUT;
  }
}
