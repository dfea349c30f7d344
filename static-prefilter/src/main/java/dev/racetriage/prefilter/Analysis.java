package dev.racetriage.prefilter;

import dev.racetriage.prefilter.parse.Classpath;
import java.nio.file.Path;
import java.util.List;

/**
 * The result of a scan or of an incremental update: the candidates of the whole project, ranked.
 *
 * @param candidates most confident first
 * @param files how many source files the project's facts come from
 * @param millis how long this scan or update took
 * @param classpath the classpath bindings were resolved against
 * @param problems files the analysis could not handle, each with what went wrong (their candidates may be missing)
 */
public record Analysis(List<Candidate> candidates, int files, long millis, Classpath classpath, List<String> problems) {

  public Analysis {
    candidates = List.copyOf(candidates);
    problems = List.copyOf(problems);
  }

  public Analysis(List<Candidate> candidates, int files, long millis, Classpath classpath) {
    this(candidates, files, millis, classpath, List.of());
  }

  /** The candidates declared in or accessed from {@code file} (what an editor shows for that file). */
  public List<Candidate> touching(Path file) {
    String name = file.toAbsolutePath().normalize().toString();
    return candidates.stream().filter(c -> c.touches(name)).toList();
  }

  public java.util.Optional<Candidate> candidate(String fieldKey) {
    return candidates.stream().filter(c -> c.field().equals(fieldKey)).findFirst();
  }
}
