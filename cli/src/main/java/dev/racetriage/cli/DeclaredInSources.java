package dev.racetriage.cli;

import dev.racetriage.runner.report.SourceLocator;
import dev.racetriage.store.FieldKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Whether a project's sources declare a field: the source file of the field's top-level class holds a declaration of
 * that name ({@code … name;}, {@code … name = …}, {@code … name,}). A textual look, enough to tell a real field
 * that no race or candidate names yet from a typo.
 */
final class DeclaredInSources {
  private DeclaredInSources() {}

  static boolean declares(Path projectDir, FieldKey field) {
    String className = field.className();
    int dollar = className.indexOf('$');
    String topLevel = dollar < 0 ? className : className.substring(0, dollar);
    Optional<String> file = new SourceLocator(projectDir).locate(topLevel, null);
    if (file.isEmpty()) return false;
    try {
      String source = Files.readString(projectDir.resolve(file.get()));
      return Pattern.compile("[\\w>\\]]\\s+" + Pattern.quote(field.member()) + "\\s*(\\[\\s*\\]\\s*)*[;=,]")
          .matcher(source).find();
    } catch (IOException e) {
      return false;
    }
  }
}
