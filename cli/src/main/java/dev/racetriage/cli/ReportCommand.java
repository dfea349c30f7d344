package dev.racetriage.cli;

import dev.racetriage.store.engine.StoreLocation;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.racetriage.dashboard.export.ExportedRace;
import dev.racetriage.dashboard.export.RaceCollector;
import dev.racetriage.dashboard.export.SarifExport;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.races.CodeScope;
import dev.racetriage.store.races.RaceQuery;
import dev.racetriage.store.races.TriageState;
import dev.racetriage.store.verdicts.Verdict;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = {
      "Print the stored verdicts without running anything: for each race its verdict and state, every access as",
      "file:line, the first lines of the first failure, the fix advice of the prefilter's patterns and the command",
      "that replays the decisive trial. Fixed races are left out unless --state fixed asks for them. Test-code",
      "races (every access under src/test) are listed apart, after the product's, unless --scope says otherwise.",
      "Exit code: 0 printed, 1 the database cannot be read, 2 bad usage."
    })
final class ReportCommand implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "Project directory (default: .)")
  Path project = Path.of(".");

  @Option(names = "--db", paramLabel = StoreLocationOption.LABEL, converter = StoreLocationOption.class,
      description = StoreLocationOption.DESCRIPTION)
  StoreLocation db;

  @Option(names = "--format", paramLabel = "FORMAT",
      description = "table, json, sarif or markdown (what a CI job posts on a pull request) (default: ${DEFAULT-VALUE})")
  String format = "table";

  @Option(names = "--verdict", split = ",", paramLabel = "LIST",
      description = "Only these verdicts: destructive, qos, flaky, unexercised, benign, pending")
  List<String> verdicts;

  @Option(names = "--state", paramLabel = "STATE", description = "Only races in this state: open (regressions too), "
      + "regressed, trusted-benign or fixed (default: every race that is not fixed)")
  String state;

  @Option(names = "--field", split = ",", paramLabel = "FIELD",
      description = "Only these fields: field keys, or class/package prefixes (com.example.Cache, com.example.)")
  List<String> fields;

  @Option(names = "--scope", paramLabel = "SCOPE", description = "product (races with an access outside test code), "
      + "test (test-code races: every access under src/test) or all (both in one list, labelled); default: both, the "
      + "test-code races in a section of their own")
  String scope;

  @Option(names = "--out", paramLabel = "FILE", description = "Write the report to FILE instead of standard output")
  Path out;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (!List.of("table", "json", "sarif", "markdown").contains(format)) {
      throw new UserError("--format must be table, json, sarif or markdown, not '" + format + "'", 2);
    }
    CodeScope codeScope = scope == null ? CodeScope.ALL : CodeScope.ofLabel(scope.strip().toLowerCase(Locale.ROOT));
    if (codeScope == null) {
      throw new UserError("--scope must be product, test or all, not '" + scope + "'", 2);
    }
    boolean apart = scope == null;
    RaceQuery query = RaceQuery.all().withVerdicts(verdicts()).withTriageState(state());
    TriageCommand.checkWritable(out);
    Path dir = project.toAbsolutePath().normalize();
    StoreLocation location = db != null ? db : StoreLocation.file(TriageStore.defaultDatabase(dir));
    RaceCollector.Collected collected;
    try (TriageStore store = TriageStore.openReadOnly(location, dir)) {
      collected = StoredReport.collect(store, query, keep(codeScope));
    } catch (StoreException e) {
      throw StoreOpening.failed(e);
    }
    String report = switch (format) {
      case "json" -> json(collected);
      case "sarif" -> sarif(collected);
      case "markdown" -> ReportText.markdown(collected.races(), collected.unreadable(), apart);
      default -> ReportText.table(collected.races(), collected.unreadable(), apart);
    };
    write(report);
    return 0;
  }

  private Set<Verdict> verdicts() {
    Set<Verdict> only = EnumSet.noneOf(Verdict.class);
    for (String label : verdicts == null ? List.<String>of() : verdicts) {
      try {
        only.add(Verdict.fromLabel(label));
      } catch (IllegalArgumentException e) {
        throw new UserError("--verdict: unknown verdict '" + label.strip() + "'; use "
            + Arrays.stream(Verdict.values()).map(Verdict::label).collect(Collectors.joining(", ")), 2);
      }
    }
    return only;
  }

  private TriageState state() {
    if (state == null) return null;
    TriageState s = TriageState.ofLabel(state.strip().toLowerCase(Locale.ROOT));
    if (s == null) {
      throw new UserError("--state: unknown state '" + state + "'; use open, regressed, trusted-benign or fixed", 2);
    }
    return s;
  }

  private Predicate<ExportedRace> keep(CodeScope codeScope) {
    Predicate<ExportedRace> byField = fields == null || fields.isEmpty() ? r -> true
        : r -> fields.stream().map(String::strip).anyMatch(f -> r.race().id().equals(f) || r.race().id().startsWith(f));
    return byField.and(r -> codeScope.includes(r.testCode()));
  }

  static ObjectMapper mapper() {
    ObjectMapper mapper = new ObjectMapper();
    mapper.registerModule(new JavaTimeModule());
    mapper.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    return mapper;
  }

  private static String json(RaceCollector.Collected collected) {
    ObjectMapper mapper = mapper();
    ObjectNode root = mapper.createObjectNode();
    root.set("races", mapper.valueToTree(collected.races()));
    root.put("unreadable", collected.unreadable());
    // each race says whether it lives in test code ("testCode"); the count lets a CI step tell at a glance
    root.put("testCodeRaces", collected.races().stream().filter(ExportedRace::testCode).count());
    return pretty(mapper, root);
  }

  private static String sarif(RaceCollector.Collected collected) {
    ObjectMapper mapper = mapper();
    String version = new VersionProvider().getVersion()[0].replaceFirst("^racetriage ", "");
    return pretty(mapper, SarifExport.write(collected.races(), collected.unreadable(), version, mapper));
  }

  private static String pretty(ObjectMapper mapper, Object value) {
    try {
      return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(value) + "\n";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void write(String report) {
    if (out == null) {
      spec.commandLine().getOut().print(report);
      spec.commandLine().getOut().flush();
      return;
    }
    try {
      Files.writeString(out, report);
    } catch (IOException e) {
      throw new UserError("Cannot write the report to " + out + ": " + e.getMessage(), 2, e);
    }
  }
}
