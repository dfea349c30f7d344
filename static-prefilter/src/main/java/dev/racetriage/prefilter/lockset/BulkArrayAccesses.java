package dev.racetriage.prefilter.lockset;

import dev.racetriage.prefilter.facts.AccessKind;
import java.util.Set;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.IMethodBinding;
import org.eclipse.jdt.core.dom.MethodInvocation;

/**
 * JDK calls that read or write the elements of an array they are given — as the agent models them at their call
 * sites ({@code System.arraycopy} reads its source and writes its destination, {@code Arrays.fill/sort/setAll} write,
 * copies, comparisons and {@code clone()} read) — so {@code System.arraycopy(samples, 0, copy, 0, n)} on an array
 * field is an element access of {@code samples[]}.
 */
final class BulkArrayAccesses {
  private static final Set<String> ARRAYS_WRITES = Set.of("fill", "sort", "parallelSort", "setAll",
      "parallelSetAll", "parallelPrefix");
  private static final Set<String> ARRAYS_READS = Set.of("copyOf", "copyOfRange", "equals", "deepEquals",
      "hashCode", "deepHashCode", "toString", "deepToString", "binarySearch", "mismatch", "compare",
      "compareUnsigned");

  private BulkArrayAccesses() {
  }

  /** How the call {@code expression} is an argument or receiver of touches the array's elements, or null. */
  static AccessKind kindOf(ASTNode expression) {
    if (!(expression.getParent() instanceof MethodInvocation call)) {
      return null;
    }
    IMethodBinding method = call.resolveMethodBinding();
    if (method == null || method.getDeclaringClass() == null) {
      return null;
    }
    String owner = method.getDeclaringClass().getErasure().getQualifiedName();
    String name = call.getName().getIdentifier();
    if (call.getExpression() == expression) {
      org.eclipse.jdt.core.dom.ITypeBinding receiver = call.getExpression().resolveTypeBinding();
      boolean arrayClone = name.equals("clone") && call.arguments().isEmpty() && receiver != null && receiver.isArray();
      return arrayClone ? AccessKind.READ : null;
    }
    int position = call.arguments().indexOf(expression);
    if (position < 0) {
      return null;
    }
    if (owner.equals("java.lang.System") && name.equals("arraycopy")) {
      return position == 0 ? AccessKind.READ : position == 2 ? AccessKind.WRITE : null;
    }
    if (owner.equals("java.util.Arrays")) {
      if (ARRAYS_WRITES.contains(name) && position == 0) {
        return AccessKind.WRITE;
      }
      if (ARRAYS_READS.contains(name)) {
        return AccessKind.READ;
      }
    }
    return null;
  }
}
