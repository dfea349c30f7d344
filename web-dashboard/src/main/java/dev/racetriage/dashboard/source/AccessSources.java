package dev.racetriage.dashboard.source;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.races.AccessSite;
import java.util.Optional;

/**
 * Finds the project file of a race access. The agent reports the class file's SourceFile name ({@code Cache.java});
 * the prefilter and some runners report a project-relative path. A bare name is looked up under the usual source
 * roots in the package of the class that made the access.
 */
public final class AccessSources {
  private final ProjectFiles files;

  public AccessSources(ProjectFiles files) {
    this.files = files;
  }

  public ProjectFiles files() {
    return files;
  }

  /** The access's file as a project-relative path, if it is a source file inside the project. */
  public Optional<String> projectPath(FieldKey field, AccessSite site) {
    if (site.file() == null || site.file().isBlank()) {
      return Optional.empty();
    }
    if (site.file().contains("/") || site.file().contains("\\")) {
      return Optional.of(site.file());
    }
    return files.locate(declaringClass(field, site), site.file());
  }

  /** The lines around the access, or empty when its file is not in the project (moved, generated, a library). */
  public Optional<SourceExcerpt> excerpt(FieldKey field, AccessSite site, int context) {
    if (site.line() <= 0) {
      return Optional.empty();
    }
    try {
      return projectPath(field, site).map(path -> files.excerpt(path, site.line(), context));
    } catch (SourceAccessDenied | ProjectFiles.NoSuchSourceFile e) {
      return Optional.empty();
    }
  }

  /**
   * The top-level class whose file holds the access: the innermost stack frame's class
   * ({@code pkg.Cls.method(Cls.java:12)}) when there is one, else the field's class; a nested class lives in its
   * outer class's file.
   */
  static String declaringClass(FieldKey field, AccessSite site) {
    String className = field.className();
    if (!site.stack().isEmpty()) {
      String frame = site.stack().get(0);
      int paren = frame.indexOf('(');
      String qualifiedMethod = paren < 0 ? frame : frame.substring(0, paren);
      int lastDot = qualifiedMethod.lastIndexOf('.');
      if (lastDot > 0) {
        className = qualifiedMethod.substring(0, lastDot);
      }
    }
    int dollar = className.indexOf('$');
    return dollar < 0 ? className : className.substring(0, dollar);
  }
}
