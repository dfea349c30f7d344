package dev.racetriage.lsp.source;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.ASTVisitor;
import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.AnonymousClassDeclaration;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.jdt.core.dom.FieldDeclaration;
import org.eclipse.jdt.core.dom.TypeDeclarationStatement;
import org.eclipse.jdt.core.dom.VariableDeclarationFragment;

/**
 * The fields a compilation unit declares, keyed by field key. Binary names are computed from the syntax
 * (package + {@code Outer$Inner}); fields of local and anonymous classes are left out because their binary names
 * ({@code Outer$1}) depend on the compiler's numbering, which a syntax tree cannot reproduce reliably.
 */
public final class DeclaredFields {
  private final Map<String, DeclaredField> byKey;

  private DeclaredFields(Map<String, DeclaredField> byKey) {
    this.byKey = byKey;
  }

  public static DeclaredFields of(CompilationUnit unit) {
    String pkg = unit.getPackage() == null ? "" : unit.getPackage().getName().getFullyQualifiedName() + ".";
    Map<String, DeclaredField> fields = new LinkedHashMap<>();
    unit.accept(new ASTVisitor() {
      @Override
      public boolean visit(FieldDeclaration node) {
        if (!(node.getParent() instanceof AbstractTypeDeclaration owner)) {
          return false;
        }
        Optional<String> binaryName = binaryName(owner, pkg);
        if (binaryName.isEmpty()) {
          return false;
        }
        for (Object fragment : node.fragments()) {
          VariableDeclarationFragment f = (VariableDeclarationFragment) fragment;
          String key = binaryName.get() + "." + f.getName().getIdentifier();
          fields.putIfAbsent(key, new DeclaredField(key, owner, node, f));
        }
        return false;
      }
    });
    return new DeclaredFields(fields);
  }

  static Optional<String> binaryName(AbstractTypeDeclaration type, String pkg) {
    List<String> names = new ArrayList<>();
    ASTNode node = type;
    while (node != null) {
      if (node instanceof AbstractTypeDeclaration t) {
        names.add(0, t.getName().getIdentifier());
      } else if (node instanceof AnonymousClassDeclaration || node instanceof TypeDeclarationStatement) {
        return Optional.empty();
      }
      node = node.getParent();
    }
    return Optional.of(pkg + String.join("$", names));
  }

  public Optional<DeclaredField> get(String fieldKey) {
    String key = fieldKey.endsWith("[]") || fieldKey.endsWith("{}") ? fieldKey.substring(0, fieldKey.length() - 2) : fieldKey;
    return Optional.ofNullable(byKey.get(key));
  }

  public List<DeclaredField> all() {
    return List.copyOf(byKey.values());
  }

  /** The field whose declaration covers {@code offset}, e.g. the cursor on {@code private int hits;}. */
  public Optional<DeclaredField> declaredAt(int offset) {
    return byKey.values().stream()
        .filter(f -> offset >= f.declaration().getStartPosition()
            && offset <= f.declaration().getStartPosition() + f.declaration().getLength())
        .filter(f -> f.declaration().fragments().size() == 1
            || (offset >= f.fragment().getStartPosition()
                && offset <= f.fragment().getStartPosition() + f.fragment().getLength()))
        .findFirst();
  }
}
