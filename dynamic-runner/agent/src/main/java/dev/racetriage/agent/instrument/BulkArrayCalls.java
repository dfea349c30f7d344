package dev.racetriage.agent.instrument;

import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The model table of JDK calls that read or write a range of an array passed to them, inside code the agent does not
 * see (native {@code System.arraycopy}, the loops of {@code java.util.Arrays}, array {@code clone()}, the
 * {@code String} constructors that copy a {@code char[]}/{@code byte[]}). At such a call in application code the
 * instrumenter checks the range the call touches with the loop hooks' range checks ({@code Hooks.readRange/
 * writeRange}): a write range before the call (validated first: a call that will throw for its arguments records
 * nothing), a read range after it returned (see {@link BulkArrayEmitter}). One place says which call touches what.
 *
 * <p>Not modelled: {@code Arrays.asList}/{@code stream}/{@code spliterator} (views and lazy pipelines: their reads
 * happen later, inside the JDK), collections built from arrays ({@code List.of(E...)}: a container, not an array
 * race), and the fresh array a copy returns (it is written by the calling thread before anyone else can see it;
 * leaving its elements unrecorded can only miss a race on a racily published copy, never report one).
 */
final class BulkArrayCalls {
  /** An argument slot for {@link Range}: {@code NONE} means the bound is the array's start (from) or end (to). */
  static final int NONE = -1;

  /**
   * One array range a call touches, in argument positions (0 is the receiver of an instance call, else the first
   * argument): the array, the start ({@link #NONE}: 0) and the end — an argument ({@code toArg}), the start plus an
   * argument ({@code lengthArg}), or ({@code NONE} for both) the array's end.
   */
  record Range(boolean write, int array, int fromArg, int toArg, int lengthArg) {
    static Range read(int array, int fromArg, int toArg) {
      return new Range(false, array, fromArg, toArg, NONE);
    }

    static Range write(int array, int fromArg, int toArg) {
      return new Range(true, array, fromArg, toArg, NONE);
    }

    static Range whole(boolean write, int array) {
      return new Range(write, array, NONE, NONE, NONE);
    }
  }

  /** A modelled call: its ranges, and whether it is {@code System.arraycopy} (one hook validates both arrays). */
  record Model(List<Range> ranges, boolean arraycopy) {
  }

  static final Model ARRAYCOPY = new Model(List.of(
      new Range(true, 2, 3, NONE, 4),
      new Range(false, 0, 1, NONE, 4)), true);

  private BulkArrayCalls() {
  }

  /** The model of a call instruction, or null when the call touches no array range the agent would not see. */
  static Model of(int opcode, String owner, String name, String descriptor) {
    if (opcode == Opcodes.INVOKESTATIC && owner.equals("java/lang/System") && name.equals("arraycopy")) {
      return ARRAYCOPY;
    }
    if (opcode == Opcodes.INVOKEVIRTUAL && owner.startsWith("[") && name.equals("clone")
        && descriptor.equals("()Ljava/lang/Object;")) {
      return new Model(List.of(Range.whole(false, 0)), false);
    }
    Type[] args = Type.getArgumentTypes(descriptor);
    if (opcode == Opcodes.INVOKESTATIC && owner.equals("java/util/Arrays") && args.length > 0 && isArray(args[0])) {
      return arrays(name, args);
    }
    if (owner.equals("java/lang/String") && args.length > 0 && isCharsOrBytes(args[0])
        && ((opcode == Opcodes.INVOKESPECIAL && name.equals("<init>"))
            || (opcode == Opcodes.INVOKESTATIC && (name.equals("valueOf") || name.equals("copyValueOf"))))) {
      // String(char[]), String(char[], offset, count), String(byte[], offset, length[, charset]), valueOf(char[]…)
      if (args.length == 4 && isInt(args[3])) {
        return null; // the deprecated String(byte[] ascii, int hibyte, int offset, int count): not worth a row
      }
      boolean counted = args.length >= 3 && isInt(args[1]) && isInt(args[2]);
      return new Model(List.of(counted ? new Range(false, 0, 1, NONE, 2) : Range.whole(false, 0)), false);
    }
    return null;
  }

  /** {@code java.util.Arrays}' static methods whose first argument is an array. */
  private static Model arrays(String name, Type[] args) {
    boolean ranged = args.length >= 3 && isInt(args[1]) && isInt(args[2]);
    switch (name) {
      case "fill", "sort", "parallelSort", "parallelPrefix" -> { // rewrite (sorting reads too: the write check covers it)
        return model(ranged ? Range.write(0, 1, 2) : Range.whole(true, 0));
      }
      case "setAll", "parallelSetAll" -> {
        return model(Range.whole(true, 0));
      }
      case "copyOf" -> {
        return model(Range.read(0, NONE, 1));
      }
      case "copyOfRange" -> {
        return model(Range.read(0, 1, 2));
      }
      case "hashCode", "deepHashCode", "toString", "deepToString" -> {
        return model(Range.whole(false, 0));
      }
      case "binarySearch" -> {
        return model(ranged ? Range.read(0, 1, 2) : Range.whole(false, 0));
      }
      case "equals", "deepEquals", "mismatch", "compare", "compareUnsigned" -> {
        if (args.length >= 2 && isArray(args[1])) { // (a, b[, comparator])
          return new Model(List.of(Range.whole(false, 0), Range.whole(false, 1)), false);
        }
        if (args.length >= 6 && isArray(args[3])) { // (a, aFrom, aTo, b, bFrom, bTo[, comparator])
          return new Model(List.of(Range.read(0, 1, 2), Range.read(3, 4, 5)), false);
        }
        return null;
      }
      default -> {
        return null;
      }
    }
  }

  private static Model model(Range range) {
    return new Model(List.of(range), false);
  }

  private static boolean isArray(Type type) {
    return type.getSort() == Type.ARRAY;
  }

  private static boolean isInt(Type type) {
    return type.getSort() == Type.INT;
  }

  private static boolean isCharsOrBytes(Type type) {
    return type.getDescriptor().equals("[C") || type.getDescriptor().equals("[B");
  }
}
