package dev.racetriage.prefilter.lockset;

import dev.racetriage.contract.ContainerContract;
import dev.racetriage.prefilter.facts.AccessKind;
import java.util.List;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.Assignment;
import org.eclipse.jdt.core.dom.ClassInstanceCreation;
import org.eclipse.jdt.core.dom.EnhancedForStatement;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.IMethodBinding;
import org.eclipse.jdt.core.dom.ITypeBinding;
import org.eclipse.jdt.core.dom.MethodInvocation;
import org.eclipse.jdt.core.dom.NullLiteral;
import org.eclipse.jdt.core.dom.ParenthesizedExpression;

/**
 * Calls on the JDK's unsynchronised containers, read off the source with the table the agent reads off bytecode
 * ({@link ContainerContract}): {@code cache.put(k, v)} on a field holding a {@code HashMap} writes the pseudo-field
 * {@code pkg.Cls.cache{}}, {@code cache.get(k)} reads it, as the agent names a container race. The receiver's static
 * type decides (as javac's call owner does for the agent); a container the call copies or compares
 * ({@code new ArrayList<>(tags)}, {@code addAll(tags)}, {@code String.join(", ", tags)}) is read,
 * {@code Collections.sort(tags)} writes it, and {@code for (String t : tags)} reads it (its {@code iterator()}).
 *
 * <p>Which fields hold such a container ({@link #holds}): one declared as a modelled class ({@code HashMap},
 * {@code StringBuilder}, {@code SimpleDateFormat}), or declared as an interface the table names ({@code Map},
 * {@code List}, {@code DateFormat}) and only ever assigned {@code new} modelled classes; a field that is ever assigned
 * anything else ({@code new ConcurrentHashMap<>()}, {@code Collections.synchronizedMap(..)}, a parameter) is not
 * judged, as the agent would not model what it may hold.
 */
final class ContainerCalls {
  /** What a field is seen to hold, merged over its initialiser and every assignment in the file. */
  enum Held {
    /** Nothing assigned yet (an interface-typed field). */
    UNKNOWN,
    /** Only {@code new} modelled classes assigned. */
    UNSYNCHRONISED,
    /** Something else assigned: not modelled. */
    OTHER;

    Held and(Held other) {
      return this == UNKNOWN ? other : other == UNKNOWN || other == this ? this : OTHER;
    }
  }

  private ContainerCalls() {
  }

  /** Whether a value of this static type may be a modelled container (its calls are then container calls). */
  static boolean mayHold(ITypeBinding type) {
    return type != null && ContainerContract.mayHold(internalName(type));
  }

  /** What a field of {@code declared} type holds, from its declared type alone. */
  static Held declared(ITypeBinding declared) {
    if (declared == null || !mayHold(declared)) {
      return Held.OTHER;
    }
    return ContainerContract.isModelledClass(declared.getErasure().getBinaryName()) ? Held.UNSYNCHRONISED
        : Held.UNKNOWN;
  }

  /** What assigning {@code value} to the field makes it hold. */
  static Held assigned(Expression value) {
    while (value instanceof ParenthesizedExpression parenthesized) {
      value = parenthesized.getExpression();
    }
    if (value instanceof NullLiteral) {
      return Held.UNKNOWN;
    }
    if (value instanceof ClassInstanceCreation creation && creation.getAnonymousClassDeclaration() == null) {
      ITypeBinding type = creation.resolveTypeBinding();
      if (type != null && ContainerContract.isModelledClass(type.getErasure().getBinaryName())) {
        return Held.UNSYNCHRONISED;
      }
    }
    return Held.OTHER;
  }

  /** The value {@code expression} (a field reference) is assigned, when it is the left-hand side of {@code =}. */
  static Expression assignedValue(ASTNode expression) {
    ASTNode parent = expression.getParent();
    return parent instanceof Assignment assignment && assignment.getLeftHandSide() == expression
        && assignment.getOperator() == Assignment.Operator.ASSIGN ? assignment.getRightHandSide() : null;
  }

  /** How the call (or loop) {@code expression} — a reference to a container field — takes part in touches it. */
  static AccessKind kindOf(ASTNode expression) {
    ASTNode parent = expression.getParent();
    if (parent instanceof EnhancedForStatement loop && loop.getExpression() == expression) {
      return AccessKind.READ; // its iterator()
    }
    if (parent instanceof MethodInvocation call) {
      IMethodBinding method = call.resolveMethodBinding();
      if (call.getExpression() == expression) {
        ITypeBinding receiver = call.getExpression().resolveTypeBinding();
        return receiver == null ? null
            : kind(ContainerContract.access(internalName(receiver), call.getName().getIdentifier()));
      }
      if (method == null || method.getDeclaringClass() == null) {
        return null;
      }
      boolean isStatic = java.lang.reflect.Modifier.isStatic(method.getModifiers());
      ITypeBinding owner = isStatic || call.getExpression() == null ? method.getDeclaringClass()
          : call.getExpression().resolveTypeBinding();
      return argument(isStatic ? 's' : 'i', owner, call.getName().getIdentifier(), call.arguments(), expression,
          method);
    }
    if (parent instanceof ClassInstanceCreation creation) {
      IMethodBinding constructor = creation.resolveConstructorBinding();
      return constructor == null ? null : argument('c', constructor.getDeclaringClass(), "<init>",
          creation.arguments(), expression, constructor);
    }
    return null;
  }

  private static AccessKind argument(char kind, ITypeBinding owner, String name, List<?> arguments,
      ASTNode expression, IMethodBinding method) {
    int index = arguments.indexOf(expression);
    ITypeBinding[] parameters = method.getMethodDeclaration().getParameterTypes();
    if (owner == null || index < 0 || index >= parameters.length) {
      return null;
    }
    return kind(ContainerContract.argumentAccess(kind, internalName(owner), name, index,
        internalName(parameters[index])));
  }

  private static AccessKind kind(int access) {
    return access == ContainerContract.WRITE ? AccessKind.WRITE
        : access == ContainerContract.READ ? AccessKind.READ : null;
  }

  private static String internalName(ITypeBinding type) {
    ITypeBinding erasure = type.getErasure();
    String binary = erasure.getBinaryName();
    return binary == null ? "" : binary.replace('.', '/');
  }
}
