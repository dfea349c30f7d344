package dev.racetriage.lsp.codeactions;

import dev.racetriage.lsp.source.DeclaredField;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.ASTVisitor;
import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.Annotation;
import org.eclipse.jdt.core.dom.AnonymousClassDeclaration;
import org.eclipse.jdt.core.dom.Assignment;
import org.eclipse.jdt.core.dom.BreakStatement;
import org.eclipse.jdt.core.dom.ContinueStatement;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.ExpressionMethodReference;
import org.eclipse.jdt.core.dom.FieldAccess;
import org.eclipse.jdt.core.dom.LabeledStatement;
import org.eclipse.jdt.core.dom.LambdaExpression;
import org.eclipse.jdt.core.dom.MemberValuePair;
import org.eclipse.jdt.core.dom.MethodInvocation;
import org.eclipse.jdt.core.dom.Name;
import org.eclipse.jdt.core.dom.PostfixExpression;
import org.eclipse.jdt.core.dom.PrefixExpression;
import org.eclipse.jdt.core.dom.QualifiedName;
import org.eclipse.jdt.core.dom.SimpleName;
import org.eclipse.jdt.core.dom.StructuralPropertyDescriptor;
import org.eclipse.jdt.core.dom.SuperFieldAccess;
import org.eclipse.jdt.core.dom.SuperMethodInvocation;
import org.eclipse.jdt.core.dom.SuperMethodReference;
import org.eclipse.jdt.core.dom.ThisExpression;
import org.eclipse.jdt.core.dom.Type;
import org.eclipse.jdt.core.dom.TypeDeclarationStatement;
import org.eclipse.jdt.core.dom.TypeMethodReference;
import org.eclipse.jdt.core.dom.VariableDeclaration;

/**
 * The references to one field inside a code body, found from the syntax alone: {@code f}, {@code this.f},
 * {@code Owner.this.f} and (static) {@code Owner.f}. Without bindings, a local or parameter of the same name would
 * make a bare {@code f} ambiguous, so {@link #shadowed} reports it and callers stay away.
 */
final class FieldReferences {

  /**
   * @param expression the node to replace ({@code f}, {@code this.f}, {@code Owner.f})
   * @param write assigned, compound-assigned, incremented or decremented
   * @param nested inside a lambda, anonymous or local class, which runs at another time than the body itself
   */
  record Reference(Expression expression, boolean write, boolean nested) {}

  private static final Set<StructuralPropertyDescriptor> NOT_A_VARIABLE = Set.of(
      MethodInvocation.NAME_PROPERTY, SuperMethodInvocation.NAME_PROPERTY, SuperFieldAccess.NAME_PROPERTY,
      LabeledStatement.LABEL_PROPERTY, BreakStatement.LABEL_PROPERTY, ContinueStatement.LABEL_PROPERTY,
      MemberValuePair.NAME_PROPERTY, ExpressionMethodReference.NAME_PROPERTY, TypeMethodReference.NAME_PROPERTY,
      SuperMethodReference.NAME_PROPERTY);

  private FieldReferences() {}

  static List<Reference> in(ASTNode body, DeclaredField field) {
    List<Reference> references = new ArrayList<>();
    String name = field.name();
    String owner = field.owner().getName().getIdentifier();
    body.accept(new ASTVisitor() {
      @Override
      public boolean visit(SimpleName node) {
        if (!node.getIdentifier().equals(name) || node.isDeclaration()) {
          return false;
        }
        Expression expression = referenceExpression(node, owner, field.isStatic());
        if (expression != null) {
          references.add(new Reference(expression, isWrite(expression), isNested(expression, body)));
        }
        return false;
      }
    });
    return references;
  }

  /** Whether a variable of the field's name is declared in the body (or as a parameter of it). */
  static boolean shadowed(ASTNode executable, String name) {
    boolean[] found = {false};
    executable.accept(new ASTVisitor() {
      @Override
      public void endVisit(SimpleName node) {
        if (node.isDeclaration() && node.getIdentifier().equals(name) && node.getParent() instanceof VariableDeclaration) {
          found[0] = true;
        }
      }
    });
    return found[0];
  }

  private static Expression referenceExpression(SimpleName node, String owner, boolean isStatic) {
    StructuralPropertyDescriptor location = node.getLocationInParent();
    ASTNode parent = node.getParent();
    if (NOT_A_VARIABLE.contains(location) || parent instanceof Type || parent instanceof Annotation) {
      return null;
    }
    if (location == FieldAccess.NAME_PROPERTY) {
      FieldAccess access = (FieldAccess) parent;
      if (access.getExpression() instanceof ThisExpression self
          && (self.getQualifier() == null || lastIdentifier(self.getQualifier()).equals(owner))) {
        return access;
      }
      return null; // other.f: another object's field
    }
    if (location == QualifiedName.NAME_PROPERTY) {
      QualifiedName qualified = (QualifiedName) parent;
      return isStatic && lastIdentifier(qualified.getQualifier()).equals(owner) ? qualified : null;
    }
    return node;
  }

  private static String lastIdentifier(Name name) {
    return name.isSimpleName() ? ((SimpleName) name).getIdentifier() : ((QualifiedName) name).getName().getIdentifier();
  }

  private static boolean isWrite(Expression expression) {
    ASTNode parent = expression.getParent();
    if (parent instanceof Assignment assignment) {
      return assignment.getLeftHandSide() == expression;
    }
    if (parent instanceof PrefixExpression prefix) {
      return prefix.getOperator() == PrefixExpression.Operator.INCREMENT
          || prefix.getOperator() == PrefixExpression.Operator.DECREMENT;
    }
    return parent instanceof PostfixExpression;
  }

  private static boolean isNested(ASTNode node, ASTNode body) {
    for (ASTNode n = node.getParent(); n != null && n != body; n = n.getParent()) {
      if (n instanceof LambdaExpression || n instanceof AnonymousClassDeclaration
          || n instanceof TypeDeclarationStatement || n instanceof AbstractTypeDeclaration) {
        return true;
      }
    }
    return false;
  }
}
