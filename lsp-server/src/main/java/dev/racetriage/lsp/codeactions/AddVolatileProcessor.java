package dev.racetriage.lsp.codeactions;

import dev.racetriage.lsp.source.DeclaredField;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jdt.core.dom.AST;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.FieldDeclaration;
import org.eclipse.jdt.core.dom.Modifier;
import org.eclipse.jdt.core.dom.VariableDeclarationFragment;
import org.eclipse.jdt.core.dom.rewrite.ASTRewrite;
import org.eclipse.jdt.core.dom.rewrite.ListRewrite;
import org.eclipse.lsp4j.CodeAction;

/**
 * "Add volatile to `f`": the fix for double-checked locking and busy-wait flags, and a visibility fix for any racy
 * field. A declaration of several fields ({@code int a, b;}) is split so only {@code f} becomes volatile.
 */
public final class AddVolatileProcessor implements QuickFixProcessor {
  /** Patterns for which volatile is the fix, not just a possibility: the action is marked preferred. */
  private static final Set<String> VOLATILE_FIXES = Set.of("double-checked-locking", "busy-wait");

  @Override
  public List<CodeAction> actions(QuickFixContext context) {
    Optional<DeclaredField> field = context.declaration();
    if (field.isEmpty() || field.get().isVolatile() || field.get().isFinal()) {
      return List.of();
    }
    ASTRewrite rewrite = rewrite(field.get());
    boolean preferred = VOLATILE_FIXES.contains(context.target().finding().code());
    return List.of(QuickFixes.edit("Add volatile to `" + field.get().name() + "`", context, rewrite, preferred));
  }

  static ASTRewrite rewrite(DeclaredField field) {
    FieldDeclaration declaration = field.declaration();
    AST ast = declaration.getAST();
    ASTRewrite rewrite = ASTRewrite.create(ast);
    if (declaration.fragments().size() == 1) {
      ListRewrite modifiers = rewrite.getListRewrite(declaration, FieldDeclaration.MODIFIERS2_PROPERTY);
      // Java's customary order puts volatile after access, static and transient: last among the keywords
      modifiers.insertLast(ast.newModifier(Modifier.ModifierKeyword.VOLATILE_KEYWORD), null);
      return rewrite;
    }
    VariableDeclarationFragment moved = (VariableDeclarationFragment) rewrite.createMoveTarget(field.fragment());
    FieldDeclaration own = ast.newFieldDeclaration(moved);
    own.setType((org.eclipse.jdt.core.dom.Type) ASTNode.copySubtree(ast, declaration.getType()));
    @SuppressWarnings("unchecked")
    List<Object> ownModifiers = own.modifiers();
    for (Object modifier : declaration.modifiers()) {
      ownModifiers.add(ASTNode.copySubtree(ast, (ASTNode) modifier));
    }
    ownModifiers.add(ast.newModifier(Modifier.ModifierKeyword.VOLATILE_KEYWORD));
    rewrite.getListRewrite(declaration, FieldDeclaration.FRAGMENTS_PROPERTY).remove(field.fragment(), null);
    rewrite.getListRewrite(field.owner(), field.owner().getBodyDeclarationsProperty())
        .insertAfter(own, declaration, null);
    return rewrite;
  }
}
