package dev.racetriage.prefilter.lockset;

import dev.racetriage.prefilter.facts.HeldLock;
import dev.racetriage.prefilter.facts.LockAlias;
import dev.racetriage.prefilter.facts.LockMode;
import dev.racetriage.prefilter.parse.Expressions;
import dev.racetriage.prefilter.parse.FieldNames;
import dev.racetriage.prefilter.parse.TypeNames;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.ITypeBinding;
import org.eclipse.jdt.core.dom.MethodInvocation;
import org.eclipse.jdt.core.dom.ThisExpression;
import org.eclipse.jdt.core.dom.TypeLiteral;

/**
 * Gives locks an identity: the monitor of {@code synchronized (e)}, the receiver of {@code l.lock()}, the value of
 * {@code @GuardedBy("...")}. The same lock gets the same id wherever it is named ({@code this} inside {@code C} and
 * {@code C.this} inside an inner class of {@code C} are both {@code pkg.C.this}); a read/write lock's halves share
 * the id of the read/write lock and differ by mode.
 */
public final class LockExpressions {

  /** What a call does to a {@link java.util.concurrent.locks.Lock}. */
  public enum Action {
    ACQUIRE,
    TRY_ACQUIRE,
    RELEASE
  }

  /** A call to {@code lock()}, {@code tryLock()} or {@code unlock()} and the lock it acts on. */
  public record LockCall(Action action, HeldLock lock) {}

  private static final Set<String> ACQUIRE = Set.of("lock", "lockInterruptibly");

  private final FieldNames fields;
  private final TypeNames types;

  public LockExpressions(FieldNames fields, TypeNames types) {
    this.fields = fields;
    this.types = types;
  }

  public static HeldLock thisLock(String type) {
    return new HeldLock(type + ".this", "this", LockMode.EXCLUSIVE);
  }

  public static HeldLock classLock(String type) {
    return new HeldLock(type + ".class", simpleName(type) + ".class", LockMode.EXCLUSIVE);
  }

  /** The monitor of {@code synchronized (expression)} inside {@code enclosingType}. */
  public HeldLock monitorOf(Expression expression, String enclosingType) {
    Expression e = Expressions.strip(expression);
    String display = e.toString();
    if (e instanceof ThisExpression self) {
      String type = self.getQualifier() == null ? enclosingType : enclosingTypeNamed(self, self.getQualifier()
          .getFullyQualifiedName());
      return new HeldLock(type + ".this", display, LockMode.EXCLUSIVE);
    }
    if (e instanceof TypeLiteral literal) {
      String type = TypeNames.binaryName(literal.getType().resolveBinding());
      if (type == null) {
        type = enclosingTypeNamed(literal, literal.getType().toString());
      }
      return new HeldLock(type + ".class", display, LockMode.EXCLUSIVE);
    }
    if (e instanceof MethodInvocation call && call.getExpression() != null && call.arguments().isEmpty()) {
      String half = call.getName().getIdentifier();
      if (half.equals("readLock") || half.equals("writeLock")) {
        HeldLock owner = monitorOf(call.getExpression(), enclosingType);
        return new HeldLock(owner.id(), display, half.equals("readLock") ? LockMode.SHARED : LockMode.EXCLUSIVE);
      }
    }
    Optional<FieldNames.ResolvedField> field = fields.resolve(e);
    if (field.isPresent()) {
      return new HeldLock(field.get().key(), display, LockMode.EXCLUSIVE);
    }
    return new HeldLock("expr:" + enclosingType + ":" + display, display, LockMode.EXCLUSIVE);
  }

  /** Recognises {@code l.lock()}, {@code l.tryLock()}, {@code l.unlock()} on a {@code java.util.concurrent} lock. */
  public Optional<LockCall> lockCall(MethodInvocation call, String enclosingType) {
    Expression receiver = call.getExpression();
    if (receiver == null) {
      return Optional.empty();
    }
    String name = call.getName().getIdentifier();
    Action action;
    if (ACQUIRE.contains(name) && call.arguments().isEmpty()) {
      action = Action.ACQUIRE;
    } else if (name.equals("tryLock")) {
      action = Action.TRY_ACQUIRE;
    } else if (name.equals("unlock") && call.arguments().isEmpty()) {
      action = Action.RELEASE;
    } else {
      return Optional.empty();
    }
    if (!looksLikeLock(receiver)) {
      return Optional.empty();
    }
    return Optional.of(new LockCall(action, monitorOf(receiver, enclosingType)));
  }

