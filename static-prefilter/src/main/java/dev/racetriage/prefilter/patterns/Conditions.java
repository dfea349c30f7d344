package dev.racetriage.prefilter.patterns;

import dev.racetriage.prefilter.facts.Access;
import dev.racetriage.prefilter.parse.Expressions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.Block;
import org.eclipse.jdt.core.dom.BooleanLiteral;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.FieldAccess;
import org.eclipse.jdt.core.dom.InfixExpression;
import org.eclipse.jdt.core.dom.Name;
import org.eclipse.jdt.core.dom.NullLiteral;
import org.eclipse.jdt.core.dom.NumberLiteral;
import org.eclipse.jdt.core.dom.PrefixExpression;
import org.eclipse.jdt.core.dom.SimpleName;
import org.eclipse.jdt.core.dom.Statement;
import org.eclipse.jdt.core.dom.VariableDeclarationFragment;
import org.eclipse.jdt.core.dom.VariableDeclarationStatement;

/** Reading the tests of if- and while-statements: which fields a condition checks, and how. */
final class Conditions {

  private Conditions() {}

  /**
   * Fields a condition compares with their default value ({@code f == null}, {@code f == 0}, {@code !f}), directly
   * or through a local copy made just before ({@code int h = hash; if (h == 0)}).
   */
  static Set<String> defaultTests(Expression condition, Statement statement, AccessIndex index) {
    Map<String, String> copies = localCopies(statement, index);
    Set<String> tested = new TreeSet<>();
    collectDefaultTests(Expressions.strip(condition), copies, index, tested);
    return tested;
  }

  private static void collectDefaultTests(Expression e, Map<String, String> copies, AccessIndex index,
      Set<String> tested) {
    if (e instanceof InfixExpression infix) {
      InfixExpression.Operator op = infix.getOperator();
      if (op == InfixExpression.Operator.CONDITIONAL_AND || op == InfixExpression.Operator.CONDITIONAL_OR) {
        collectDefaultTests(Expressions.strip(infix.getLeftOperand()), copies, index, tested);
        collectDefaultTests(Expressions.strip(infix.getRightOperand()), copies, index, tested);
        return;
      }
      if (op == InfixExpression.Operator.EQUALS || op == InfixExpression.Operator.NOT_EQUALS) {
        Expression left = Expressions.strip(infix.getLeftOperand());
        Expression right = Expressions.strip(infix.getRightOperand());
        if (isDefaultLiteral(right)) {
          fieldOf(left, copies, index).ifPresent(tested::add);
        } else if (isDefaultLiteral(left)) {
          fieldOf(right, copies, index).ifPresent(tested::add);
        }
      }
    } else if (e instanceof PrefixExpression prefix && prefix.getOperator() == PrefixExpression.Operator.NOT) {
      fieldOf(Expressions.strip(prefix.getOperand()), copies, index).ifPresent(tested::add);
    }
  }

  /** The field a plain flag test reads: {@code f}, {@code !f}, {@code f == x}, {@code f != x} with x a literal. */
  static java.util.Optional<String> flagTest(Expression condition, AccessIndex index) {
    Expression e = Expressions.strip(condition);
    if (e instanceof PrefixExpression prefix && prefix.getOperator() == PrefixExpression.Operator.NOT) {
      e = Expressions.strip(prefix.getOperand());
    }
    if (e instanceof InfixExpression infix && infix.extendedOperands().isEmpty()
        && (infix.getOperator() == InfixExpression.Operator.EQUALS
            || infix.getOperator() == InfixExpression.Operator.NOT_EQUALS)) {
      Expression left = Expressions.strip(infix.getLeftOperand());
      Expression right = Expressions.strip(infix.getRightOperand());
      if (isLiteral(right)) {
        e = left;
      } else if (isLiteral(left)) {
        e = right;
      } else {
        return java.util.Optional.empty();
      }
    }
    return fieldOf(e, Map.of(), index);
  }

  /** The field an expression is, when it is nothing but a field read ({@code f}, {@code this.f}, {@code o.f}). */
  static java.util.Optional<String> fieldOf(Expression e, Map<String, String> copies, AccessIndex index) {
    if (e instanceof SimpleName simple && copies.containsKey(simple.getIdentifier())) {
      return java.util.Optional.of(copies.get(simple.getIdentifier()));
    }
    if (!(e instanceof Name || e instanceof FieldAccess)) {
      return java.util.Optional.empty();
    }
    List<Access> inside = index.within(e);
    if (inside.isEmpty()) {
      return java.util.Optional.empty();
    }
    // o.f reads o then f: the field the expression denotes is the last one
    return java.util.Optional.of(inside.get(inside.size() - 1).fieldKey());
  }

  /** {@code T local = field;} statements before {@code statement} in its block. */
  private static Map<String, String> localCopies(Statement statement, AccessIndex index) {
    Map<String, String> copies = new HashMap<>();
    ASTNode parent = statement.getParent();
    if (!(parent instanceof Block block)) {
      return copies;
    }
    for (Object o : block.statements()) {
      if (o == statement) {
        break;
      }
      if (o instanceof VariableDeclarationStatement declaration) {
        for (Object f : declaration.fragments()) {
          VariableDeclarationFragment fragment = (VariableDeclarationFragment) f;
          if (fragment.getInitializer() != null) {
            fieldOf(Expressions.strip(fragment.getInitializer()), Map.of(), index)
                .ifPresent(key -> copies.put(fragment.getName().getIdentifier(), key));
          }
        }
      }
    }
    return copies;
  }

  private static boolean isDefaultLiteral(Expression e) {
    if (e instanceof NullLiteral) {
      return true;
    }
    if (e instanceof BooleanLiteral bool) {
      return !bool.booleanValue();
    }
    if (e instanceof NumberLiteral number) {
      String token = number.getToken().toLowerCase(java.util.Locale.ROOT).replaceAll("[ldf_]", "");
      return token.matches("0+(\\.0*)?|0x0+");
    }
    return false;
  }

  private static boolean isLiteral(Expression e) {
    return e instanceof NullLiteral || e instanceof BooleanLiteral || e instanceof NumberLiteral
        || e instanceof org.eclipse.jdt.core.dom.CharacterLiteral || e instanceof org.eclipse.jdt.core.dom.StringLiteral
        || (e instanceof Name name && name.getFullyQualifiedName().matches(".*\\b[A-Z][A-Z0-9_]*$"));
  }
}
