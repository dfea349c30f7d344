package dev.racetriage.store.marks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.ProjectLayout;
import dev.racetriage.store.StoreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The trusted-benign marks as a file the team commits ({@code .racetriage/trusted-benign.json}). Written sorted by
 * field key, pretty-printed with LF line ends and a final newline, so that a mark added or removed is a small,
 * readable diff and two machines write identical bytes for identical marks. Replaced atomically (write a sibling,
 * then rename), so a reader never sees half a file.
 */
public final class MarkMirrorFile {
  public static final String FILE_NAME = "trusted-benign.json";
  static final int FORMAT_VERSION = 1;

  private static final ObjectMapper MAPPER =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  private static final ObjectWriter WRITER =
      MAPPER.writer(new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"))
          .withArrayIndenter(new DefaultIndenter("  ", "\n")));

  /** The file's JSON shape. Boxed, so that a missing {@code version} is told apart from a wrong one. */
  record FileContent(Integer version, String comment, List<Entry> marks) {}

  /** One mark in the file; the time is ISO-8601 UTC. */
  record Entry(String field, String author, String note, String markedAt) {}

  private final Path file;

  public MarkMirrorFile(Path file) {
    this.file = file;
  }

  /** The mirror file of a project: {@code <project>/.racetriage/trusted-benign.json}. */
  public static MarkMirrorFile inProject(Path projectDir) {
    return new MarkMirrorFile(ProjectLayout.directory(projectDir).resolve(FILE_NAME));
  }

  public Path file() {
    return file;
  }

  public boolean exists() {
    return Files.exists(file);
  }

  /**
   * The marks in the file; none if it does not exist. A file that exists must be a whole marks document
   * ({@code version} and a {@code marks} list, empty or not): {@code null}, {@code {}} or a document without its
   * {@code marks} is what a bad merge or a truncating tool leaves behind, and reading it as "no marks" would reopen
   * every mark in the database.
   */
  public List<TrustedBenignMark> read() {
    if (!Files.exists(file)) {
      return List.of();
    }
    JsonNode tree;
    try {
      tree = MAPPER.readTree(file.toFile());
    } catch (JsonProcessingException e) {
      throw invalid("it is not valid JSON (" + e.getOriginalMessage() + at(e) + ")", e);
    } catch (IOException e) {
      throw new StoreException("cannot read the trusted-benign marks in " + file + ": " + e.getMessage(), e);
    }
    FileContent content;
    try {
      content = tree == null || tree.isMissingNode() ? null : MAPPER.treeToValue(tree, FileContent.class);
    } catch (JsonProcessingException e) {
      throw invalid("it is not a marks document (" + e.getOriginalMessage() + ")", e);
    }
    if (content == null) {
      throw invalid("it is empty or null, not a marks document {\"version\": " + FORMAT_VERSION
          + ", \"marks\": [...]}", null);
    }
    if (content.version() == null || content.version() < 1) {
      throw invalid("it has no valid \"version\" (expected " + FORMAT_VERSION + ")", null);
    }
    if (content.version() > FORMAT_VERSION) {
      throw invalid("it has format version " + content.version() + " and this racetriage reads up to "
          + FORMAT_VERSION + "; upgrade racetriage", null);
    }
    if (content.marks() == null) {
      throw invalid("it has no \"marks\" list (a file without marks says \"marks\": [])", null);
    }
    List<TrustedBenignMark> marks = new ArrayList<>();
    for (Entry entry : content.marks()) {
      if (entry == null) {
        throw invalid("its \"marks\" list holds a null", null);
      }
      marks.add(toMark(entry));
    }
    return marks;
  }

  private static String at(JsonProcessingException e) {
    return e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr();
  }

  private TrustedBenignMark toMark(Entry entry) {
    if (entry.field() == null || entry.author() == null || entry.note() == null || entry.markedAt() == null) {
      throw invalid("a mark lacks one of field, author, note, markedAt: " + entry, null);
    }
    try {
      return new TrustedBenignMark(
          FieldKey.parse(entry.field()), entry.author(), entry.note(), Instant.parse(entry.markedAt()));
    } catch (IllegalArgumentException | DateTimeParseException e) {
      throw invalid("the mark of " + entry.field() + " is invalid: " + e.getMessage(), e);
    }
  }

  /** Replaces the file with exactly {@code marks}. */
  public void write(List<TrustedBenignMark> marks) {
    List<Entry> entries = marks.stream()
        .sorted(Comparator.comparing(TrustedBenignMark::field))
        .map(m -> new Entry(m.field().toString(), m.author(), m.note(), m.markedAt().toString()))
        .toList();
    FileContent content = new FileContent(
        FORMAT_VERSION,
        "racetriage trusted-benign marks: commit this file. Edit with 'racetriage mark' or the dashboard.",
        entries);
    try {
      byte[] bytes = (WRITER.writeValueAsString(content) + "\n").getBytes(StandardCharsets.UTF_8);
      Files.createDirectories(file.getParent());
      // Per-process name: writers of one database are serialised by its lock, but two databases may share a project.
      Path temp = file.resolveSibling(FILE_NAME + "." + ProcessHandle.current().pid() + ".tmp");
      try {
        Files.write(temp, bytes);
        try {
          Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(temp);
      }
    } catch (IOException e) {
      throw new StoreException("cannot write the trusted-benign marks to " + file + ": " + e.getMessage()
          + ". Check that the directory is writable; the mark was not recorded.", e);
    }
  }

  private StoreException invalid(String why, Throwable cause) {
    return new StoreException("cannot use the trusted-benign marks in " + file + ": " + why
        + ". Fix the file (it is meant to be committed; see its history) or move it away.", cause);
  }
}