  private static final Set<String> STAMPED_READ = Set.of("readLock", "readLockInterruptibly");
  private static final Set<String> STAMPED_WRITE = Set.of("writeLock", "writeLockInterruptibly");
  private static final Set<String> STAMPED_RELEASE = Set.of("unlockRead", "unlockWrite", "unlock");

  /**
   * A {@code StampedLock}'s stamp calls: {@code long s = sl.readLock()} holds {@code sl} shared and
   * {@code sl.writeLock()} exclusive until {@code sl.unlockRead(s)}, {@code unlockWrite(s)} or {@code unlock(s)} (the
   * lock's id is its field's, as for a read/write lock's halves). Optimistic reads hold nothing.
   */
  public Optional<LockCall> stampedLockCall(MethodInvocation call, String enclosingType) {
    Expression receiver = call.getExpression();
    ITypeBinding type = receiver == null ? null : receiver.resolveTypeBinding();
    if (type == null || !"java.util.concurrent.locks.StampedLock".equals(type.getErasure().getQualifiedName())) {
      return Optional.empty();
    }
    String name = call.getName().getIdentifier();
    HeldLock owner = monitorOf(receiver, enclosingType);
    if (call.arguments().isEmpty() && (STAMPED_READ.contains(name) || STAMPED_WRITE.contains(name))) {
      LockMode mode = STAMPED_READ.contains(name) ? LockMode.SHARED : LockMode.EXCLUSIVE;
      return Optional.of(new LockCall(Action.ACQUIRE, new HeldLock(owner.id(), call.toString(), mode)));
    }
    if (call.arguments().size() == 1 && STAMPED_RELEASE.contains(name)) {
      return Optional.of(new LockCall(Action.RELEASE, owner));
    }
    return Optional.empty();
  }

  /** {@code final Lock r = rw.readLock();}: holding {@code r} is holding {@code rw} shared. */
  public Optional<LockAlias> aliasOf(String fieldKey, Expression initializer, String enclosingType) {
    Expression e = Expressions.strip(initializer);
    if (e instanceof MethodInvocation call && call.getExpression() != null && call.arguments().isEmpty()) {
      String half = call.getName().getIdentifier();
      if (half.equals("readLock") || half.equals("writeLock")) {
        HeldLock lock = monitorOf(e, enclosingType);
        return Optional.of(new LockAlias(fieldKey, lock.id(), lock.mode()));
      }
    }
    return Optional.empty();
  }

  /**
   * The lock a {@code @GuardedBy} value names, as Error Prone reads it: {@code this}, {@code C.class},
   * {@code itself} (the field itself), a field of the owner ({@code lock}, {@code this.lock}), or anything else
   * verbatim.
   */
  public static HeldLock fromGuardedBy(String value, String owner, String fieldKey) {
    String v = value.trim();
    if (v.equals("this")) {
      return thisLock(owner);
    }
    if (v.equals("itself")) {
      return new HeldLock(fieldKey, v, LockMode.EXCLUSIVE);
    }
    if (v.endsWith(".class")) {
      String simple = v.substring(0, v.length() - ".class".length());
      String type = simpleName(owner).equals(simple) || owner.endsWith("." + simple) ? owner : simple;
      return new HeldLock(type + ".class", v, LockMode.EXCLUSIVE);
    }
    String name = v.startsWith("this.") ? v.substring("this.".length()) : v;
    if (name.matches("[\\w$]+")) {
      return new HeldLock(owner + "." + name, v, LockMode.EXCLUSIVE);
    }
    return new HeldLock("expr:" + owner + ":" + v, v, LockMode.EXCLUSIVE);
  }

