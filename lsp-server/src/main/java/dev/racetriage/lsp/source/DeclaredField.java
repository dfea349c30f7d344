package dev.racetriage.lsp.source;

import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.FieldDeclaration;
import org.eclipse.jdt.core.dom.Modifier;
import org.eclipse.jdt.core.dom.VariableDeclarationFragment;

/**
 * A field declared in a document, with the AST nodes the quick fixes rewrite.
 *
 * @param fieldKey {@code pkg.Outer$Inner.field}
 * @param owner the declaring type
 * @param declaration the whole declaration ({@code private int a, b;})
 * @param fragment this field's fragment ({@code a})
 */
public record DeclaredField(
    String fieldKey, AbstractTypeDeclaration owner, FieldDeclaration declaration, VariableDeclarationFragment fragment) {

  public String name() {
    return fragment.getName().getIdentifier();
  }

  public boolean isVolatile() {
    return Modifier.isVolatile(declaration.getModifiers());
  }

  public boolean isFinal() {
    return Modifier.isFinal(declaration.getModifiers());
  }

  public boolean isStatic() {
    return Modifier.isStatic(declaration.getModifiers());
  }

  /** Offset and length of the field's name: where its diagnostic and code lens go. */
  public int nameOffset() {
    return fragment.getName().getStartPosition();
  }

  public int nameLength() {
    return fragment.getName().getLength();
  }
}
