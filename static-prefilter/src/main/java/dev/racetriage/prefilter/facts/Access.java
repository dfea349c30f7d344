package dev.racetriage.prefilter.facts;

import java.util.List;

/**
 * One read or write of a project field, with what the lockset analysis knows at that point.
 *
 * @param fieldKey {@code pkg.Outer$Inner.field}
 * @param file the source file of the access
 * @param line 1-based line
 * @param offset character offset in the file (pattern detectors find accesses inside a statement by it)
 * @param kind read or write
 * @param readModifyWrite {@code f++}, {@code f += n}, {@code f = f + 1}: a write that depends on a read of the same field
 * @param locks the locks held, innermost last
 * @param initialisation in a constructor, instance or static initialiser of the field's own object or class, before
 *     the object can be published
 * @param method the key of the code body the access is in ({@link MethodFacts#key()})
 * @param methodLabel how a user names that body: {@code run()}, {@code lambda at line 12}
 * @param viaBinding whether JDT resolved the field; false when it was matched by name in a declaring class only
 * @param orderedBy volatile fields that order this access with others in the same body: for a write, the volatile
 *     fields written after it (release); for a read, the volatile fields read before it (acquire)
 * @param taskOrder the tasks (lambdas, method references, anonymous classes handed to threads, by body key) this
 *     access is ordered with by fork or join: {@code before:KEY} when the access comes before the task is created in
 *     the same body, {@code after:KEY} after a join-like call ({@code join}, {@code awaitTermination}, a future's
 *     {@code get}) that follows the task, {@code after-call:CALLEE:KEY} after the project method the task was handed
 *     to returns (ordered when that method joins)
 */
public record Access(
    String fieldKey,
    String file,
    int line,
    int offset,
    AccessKind kind,
    boolean readModifyWrite,
    List<HeldLock> locks,
    boolean initialisation,
    String method,
    String methodLabel,
    boolean viaBinding,
    List<String> orderedBy,
    List<String> taskOrder) {

  public Access {
    locks = List.copyOf(locks);
    orderedBy = List.copyOf(orderedBy);
    taskOrder = List.copyOf(taskOrder);
  }

  public boolean isWrite() {
    return kind == AccessKind.WRITE;
  }

  public Access withLocks(List<HeldLock> newLocks) {
    return new Access(fieldKey, file, line, offset, kind, readModifyWrite, newLocks, initialisation, method,
        methodLabel, viaBinding, orderedBy, taskOrder);
  }

  public Access withOrderedBy(List<String> volatileFields) {
    return new Access(fieldKey, file, line, offset, kind, readModifyWrite, locks, initialisation, method,
        methodLabel, viaBinding, volatileFields, taskOrder);
  }

  public Access withTaskOrder(List<String> tasks) {
    return new Access(fieldKey, file, line, offset, kind, readModifyWrite, locks, initialisation, method,
        methodLabel, viaBinding, orderedBy, tasks);
  }
}
