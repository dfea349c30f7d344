package dev.racetriage.lsp.codeactions;

import dev.racetriage.lsp.codeactions.FieldReferences.Reference;
import dev.racetriage.lsp.documents.LineIndex;
import dev.racetriage.lsp.source.DeclaredField;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.eclipse.jdt.core.dom.AST;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.Block;
import org.eclipse.jdt.core.dom.DoStatement;
import org.eclipse.jdt.core.dom.EnhancedForStatement;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.FieldAccess;
import org.eclipse.jdt.core.dom.ForStatement;
import org.eclipse.jdt.core.dom.Initializer;
import org.eclipse.jdt.core.dom.MethodDeclaration;
import org.eclipse.jdt.core.dom.NodeFinder;
import org.eclipse.jdt.core.dom.Statement;
import org.eclipse.jdt.core.dom.SynchronizedStatement;
import org.eclipse.jdt.core.dom.Type;
import org.eclipse.jdt.core.dom.VariableDeclarationFragment;
import org.eclipse.jdt.core.dom.VariableDeclarationStatement;
import org.eclipse.jdt.core.dom.WhileStatement;
import org.eclipse.jdt.core.dom.rewrite.ASTRewrite;
import org.eclipse.lsp4j.CodeAction;

/**
 * "Make local copy of `f`": the fix for check-then-act. In the method around the cursor, the field is read once into
 * a local just before the first statement that reads it, and every read uses the local, so the test and the use see
 * the same value. Offered only where that keeps the method's meaning apart from the race itself:
 * <ul>
 *   <li>the field is read at least twice and never written in the method;
 *   <li>no read is inside a loop or a {@code synchronized} block below the insertion point (a busy-wait must keep
 *       re-reading; a read under a lock must stay under it);
 *   <li>no read is inside a lambda or a nested class (they run at another time);
 *   <li>no local or parameter has the field's name (the syntax alone could not tell them apart).
 * </ul>
 * Calls in between that might write the field on the same thread are not followed: the fix is offered, and its title
 * says what it does.
 */
public final class LocalCopyProcessor implements QuickFixProcessor {

  @Override
  public List<CodeAction> actions(QuickFixContext context) {
    Optional<DeclaredField> field = context.declaration();
    if (field.isEmpty() || field.get().fragment().getExtraDimensions() > 0) {
      return List.of();
    }
    LineIndex lines = context.document().lines();
    int offset = lines.offset(context.range().getStart());
    int end = lines.offset(context.range().getEnd());
    ASTNode covering = NodeFinder.perform(context.unit(), offset, Math.max(0, end - offset));
    Optional<Block> body = enclosingBody(covering, field.get());
    if (body.isEmpty()) {
      return List.of();
    }
    return plan(body.get(), field.get())
        .map(rewrite -> List.of(QuickFixes.edit("Make local copy of `" + field.get().name() + "`", context, rewrite,
            "check-then-act".equals(context.target().finding().code()))))
        .orElse(List.of());
  }

  /** The body of the method or initializer around the cursor, if it belongs to the field's own class. */
  private static Optional<Block> enclosingBody(ASTNode node, DeclaredField field) {
    for (ASTNode n = node; n != null; n = n.getParent()) {
      if (n instanceof MethodDeclaration method) {
        return method.getBody() != null && method.getParent() == field.owner()
            ? Optional.of(method.getBody()) : Optional.empty();
      }
      if (n instanceof Initializer initializer) {
        return initializer.getParent() == field.owner() ? Optional.of(initializer.getBody()) : Optional.empty();
      }
      if (n instanceof AbstractTypeDeclaration) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  static Optional<ASTRewrite> plan(Block body, DeclaredField field) {
    if (FieldReferences.shadowed(body.getParent(), field.name())) {
      return Optional.empty();
    }
    List<Reference> references = FieldReferences.in(body, field);
    if (references.size() < 2 || references.stream().anyMatch(r -> r.write() || r.nested())) {
      return Optional.empty();
    }
    List<Expression> reads = references.stream().map(Reference::expression)
        .sorted(Comparator.comparingInt(ASTNode::getStartPosition)).toList();
    Block block = commonBlock(reads);
    Statement anchor = statementIn(block, reads.get(0));
    for (Expression read : reads) {
      if (reexecutedOrLocked(read, block)) {
        return Optional.empty();
      }
    }
    AST ast = body.getAST();
    ASTRewrite rewrite = ASTRewrite.create(ast);
    VariableDeclarationFragment local = ast.newVariableDeclarationFragment();
    local.setName(ast.newSimpleName(field.name()));
    local.setInitializer(fieldRead(ast, field));
    VariableDeclarationStatement declaration = ast.newVariableDeclarationStatement(local);
    declaration.setType((Type) ASTNode.copySubtree(ast, field.declaration().getType()));
    rewrite.getListRewrite(block, Block.STATEMENTS_PROPERTY).insertBefore(declaration, anchor, null);
    for (Expression read : reads) {
      rewrite.replace(read, ast.newSimpleName(field.name()), null);
    }
    return Optional.of(rewrite);
  }

  /** {@code this.f} or {@code Owner.f}: the local takes the field's name, so the initializer must be qualified. */
  private static Expression fieldRead(AST ast, DeclaredField field) {
    if (field.isStatic()) {
      return ast.newQualifiedName(ast.newSimpleName(field.owner().getName().getIdentifier()),
          ast.newSimpleName(field.name()));
    }
    FieldAccess access = ast.newFieldAccess();
    access.setExpression(ast.newThisExpression());
    access.setName(ast.newSimpleName(field.name()));
    return access;
  }

  /** The innermost block that contains every read. */
  private static Block commonBlock(List<Expression> reads) {
    for (ASTNode n = reads.get(0).getParent(); n != null; n = n.getParent()) {
      if (n instanceof Block block && reads.stream().allMatch(r -> contains(block, r))) {
        return block;
      }
    }
    throw new IllegalStateException("reads of one method body always share its block");
  }

  private static boolean contains(ASTNode outer, ASTNode inner) {
    return inner.getStartPosition() >= outer.getStartPosition()
        && inner.getStartPosition() + inner.getLength() <= outer.getStartPosition() + outer.getLength();
  }

  /** The statement of {@code block} that contains {@code node}. */
  private static Statement statementIn(Block block, ASTNode node) {
    ASTNode n = node;
    while (n.getParent() != block) {
      n = n.getParent();
    }
    return (Statement) n;
  }

  private static boolean reexecutedOrLocked(ASTNode read, Block block) {
    for (ASTNode n = read.getParent(); n != null && n != block; n = n.getParent()) {
      if (n instanceof WhileStatement || n instanceof DoStatement || n instanceof ForStatement
          || n instanceof EnhancedForStatement || n instanceof SynchronizedStatement) {
        return true;
      }
    }
    return false;
  }
}
