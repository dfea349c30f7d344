package dev.racetriage.prefilter.annotations;

import java.util.List;
import java.util.Optional;
import org.eclipse.jdt.core.dom.Annotation;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.MemberValuePair;
import org.eclipse.jdt.core.dom.NormalAnnotation;
import org.eclipse.jdt.core.dom.SingleMemberAnnotation;
import org.eclipse.jdt.core.dom.StringLiteral;

/**
 * Reads the concurrency annotations by simple name, whatever their package (JCIP {@code net.jcip.annotations},
 * {@code javax.annotation.concurrent}, Error Prone's {@code com.google.errorprone.annotations.concurrent}, Android's,
 * a project's own): a missing classpath must not make them invisible.
 */
public final class ConcurrencyAnnotations {

  public static final String GUARDED_BY = "GuardedBy";
  public static final String THREAD_SAFE = "ThreadSafe";
  public static final String NOT_THREAD_SAFE = "NotThreadSafe";
  public static final String THREAD_CONFINED = "ThreadConfined";

  private ConcurrencyAnnotations() {}

  /** Whether the modifiers of a declaration carry an annotation with this simple name. */
  public static boolean has(List<?> modifiers, String simpleName) {
    return find(modifiers, simpleName).isPresent();
  }

  /** The lock named by {@code @GuardedBy("...")} among the modifiers, if any. */
  public static Optional<String> guardedBy(List<?> modifiers) {
    return find(modifiers, GUARDED_BY).flatMap(ConcurrencyAnnotations::value);
  }

  private static Optional<Annotation> find(List<?> modifiers, String simpleName) {
    for (Object modifier : modifiers) {
      if (modifier instanceof Annotation annotation) {
        String name = annotation.getTypeName().getFullyQualifiedName();
        String simple = name.substring(name.lastIndexOf('.') + 1);
        if (simple.equals(simpleName)) {
          return Optional.of(annotation);
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<String> value(Annotation annotation) {
    if (annotation instanceof SingleMemberAnnotation single) {
      return literal(single.getValue());
    }
    if (annotation instanceof NormalAnnotation normal) {
      for (Object pair : normal.values()) {
        MemberValuePair member = (MemberValuePair) pair;
        if (member.getName().getIdentifier().equals("value")) {
          return literal(member.getValue());
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<String> literal(Expression value) {
    return value instanceof StringLiteral string ? Optional.of(string.getLiteralValue().trim()) : Optional.empty();
  }
}
