import com.google.gson.JsonObject;
import dev.racetriage.lsp.LanguageServerLauncher;
import dev.racetriage.lsp.RacetriageLanguageServer;
import dev.racetriage.prefilter.Analysis;
import dev.racetriage.prefilter.Candidate;
import dev.racetriage.prefilter.Prefilter;
import dev.racetriage.prefilter.parse.Classpath;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CodeActionContext;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.services.TextDocumentService;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.VersionedTextDocumentIdentifier;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageServer;

/**
 * Editor latency over real JSON-RPC (in-memory pipes) for a ~2,000-line file, with the debounce set to 0 so the
 * figures are the server's work: didOpen -> publishDiagnostics (cold, with the project's batch scan; and again with the
 * project loaded), didChange -> publishDiagnostics (each edit toggles {@code synchronized} on one method, which
 * changes the analysis, and waits for its diagnostics before the next), and codeAction -> response at a diagnostic.
 * Then the prefilter's incremental update alone on the same edits, so the server's own share is the difference.
 * Usage: see run.sh.
 */
public final class LspLatencyBenchmark {

  /** Just enough client: diagnostics into a queue, everything else ignored. */
  static final class Client implements LanguageClient {
    final BlockingQueue<PublishDiagnosticsParams> published = new LinkedBlockingQueue<>();
    final CountDownLatch scanned = new CountDownLatch(1);

    @Override public void telemetryEvent(Object object) {}
    @Override public void publishDiagnostics(PublishDiagnosticsParams diagnostics) { published.add(diagnostics); }
    @Override public void showMessage(MessageParams message) {}
    @Override public CompletableFuture<MessageActionItem> showMessageRequest(ShowMessageRequestParams p) {
      return CompletableFuture.completedFuture(null);
    }
    @Override public void logMessage(MessageParams message) {
      if (message.getMessage().startsWith("racetriage: scanned ")) {
        scanned.countDown();
      }
    }

    PublishDiagnosticsParams await(int version) throws InterruptedException {
      while (true) {
        PublishDiagnosticsParams next = published.poll(120, TimeUnit.SECONDS);
        if (next == null) {
          throw new IllegalStateException("no diagnostics for version " + version + " within 120 s");
        }
        if (next.getVersion() != null && next.getVersion() == version) {
          return next;
        }
      }
    }
  }