  /**
   * {@link #fromGuardedBy}, with a field path ({@code lock}, {@code this.lock}, {@code monitor.lock}) resolved
   * through bindings as Error Prone resolves it: the first name among the fields of the annotated member's class, its
   * superclasses and its enclosing classes, each further name a field of the previous field's type. The lock then has
   * the id the lockset analysis gives that field wherever it is locked ({@code lock.lock()} in an outer class's
   * method holds the inner class's {@code @GuardedBy("lock")}).
   *
   * @param declaringClass the class of the annotated field or method, null when unresolved
   */
  public static HeldLock fromGuardedBy(String value, String owner, String fieldKey, ITypeBinding declaringClass) {
    String v = value.trim();
    String path = v.startsWith("this.") ? v.substring("this.".length()) : v;
    if (declaringClass != null && path.matches("[\\w$]+(\\.[\\w$]+)*") && !path.equals("itself")
        && !path.endsWith(".class")) {
      Optional<String> key = fieldPath(declaringClass, path.split("\\."));
      if (key.isPresent()) {
        return new HeldLock(key.get(), v, LockMode.EXCLUSIVE);
      }
    }
    return fromGuardedBy(value, owner, fieldKey);
  }

  private static Optional<String> fieldPath(ITypeBinding start, String[] names) {
    org.eclipse.jdt.core.dom.IVariableBinding field = null;
    for (ITypeBinding scope = start; scope != null && field == null; scope = scope.getDeclaringClass()) {
      field = fieldNamed(scope, names[0]);
    }
    for (int i = 1; i < names.length && field != null; i++) {
      field = fieldNamed(field.getType(), names[i]);
    }
    if (field == null || field.getDeclaringClass() == null || !field.getDeclaringClass().isFromSource()) {
      return Optional.empty();
    }
    String owner = TypeNames.binaryName(field.getDeclaringClass());
    return owner == null ? Optional.empty() : Optional.of(owner + "." + field.getName());
  }

  /** A field of the type or of its superclasses. */
  private static org.eclipse.jdt.core.dom.IVariableBinding fieldNamed(ITypeBinding type, String name) {
    for (ITypeBinding t = type; t != null && !t.isRecovered(); t = t.getSuperclass()) {
      for (org.eclipse.jdt.core.dom.IVariableBinding field : t.getDeclaredFields()) {
        if (field.getName().equals(name)) {
          return field.getVariableDeclaration();
        }
      }
    }
    return null;
  }

  private boolean looksLikeLock(Expression receiver) {
    ITypeBinding type = receiver.resolveTypeBinding();
    if (type != null && !type.isRecovered()) {
      return isLockType(type) || type.getName().endsWith("Lock");
    }
    // no binding: accept what is named like a lock
    return receiver.toString().toLowerCase(Locale.ROOT).contains("lock");
  }

  private static boolean isLockType(ITypeBinding type) {
    if (type == null) {
      return false;
    }
    ITypeBinding erasure = type.getErasure();
    if ("java.util.concurrent.locks.Lock".equals(erasure.getQualifiedName())) {
      return true;
    }
    for (ITypeBinding parent : erasure.getInterfaces()) {
      if (isLockType(parent)) {
        return true;
      }
    }
    return isLockType(erasure.getSuperclass());
  }

  /** The binary name of the enclosing class whose simple name is {@code simple} (for {@code Outer.this}). */
  private String enclosingTypeNamed(ASTNode from, String qualifier) {
    String simple = qualifier.substring(qualifier.lastIndexOf('.') + 1);
    for (ASTNode n = from; n != null; n = n.getParent()) {
      if (n instanceof AbstractTypeDeclaration type && type.getName().getIdentifier().equals(simple)) {
        return types.nameOf(type);
      }
    }
    return qualifier;
  }

  static String simpleName(String binaryName) {
    int cut = Math.max(binaryName.lastIndexOf('.'), binaryName.lastIndexOf('$'));
    return binaryName.substring(cut + 1);
  }
}
