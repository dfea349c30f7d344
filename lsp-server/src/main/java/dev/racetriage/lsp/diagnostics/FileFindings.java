package dev.racetriage.lsp.diagnostics;

import dev.racetriage.lsp.documents.DocumentSnapshot;
import java.util.List;
import java.util.Optional;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;

/** The findings placed in one document version: what was last published, and what hovers and lenses read. */
public record FileFindings(DocumentSnapshot snapshot, List<LocatedFinding> findings) {

  public FileFindings {
    findings = List.copyOf(findings);
  }

  public Optional<LocatedFinding> forField(String fieldKey) {
    return findings.stream().filter(f -> f.finding().fieldKey().equals(fieldKey)).findFirst();
  }

  /** The finding whose anchor or one of whose accesses in this document contains the position. */
  public Optional<LocatedFinding> at(Position position) {
    return findings.stream()
        .filter(f -> contains(f.anchor(), position) || f.accessesHere().stream().anyMatch(r -> contains(r, position)))
        .findFirst();
  }

  public static boolean contains(Range range, Position p) {
    return !before(p, range.getStart()) && !before(range.getEnd(), p);
  }

  public static boolean overlaps(Range a, Range b) {
    return !before(a.getEnd(), b.getStart()) && !before(b.getEnd(), a.getStart());
  }

  private static boolean before(Position a, Position b) {
    return a.getLine() < b.getLine() || (a.getLine() == b.getLine() && a.getCharacter() < b.getCharacter());
  }
}
