package dev.racetriage.prefilter.parse;

import org.eclipse.jdt.core.dom.AST;
import org.eclipse.jdt.core.dom.ASTParser;

/**
 * Initialises JDT's compiler classes on one thread before any two threads use JDT. Their static initialisers depend
 * on each other ({@code TypeBinding}, {@code ReferenceBinding}, {@code LookupEnvironment}, …), so two threads that
 * start using JDT at once — the language server's project scan and its first analysis of an open file — can each
 * hold one class's initialisation while waiting for the other's, for ever (seen in CI: no diagnostics, both threads
 * "waiting on the Class initialization monitor"). The first caller parses and resolves a small compilation unit,
 * which initialises every class a parse with or without bindings needs; the JVM makes the other callers wait for it.
 * Every {@code ASTParser} of racetriage is created after {@link #ensure()}.
 */
public final class JdtInitialisation {
  private JdtInitialisation() {}

  /** Returns once JDT's classes are initialised (at once after the first call). */
  public static void ensure() {
    Done.touch();
  }

  private static final class Done {
    static {
      ASTParser parser = ASTParser.newParser(AST.getJLSLatest());
      parser.setKind(ASTParser.K_COMPILATION_UNIT);
      parser.setResolveBindings(true);
      parser.setBindingsRecovery(true);
      parser.setEnvironment(new String[0], new String[0], null, true);
      parser.setUnitName("Warm.java");
      parser.setSource("class Warm { java.util.List<String> names; int n() { return names.size(); } }".toCharArray());
      parser.createAST(null);
    }

    static void touch() {}
  }
}
