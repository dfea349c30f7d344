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
 * the same value. On the field's declaration (where its diagnostic is) it is offered once for each method of the class
 * where it applies, up to {@link #MAX_METHODS}: "Make local copy of `f` in `m()`". Offered only where that keeps the
 * method's meaning apart from the race itself:
 * <ul>
 *   <li>the field is read at least twice and never written in the method;
 *   <li>no read is inside a loop or a {@code synchronized} block below the insertion point (a busy-wait must keep
 *       re-reading; a read under a lock must stay under it). When the reads of the whole method cannot share a copy,
 *       the reads of the outermost block that can (a loop's body: a fresh copy each round) share one there;
 *   <li>no read is inside a lambda or a nested class (they run at another time);
 *   <li>no local or parameter has the field's name (the syntax alone could not tell them apart).
 * </ul>
 * Calls in between that might write the field on the same thread are not followed: the fix is offered, and its title
 * says what it does.
 */
public final class LocalCopyProcessor implements QuickFixProcessor {

  /** Methods offered a copy from the declaration at most: a quick-fix menu is not a report. */
  static final int MAX_METHODS = 4;

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
    if (within(covering, field.get().declaration())) {
      return fromDeclaration(context, field.get());
    }
    Optional<Block> body = enclosingBody(covering, field.get());
    if (body.isEmpty()) {
      return List.of();
    }
    return plan(body.get(), field.get())
        .map(rewrite -> List.of(QuickFixes.edit("Make local copy of `" + field.get().name() + "`", context, rewrite,
            "check-then-act".equals(context.target().finding().code()))))
        .orElse(List.of());
  }

  /** One action per method of the field's class whose reads can share a copy, in source order. */
  private static List<CodeAction> fromDeclaration(QuickFixContext context, DeclaredField field) {
    List<CodeAction> actions = new java.util.ArrayList<>();
    boolean preferred = "check-then-act".equals(context.target().finding().code());
    for (Object member : field.owner().bodyDeclarations()) {
      if (actions.size() == MAX_METHODS) break;
      if (member instanceof MethodDeclaration method && method.getBody() != null) {
        plan(method.getBody(), field).ifPresent(rewrite -> actions.add(QuickFixes.edit("Make local copy of `"
            + field.name() + "` in `" + method.getName().getIdentifier() + "()`", context, rewrite,
            preferred && actions.isEmpty())));
      }
    }
    return actions;
  }

  private static boolean within(ASTNode node, ASTNode outer) {
    for (ASTNode n = node; n != null; n = n.getParent()) {
      if (n == outer) return true;
    }
    return false;
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
    List<Expression> all = references.stream().map(Reference::expression)
        .sorted(Comparator.comparingInt(ASTNode::getStartPosition)).toList();
    // the whole body first; else the outermost block whose reads can share a copy (a loop body: one per round)
    for (Block candidate : blocksOutermostFirst(body)) {
      List<Expression> reads = all.stream().filter(r -> contains(candidate, r)).toList();
      if (reads.size() < 2) continue;
      Block block = commonBlock(reads);
      if (reads.stream().noneMatch(read -> reexecutedOrLocked(read, block))) {
        return Optional.of(copy(body, field, block, reads));
      }
    }
    return Optional.empty();
  }

  private static List<Block> blocksOutermostFirst(Block body) {
    List<Block> blocks = new java.util.ArrayList<>();
    body.accept(new org.eclipse.jdt.core.dom.ASTVisitor() {
      @Override
      public boolean visit(Block node) {
        blocks.add(node);
        return true;
      }
    });
    return blocks;
  }

  private static ASTRewrite copy(Block body, DeclaredField field, Block block, List<Expression> reads) {
    Statement anchor = statementIn(block, reads.get(0));
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
    return rewrite;
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
