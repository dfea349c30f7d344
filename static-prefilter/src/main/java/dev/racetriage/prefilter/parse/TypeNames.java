package dev.racetriage.prefilter.parse;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.ASTVisitor;
import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.AnonymousClassDeclaration;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.jdt.core.dom.ITypeBinding;
import org.eclipse.jdt.core.dom.TypeDeclarationStatement;

/**
 * Binary names ({@code pkg.Outer$Inner}, {@code pkg.Outer$1}) of the classes declared in one compilation unit: from
 * JDT bindings when they resolve, otherwise rebuilt from the syntax the way javac numbers them, so field keys stay the
 * same whether or not a file had a classpath.
 */
public final class TypeNames {

  private final Map<ASTNode, String> names = new HashMap<>();

  private TypeNames() {}

  public static TypeNames of(CompilationUnit unit) {
    TypeNames typeNames = new TypeNames();
    String pkg = unit.getPackage() == null ? "" : unit.getPackage().getName().getFullyQualifiedName() + ".";
    unit.accept(new ASTVisitor() {
      private final Deque<String> enclosing = new ArrayDeque<>();
      private final Deque<int[]> counters = new ArrayDeque<>();

      @Override
      public boolean visit(TypeDeclarationStatement node) {
        return true;
      }

      @Override
      public void preVisit(ASTNode node) {
        if (node instanceof AbstractTypeDeclaration type) {
          String syntactic;
          if (enclosing.isEmpty()) {
            syntactic = pkg + type.getName().getIdentifier();
          } else if (type.isLocalTypeDeclaration()) {
            syntactic = enclosing.peekLast() + "$" + (++counters.peekLast()[0]) + type.getName().getIdentifier();
          } else {
            syntactic = enclosing.peek() + "$" + type.getName().getIdentifier();
          }
          enter(node, type.resolveBinding(), syntactic);
        } else if (node instanceof AnonymousClassDeclaration anonymous) {
          // javac numbers anonymous classes per top-level class, in source order
          String syntactic = enclosing.peekLast() + "$" + (++counters.peekLast()[0]);
          enter(node, anonymous.resolveBinding(), syntactic);
        }
      }

      @Override
      public void postVisit(ASTNode node) {
        if (typeNames.names.containsKey(node)) {
          enclosing.pop();
          if (enclosing.isEmpty()) {
            counters.pop();
          }
        }
      }

      private void enter(ASTNode node, ITypeBinding binding, String syntactic) {
        String name = binaryName(binding);
        if (name == null) {
          name = syntactic;
        }
        typeNames.names.put(node, name);
        if (enclosing.isEmpty()) {
          counters.push(new int[1]);
        }
        enclosing.push(name);
      }
    });
    return typeNames;
  }

  /** The binary name of a resolved type, or null when JDT could not work it out. */
  public static String binaryName(ITypeBinding binding) {
    if (binding == null || binding.isRecovered()) {
      return null;
    }
    ITypeBinding erasure = binding.getErasure();
    String name = erasure.getBinaryName();
    return name != null ? name : null;
  }

  /** A class of this unit named as written in the source ({@code Point}, {@code Outer.Inner}, {@code Box<T>}). */
  public java.util.Optional<String> typeNamed(String written) {
    String raw = written.replaceAll("<.*>", "").replace('.', '$');
    return names.values().stream()
        .filter(name -> name.endsWith("." + raw) || name.endsWith("$" + raw))
        .findFirst();
  }

  /** The binary name of a type declaration or anonymous class of this unit. */
  public String nameOf(ASTNode typeNode) {
    return names.get(typeNode);
  }

  /** The binary name of the innermost class around {@code node}. */
  public String enclosingTypeOf(ASTNode node) {
    for (ASTNode n = node; n != null; n = n.getParent()) {
      String name = names.get(n);
      if (name != null) {
        return name;
      }
    }
    return "";
  }
}
