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

  static EffectivePom read(Path file) throws IOException {
    Element root;
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      // the help plugin may repeat the XML declaration after its header comments (seen when it runs after other
      // goals in one Maven call, on commons-pool): only the first one is legal XML
      String text = Files.readString(file, StandardCharsets.UTF_8);
      int first = text.indexOf("<?xml");
      String body = first < 0 ? text : text.substring(0, first + 5)
          + text.substring(first + 5).replaceAll("<\\?xml[^?]*\\?>", "");
      root = factory.newDocumentBuilder().parse(new InputSource(new StringReader(body))).getDocumentElement();
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
