package dev.racetriage.runner.project;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** The few child-element look-ups the effective-POM readers need from the JDK's DOM. */
final class Dom {
  private Dom() {}

  static List<Element> children(Element parent) {
    List<Element> children = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e) children.add(e);
    }
    return children;
  }

  static List<Element> children(Element parent, String name) {
    return children(parent).stream().filter(e -> e.getTagName().equals(name)).toList();
  }

  static Optional<Element> child(Element parent, String name) {
    return children(parent, name).stream().findFirst();
  }

  static Optional<String> text(Element parent, String name) {
    return child(parent, name).map(e -> e.getTextContent().strip());
  }
}
