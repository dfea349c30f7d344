package dev.racetriage.prefilter.facts;

import java.util.Optional;

/**
 * A field declared in the project.
 *
 * @param key {@code pkg.Outer$Inner.field}
 * @param file declaring source file
 * @param line line of the declaration
 * @param isStatic static
 * @param isFinal final
 * @param isVolatile volatile
 * @param typeName the declared type as written ({@code int}, {@code AtomicLong}, {@code Point})
 * @param guardedBy the lock named by {@code @GuardedBy}, if any, with the identity the lockset analysis gives it
 * @param threadConfined annotated {@code @ThreadConfined}
 * @param valueType the binary name of the field's type when it is a class of the project, else empty (a racy
 *     reference to such an object publishes it unsafely, and with it the fields its constructor wrote)
 * @param unsynchronisedContainer whether the field holds one of the JDK's unsynchronised containers (the shared
 *     {@code ContainerContract}): declared as one, or only ever assigned {@code new} ones; its contents are then judged
 *     as the pseudo-field {@code key + "{}"}, written by mutator calls and read by accessor calls
 */
public record FieldDecl(
    String key,
    String file,
    int line,
    boolean isStatic,
    boolean isFinal,
    boolean isVolatile,
    String typeName,
    Optional<HeldLock> guardedBy,
    boolean threadConfined,
    String valueType,
    boolean unsynchronisedContainer) {

  /** The binary name of the declaring class. */
  public String owner() {
    return key.substring(0, key.lastIndexOf('.'));
  }
}