  public static void main(String[] args) throws Exception {
    int files = Integer.parseInt(arg(args, 0, "200"));
    int bigLines = Integer.parseInt(arg(args, 1, "2000"));
    int warmup = Integer.parseInt(arg(args, 2, "10"));
    int runs = Integer.parseInt(arg(args, 3, "50"));
    boolean withStore = !"nostore".equals(arg(args, 4, "store"));

    Path root = Files.createTempDirectory("lsp-bench");
    Path big = SyntheticProject.write(root, files, bigLines);
    Files.writeString(root.resolve("pom.xml"), "<project><modelVersion>4.0.0</modelVersion><groupId>b</groupId>"
        + "<artifactId>b</artifactId><version>1</version></project>\n");
    String original = Files.readString(big);
    int verdicts = withStore ? writeVerdicts(root, big) : 0;
    System.out.printf("project: %d files; changed file: %d lines; store: %s%n", files,
        original.split("\n", -1).length - 1, withStore ? verdicts + " verdicts on the changed file's fields" : "none");

    Pipe toServer = Pipe.open();
    Pipe toClient = Pipe.open();
    LanguageServerLauncher.Connection connection = LanguageServerLauncher.start(RacetriageLanguageServer.create(),
        Channels.newInputStream(toServer.source()), Channels.newOutputStream(toClient.sink()));
    Client client = new Client();
    Launcher<LanguageServer> launcher = LSPLauncher.createClientLauncher(client,
        Channels.newInputStream(toClient.source()), Channels.newOutputStream(toServer.sink()));
    launcher.startListening();
    LanguageServer server = launcher.getRemoteProxy();

    JsonObject settings = new JsonObject();
    settings.addProperty("mavenClasspath", false);
    settings.addProperty("debounceMillis", 0);
    JsonObject options = new JsonObject();
    options.add("racetriage", settings);
    InitializeParams init = new InitializeParams();
    init.setWorkspaceFolders(List.of(new WorkspaceFolder(root.toUri().toString(), "bench")));
    init.setInitializationOptions(options);
    init.setCapabilities(new ClientCapabilities());
    server.initialize(init).get(60, TimeUnit.SECONDS);
    server.initialized(new InitializedParams());

    String uri = big.toAbsolutePath().normalize().toUri().toString();
    TextDocumentService documents = server.getTextDocumentService();
    long openStart = System.nanoTime();
    documents.didOpen(new DidOpenTextDocumentParams(new TextDocumentItem(uri, "java", 1, original)));
    PublishDiagnosticsParams first = client.await(1);
    System.out.printf("didOpen, cold -> first publishDiagnostics (the store's verdicts; the project's scan running):"
        + " %.0f ms, %d diagnostics%n", (System.nanoTime() - openStart) / 1e6, first.getDiagnostics().size());
    if (!client.scanned.await(600, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the project's scan did not finish within 600 s");
    }
    first = client.await(1); // re-published once the scan is done
    System.out.printf("didOpen, cold -> publishDiagnostics with the whole project (after initialized started the"
        + " scan): %.0f ms, %d diagnostics%n", (System.nanoTime() - openStart) / 1e6, first.getDiagnostics().size());

    // didChange: toggle one synchronized keyword (it changes the analysis), wait for that version's diagnostics
    int offset = original.indexOf("public synchronized void put0");
    int line = (int) original.substring(0, offset).chars().filter(c -> c == '\n').count();
    int column = offset - (original.lastIndexOf('\n', offset) + 1) + "public ".length();
    Position at = new Position(line, column);
    Position afterKeyword = new Position(line, column + "synchronized ".length());
    List<Double> changeTimes = new ArrayList<>();
    PublishDiagnosticsParams last = first;
    int version = 1;
    int edits = warmup + runs;
    edits += edits % 2; // an even number: the document ends as it started (the same text as on disk)
    for (int i = 0; i < edits; i++) {
      version++;
      TextDocumentContentChangeEvent change = i % 2 == 0
          ? new TextDocumentContentChangeEvent(new Range(at, afterKeyword), "")
          : new TextDocumentContentChangeEvent(new Range(at, at), "synchronized ");
      long start = System.nanoTime();
      documents.didChange(new DidChangeTextDocumentParams(new VersionedTextDocumentIdentifier(uri, version),
          List.of(change)));
      last = client.await(version);
      if (i >= warmup) {
        changeTimes.add((System.nanoTime() - start) / 1e6);
      }
    }
    report("didChange -> publishDiagnostics", changeTimes, warmup, last.getDiagnostics().size() + " diagnostics");

    // codeAction at a diagnostic's range with that diagnostic in the context, as an editor asks on a lightbulb
    List<Diagnostic> onFile = last.getDiagnostics();
    List<Double> actionTimes = new ArrayList<>();
    int actions = 0;
    for (int i = 0; i < warmup + runs; i++) {
      Diagnostic diagnostic = onFile.get((i * 37) % onFile.size());
      CodeActionParams params = new CodeActionParams(new TextDocumentIdentifier(uri), diagnostic.getRange(),
          new CodeActionContext(List.of(diagnostic)));
      long start = System.nanoTime();
      actions = documents.codeAction(params).get(120, TimeUnit.SECONDS).size();
      if (i >= warmup) {
        actionTimes.add((System.nanoTime() - start) / 1e6);
      }
    }
    report("codeAction -> response", actionTimes, warmup, "last answer: " + actions + " actions");

    // didOpen of the file again in the loaded project (closed, then opened with its text on disk)
    List<Double> openTimes = new ArrayList<>();
    for (int i = 0; i < warmup + runs; i++) {
      version++;
      documents.didClose(new DidCloseTextDocumentParams(new TextDocumentIdentifier(uri)));
      long start = System.nanoTime();
      documents.didOpen(new DidOpenTextDocumentParams(new TextDocumentItem(uri, "java", version, original)));
      last = client.await(version);
      if (i >= warmup) {
        openTimes.add((System.nanoTime() - start) / 1e6);
      }
    }
    report("didOpen (project loaded) -> publishDiagnostics", openTimes, warmup,
        last.getDiagnostics().size() + " diagnostics");

    server.shutdown().get(60, TimeUnit.SECONDS);
    server.exit();
    connection.exitCode().get(60, TimeUnit.SECONDS);

    // the prefilter's share of an edit, measured alone on the same project and the same edits
    Prefilter prefilter = Prefilter.open(root, Classpath.none("benchmark"));
    prefilter.scan();
    String withoutKeyword = original.replaceFirst("public synchronized void put0", "public void put0");
    List<Double> updateTimes = new ArrayList<>();
    for (int i = 0; i < edits; i++) {
      long start = System.nanoTime();
      prefilter.update(big, i % 2 == 0 ? withoutKeyword : original);
      if (i >= warmup) {
        updateTimes.add((System.nanoTime() - start) / 1e6);
      }
    }
    report("of which Prefilter.update alone (same edits, no server)", updateTimes, warmup, "");
    System.exit(0); // the client launcher's reader thread is not a daemon
  }

  private static void report(String what, List<Double> times, int warmup, String note) {
    List<Double> sorted = new ArrayList<>(times);
    Collections.sort(sorted);
    System.out.printf("%s: median %.1f ms, p90 %.1f ms, min %.1f ms, max %.1f ms over %d (after %d warm-up)%s%n",
        what, median(sorted), sorted.get((int) Math.ceil(sorted.size() * 0.9) - 1), sorted.get(0),
        sorted.get(sorted.size() - 1), sorted.size(), warmup, note.isEmpty() ? "" : "; " + note);
  }

  /** A verdict for every candidate field of the changed file, as a daemon would have recorded them. */
  private static int writeVerdicts(Path root, Path big) {
    Analysis analysis = Prefilter.open(root, Classpath.none("benchmark")).scan();
    List<Candidate> candidates = analysis.touching(big);
    Verdict[] cycle = {Verdict.DESTRUCTIVE, Verdict.QOS, Verdict.BENIGN, Verdict.PENDING};
    try (TriageStore store = TriageStore.openProject(root)) {
      int i = 0;
      for (Candidate candidate : candidates) {
        FieldKey field = FieldKey.parse(candidate.field());
        String file = big.getFileName().toString();
        store.races().upsert(new Race(field, Set.of(RaceKind.WR), List.of(
            new AccessSite(AccessType.READ, "t1", file, candidate.line(), List.of()),
            new AccessSite(AccessType.WRITE, "t2", file, candidate.line(), List.of())), Set.of("bench.T#t")), null);
        Verdict verdict = cycle[i++ % cycle.length];
        if (verdict != Verdict.PENDING) {
          store.verdicts().set(field, verdict, Evidence.of("benchmark verdict"), null);
        }
      }
    }
    return candidates.size();
  }

  private static String arg(String[] args, int i, String fallback) {
    return args.length > i ? args[i] : fallback;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
