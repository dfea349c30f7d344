package dev.racetriage.runner.project;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.xml.sax.InputSource;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.xml.sax.SAXException;

/**
 * The effective POM maven-help-plugin wrote for the build: Maven's own view of every module after inheritance,
 * profiles and interpolation, so racetriage never has to parse a pom.xml itself. A reactor build writes all modules
 * under {@code <projects>}, a single module one {@code <project>}.
 */
final class EffectivePom {
  /** One module as the effective POM describes it. */
  record Module(Path buildDirectory, Optional<Path> outputDirectory, Optional<Path> testOutputDirectory, Element project) {
    Path baseDir() {
      return buildDirectory.getParent();
    }
  }

  private final List<Module> modules;

  private EffectivePom(List<Module> modules) {
    this.modules = List.copyOf(modules);
  }

  private static final java.util.regex.Pattern XML_DECLARATION = java.util.regex.Pattern.compile("<\\?xml[^?]*\\?>");
  /** A one-line element: {@code <name>text</name>}. */
  private static final java.util.regex.Pattern ELEMENT_LINE =
      java.util.regex.Pattern.compile("^\\s*<([^\\s>/]+)>[^<]*</\\1>\\s*$");
  private static final java.util.regex.Pattern XML_NAME = java.util.regex.Pattern.compile("[A-Za-z_][\\w.\\-]*");

  /**
   * What the help plugin wrote, made well-formed. Run after other goals in one Maven call (commons-pool), it repeats
   * the XML declaration after its header comments, and writes properties that plugins set during the build — some
   * with names no XML element may have ({@code <javaTarget.qualifier?>} from build-helper's parse-version). The first
   * declaration is kept, and a one-line element whose name is not an XML name is dropped (racetriage reads no such
   * property).
   */
  static String wellFormed(String text) {
    java.util.regex.Matcher declarations = XML_DECLARATION.matcher(text);
    StringBuilder out = new StringBuilder(text.length());
    boolean first = true;
    int from = 0;
    while (declarations.find()) {
      out.append(text, from, declarations.start());
      if (first) out.append(declarations.group());
      first = false;
      from = declarations.end();
    }
    out.append(text.substring(from));
    StringBuilder kept = new StringBuilder(out.length());
    for (String line : out.toString().split("\n", -1)) {
      java.util.regex.Matcher element = ELEMENT_LINE.matcher(line);
      if (element.matches() && !XML_NAME.matcher(element.group(1)).matches()) continue;
      kept.append(line).append('\n');
    }
    return kept.toString();
  }

  static EffectivePom read(Path file) throws IOException {
    Element root;
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      javax.xml.parsers.DocumentBuilder parser = factory.newDocumentBuilder();
      parser.setErrorHandler(new org.xml.sax.helpers.DefaultHandler() { // thrown, not also printed on stderr
        @Override
        public void error(org.xml.sax.SAXParseException e) throws SAXException {
          throw e;
        }
      });
      root = parser.parse(new InputSource(new StringReader(wellFormed(
          Files.readString(file, StandardCharsets.UTF_8))))).getDocumentElement();
    } catch (ParserConfigurationException | SAXException e) {
      throw new IOException("cannot read the effective POM " + file + ": " + e.getMessage(), e);
    }
    List<Element> projects = root.getTagName().equals("projects") ? Dom.children(root, "project") : List.of(root);
    List<Module> modules = new ArrayList<>();
    for (Element project : projects) {
      Optional<Element> build = Dom.child(project, "build");
      Optional<Path> directory = build.flatMap(b -> Dom.text(b, "directory")).map(EffectivePom::path);
      directory.ifPresent(d -> modules.add(new Module(d,
          build.flatMap(b -> Dom.text(b, "outputDirectory")).map(EffectivePom::path),
          build.flatMap(b -> Dom.text(b, "testOutputDirectory")).map(EffectivePom::path),
          project)));
    }
    return new EffectivePom(modules);
  }

  /**
   * The module whose base directory is {@code moduleDir}; failing that (a build directory elsewhere), the one whose
   * test output lies deepest under it.
   */
  /** Every module the effective POM describes. */
  List<Module> modules() {
    return modules;
  }

  Optional<Module> module(Path moduleDir) {
    Path dir = path(moduleDir.toString());
    return modules.stream().filter(m -> dir.equals(m.baseDir())).findFirst()
        .or(() -> modules.stream()
            .filter(m -> m.testOutputDirectory().filter(t -> t.startsWith(dir)).isPresent())
            .max(Comparator.comparingInt(m -> m.testOutputDirectory().get().getNameCount())));
  }

  private static Path path(String text) {
    return Path.of(text).toAbsolutePath().normalize();
  }
}
