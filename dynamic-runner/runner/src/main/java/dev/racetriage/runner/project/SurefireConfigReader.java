package dev.racetriage.runner.project;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.w3c.dom.Element;

/**
 * Reads maven-surefire-plugin's configuration from one module's effective POM: the plugin-level configuration, with
 * the {@code default-test} execution's (what {@code mvn test} runs) on top. Parameters Surefire reads from a user
 * property when the pom does not set them ({@code argLine}, {@code skipTests}, {@code groups}…) fall back to the
 * module's properties, as Surefire's defaults do.
 */
final class SurefireConfigReader {
  private static final String SUREFIRE = "maven-surefire-plugin";

  private SurefireConfigReader() {}

  static SurefireConfig read(Element project, Path moduleDir) {
    Map<String, String> properties = properties(project);
    Map<String, Element> config = configuration(project);
    Optional<String> skipReason = skipReason(config, properties);
    String argLine = text(config, "argLine").orElse(properties.getOrDefault("argLine", ""));
    argLine = PropertyReferences.resolve(argLine, properties, true).replace('\n', ' ').replace('\r', ' ').strip();
    Map<String, String> systemProperties = new LinkedHashMap<>();
    Optional.ofNullable(config.get("systemProperties")).ifPresent(e -> legacySystemProperties(e, systemProperties));
    Optional.ofNullable(config.get("systemPropertyVariables")).ifPresent(e -> systemProperties.putAll(children(e)));
    systemProperties.replaceAll((k, v) -> PropertyReferences.resolve(v, properties, false));
    Map<String, String> environment = new LinkedHashMap<>();
    Optional.ofNullable(config.get("environmentVariables")).ifPresent(e -> environment.putAll(children(e)));
    environment.replaceAll((k, v) -> PropertyReferences.resolve(v, properties, false));
    Optional<Path> workingDirectory = text(config, "workingDirectory")
        .map(d -> moduleDir.resolve(PropertyReferences.resolve(d, properties, false)).normalize());
    return new SurefireConfig(
        patterns(config.get("includes")),
        patterns(config.get("excludes")),
        parameter(config, properties, "test", "test"),
        parameter(config, properties, "groups", "groups"),
        parameter(config, properties, "excludedGroups", "excludedGroups"),
        argLine, systemProperties, environment, workingDirectory,
        configurationParameters(config.get("properties")),
        skipReason,
        patterns(config.get("additionalClasspathElements")).stream()
            .map(e -> moduleDir.resolve(PropertyReferences.resolve(e, properties, false)).normalize()).toList(),
        patterns(config.get("classpathDependencyExcludes")));
  }

  /** The configuration elements by name: the plugin's, then the {@code default-test} execution's over them. */
  private static Map<String, Element> configuration(Element project) {
    Map<String, Element> merged = new LinkedHashMap<>();
    Element build = Dom.child(project, "build").orElse(null);
    Element plugins = build == null ? null : Dom.child(build, "plugins").orElse(null);
    if (plugins == null) return merged;
    for (Element plugin : Dom.children(plugins, "plugin")) {
      if (!SUREFIRE.equals(Dom.text(plugin, "artifactId").orElse(""))) continue;
      Dom.child(plugin, "configuration").ifPresent(c -> Dom.children(c).forEach(e -> merged.put(e.getTagName(), e)));
      Dom.child(plugin, "executions").ifPresent(executions -> {
        for (Element execution : Dom.children(executions, "execution")) {
          if ("default-test".equals(Dom.text(execution, "id").orElse(""))) {
            Dom.child(execution, "configuration")
                .ifPresent(c -> Dom.children(c).forEach(e -> merged.put(e.getTagName(), e)));
          }
        }
      });
    }
    return merged;
  }

  private static Optional<String> skipReason(Map<String, Element> config, Map<String, String> properties) {
    String[][] switches = {
        {"skip", "maven.test.skip"}, {"skipTests", "skipTests"}, {"skipExec", "maven.test.skip.exec"}};
    for (String[] s : switches) {
      Optional<String> configured = text(config, s[0]);
      if (configured.isPresent() ? "true".equals(configured.get()) : "true".equals(properties.get(s[1]))) {
        return Optional.of(configured.isPresent()
            ? "its Surefire configuration sets <" + s[0] + ">true</" + s[0] + ">"
            : "its pom sets the property " + s[1] + "=true");
      }
    }
    return Optional.empty();
  }

  /** A parameter from the configuration, else from the property Surefire takes its default from. */
  private static Optional<String> parameter(Map<String, Element> config, Map<String, String> properties,
      String name, String property) {
    Optional<String> value = text(config, name).or(() -> Optional.ofNullable(properties.get(property)));
    return value.map(String::strip).filter(v -> !v.isEmpty() && !v.startsWith("${"));
  }

  /** {@code <include>} (or other list) elements; one element may also hold a comma-separated list, as Surefire allows. */
  private static List<String> patterns(Element list) {
    List<String> patterns = new ArrayList<>();
    if (list == null) return patterns;
    for (Element e : Dom.children(list)) {
      for (String p : e.getTextContent().split(",")) {
        if (!p.isBlank()) patterns.add(p.strip());
      }
    }
    return patterns;
  }

  /** Surefire's {@code <properties><configurationParameters>}: JUnit Platform settings in properties-file form. */
  private static Map<String, String> configurationParameters(Element surefireProperties) {
    Map<String, String> parameters = new LinkedHashMap<>();
    if (surefireProperties == null) return parameters;
    Optional<Element> text = Dom.child(surefireProperties, "configurationParameters");
    if (text.isEmpty()) return parameters;
    Properties loaded = new Properties();
    try {
      loaded.load(new StringReader(text.get().getTextContent()));
    } catch (IOException impossible) {
      throw new IllegalStateException(impossible);
    }
    loaded.stringPropertyNames().stream().sorted().forEach(k -> parameters.put(k, loaded.getProperty(k)));
    return parameters;
  }

  /** The deprecated {@code <systemProperties>}: {@code <property><name>…</name><value>…</value></property>}. */
  private static void legacySystemProperties(Element e, Map<String, String> into) {
    for (Element child : Dom.children(e)) {
      if ("property".equals(child.getTagName()) && Dom.text(child, "name").isPresent()) {
        into.put(Dom.text(child, "name").get(), Dom.text(child, "value").orElse(""));
      } else {
        into.put(child.getTagName(), child.getTextContent().strip());
      }
    }
  }

  static Map<String, String> properties(Element project) {
    return Dom.child(project, "properties").map(SurefireConfigReader::children).orElse(Map.of());
  }

  private static Map<String, String> children(Element parent) {
    Map<String, String> values = new LinkedHashMap<>();
    for (Element child : Dom.children(parent)) {
      values.put(child.getTagName(), child.getTextContent().strip());
    }
    return values;
  }

  private static Optional<String> text(Map<String, Element> config, String name) {
    return Optional.ofNullable(config.get(name)).map(e -> e.getTextContent().strip());
  }
}
