package dev.racetriage.launcher;

import dev.racetriage.agent.detect.JsonText;
import dev.racetriage.agent.detect.FieldRaces;
import dev.racetriage.agent.jumble.FieldStats;
import dev.racetriage.agent.runtime.DetectRuntime;
import dev.racetriage.agent.runtime.Hooks;
import dev.racetriage.agent.runtime.JumbleHooks;
import dev.racetriage.agent.runtime.JumbleRuntime;
import dev.racetriage.agent.runtime.RunReport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;

/**
 * The launcher's {@code --serve} mode: runs the selected tests again and again in this one JVM, once per {@code run}
 * command read from stdin, and answers each with one JSON line on stdout. With the agent in jumble mode, a
 * {@code run HEURISTIC SEED} command first gives the agent a fresh run ({@link JumbleRuntime#beginRun}): the tests
 * then start with no write buffer and fresh counters, and the answer carries the counters of that run alone. This
 * saves a JVM start and a warm-up per trial; the runner falls back to one JVM per run when repeating the test is not
 * faithful (see the runner's {@code ServedTrialExecutor}).
 *
 * <p>Stdout carries nothing but the protocol: the tests' own {@code System.out} goes to stderr. Lines:
 * <pre>
 * {"event":"ready","jumble":true}
 * {"event":"run","run":1,"status":"passed","tests":1,"millis":71,"heuristic":"oldest","seed":42,
 *  "fields":[{"field":"pkg.C.f","reads":5,"staleReads":3,"readsWithChoice":5,"writes":1,"locations":1,
 *  "maxBufferCompressed":2,"maxBufferUncompressed":2,"removedOldest":0,"sameChoicesAs":[]}],"threadsLeft":[],
 *  "threadsIdle":[]}
 * {"event":"error","message":"…"}
 * </pre>
 * {@code failure} ({@code type}, {@code message}, {@code stack}) is added when a test failed; {@code threadsLeft}
 * names the non-daemon threads started during the server's life that are still running after the run (a test that
 * leaves threads behind is not repeatable: its leftovers run into the next run); {@code threadsIdle} the ones parked
 * as idle workers of a pool the test did not shut down, which do not make it unrepeatable ({@link LeftoverThreads}).
 *
 * <p>With the agent in detect mode (no jumble), a plain {@code run} repeats the selection under detection and the answer
 * carries {@code "raced":[…]}, the field keys that raced so far in this JVM (cumulative over runs): the runner repeats
 * its detection run this way and counts the races only a later run found. The agent's report, written when the JVM
 * exits, holds the union of all runs.
 */
final class TrialServer {
  private final Launcher launcher;
  private final LauncherDiscoveryRequest request;
  private final ResultsListener results;
  private final TestExecutionListener[] others;
  private final PrintStream protocol;
  private final Set<Thread> threadsAtStart;

  /** {@code others}: listeners that see every run as well (the test tree, the watchdog). */
  TrialServer(Launcher launcher, LauncherDiscoveryRequest request, ResultsListener results, PrintStream protocol,
      TestExecutionListener... others) {
    this.launcher = launcher;
    this.request = request;
    this.results = results;
    this.others = others.clone();
    this.protocol = protocol;
    this.threadsAtStart = new HashSet<>(Thread.getAllStackTraces().keySet());
  }

  /** Serves commands until {@code quit} or the end of stdin. */
  void serve() throws IOException {
    JumbleRuntime jumble = JumbleHooks.installed();
    StringBuilder ready = new StringBuilder();
    new JsonText(ready).beginObject().name("event").value("ready").name("jumble").value(jumble != null).endObject();
    send(ready);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    int runs = 0;
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isBlank()) continue;
      RunCommand command;
      try {
        command = RunCommand.parse(line);
        if (command.resetsJumble()) {
          if (jumble == null) {
            throw new IllegalArgumentException("'" + line.trim() + "' needs the agent in jumble mode "
                + "(-javaagent:racetriage-agent.jar=mode=jumble;field=…;heuristic=…); without it use plain 'run'");
          }
          jumble.beginRun(command.heuristic(), command.seed(), command.noise());
        }
      } catch (IllegalArgumentException e) {
        error(e.getMessage());
        continue;
      }
      if (command.quit()) {
        return;
      }
      send(run(++runs, jumble));
    }
  }

  private StringBuilder run(int number, JumbleRuntime jumble) {
    RunRecorder recorder = new RunRecorder();
    List<TestExecutionListener> listeners = new ArrayList<>(List.of(others));
    listeners.add(results);
    listeners.add(recorder);
    launcher.execute(request, listeners.toArray(new TestExecutionListener[0]));
    StringBuilder line = new StringBuilder();
    JsonText json = new JsonText(line).beginObject().name("event").value("run").name("run").value(number)
        .name("status").value(recorder.status()).name("tests").value(recorder.tests())
        .name("millis").value(recorder.millis());
    if (recorder.failure() != null) {
      ResultsFile.failure(json, recorder.failure());
    }
    if (jumble != null) {
      json.name("heuristic").value(jumble.heuristic()).name("seed").value(jumble.seed());
      json.name("fields").beginArray();
      for (FieldStats f : jumble.stats()) {
        json.beginObject().name("field").value(f.fieldKey());
        RunReport.counters(json, f, jumble.heuristic());
        json.endObject();
      }
      json.endArray();
    } else if (Hooks.installed() != null) {
      DetectRuntime detect = Hooks.installed();
      json.name("raced").beginArray();
      for (FieldRaces f : detect.aggregator().fields()) {
        json.value(f.fieldKey());
      }
      json.endArray();
    }
    LeftoverThreads.Left left = LeftoverThreads.after(threadsAtStart);
    json.name("threadsLeft").beginArray();
    left.running().forEach(json::value);
    json.endArray();
    json.name("threadsIdle").beginArray();
    left.idle().forEach(json::value);
    json.endArray().endObject();
    return line;
  }

  private void error(String message) {
    StringBuilder line = new StringBuilder();
    new JsonText(line).beginObject().name("event").value("error").name("message").value(message).endObject();
    send(line);
  }

  private void send(StringBuilder line) {
    protocol.println(line);
    protocol.flush();
  }
}
