package dev.racetriage.agent.instrument;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.GeneratorAdapter;

/**
 * Detect mode, application code: the range checks around a bulk array call ({@link BulkArrayCalls}). The call's
 * receiver and arguments are spilled to fresh locals; each write range is checked before the call (the hook
 * validates the bounds first, so a call that throws for its arguments records no write), the arguments reloaded, the
 * call made, and each read range checked after it returned — a read checked after its load, as for single elements
 * (see {@link EventInstrumenter}). {@code System.arraycopy} is replaced by one hook that validates both arrays,
 * checks the destination, copies and checks the source.
 *
 * <p>Sound as a hoisted loop is (see {@code LoopCheckHoister}): the thread's clock at the check is its clock at the
 * copy for the native and JDK-internal loops that run no application code; a call that does
 * ({@code Arrays.setAll}'s generator, a comparator) may synchronise during the call, and its writes are recorded at
 * the epoch before it — an earlier epoch of the same thread, covered by every clock that covers the later one, so
 * the check can miss a race, never invent one.
 */
final class BulkArrayEmitter {
  private final GeneratorAdapter locals;
  private final MethodVisitor mv;

  /**
   * @param locals allocates the spill locals (the instrumenter itself)
   * @param next   the visitor the inserted instructions go to, bypassing the instrumenter's own visit methods
   */
  BulkArrayEmitter(GeneratorAdapter locals, MethodVisitor next) {
    this.locals = locals;
    this.mv = next;
  }

  /** Emits the call instruction with the model's checks around it; {@code site} names the call's line. */
  void call(BulkArrayCalls.Model model, int opcode, String owner, String name, String descriptor,
            boolean isInterface, int site) {
    if (model.arraycopy()) {
      push(site);
      BulkHookMethod.ARRAYCOPY.call(mv);
      return;
    }
    Type[] args = Type.getArgumentTypes(descriptor);
    boolean instance = opcode != Opcodes.INVOKESTATIC && !name.equals("<init>");
    Type[] slots = new Type[args.length + (instance ? 1 : 0)];
    if (instance) {
      slots[0] = Type.getObjectType(owner);
    }
    System.arraycopy(args, 0, slots, instance ? 1 : 0, args.length);
    int[] spilled = new int[slots.length];
    for (int i = slots.length - 1; i >= 0; i--) {
      spilled[i] = locals.newLocal(slots[i]);
      locals.storeLocal(spilled[i], slots[i]);
    }
    for (BulkArrayCalls.Range range : model.ranges()) {
      if (range.write()) {
        check(range, slots, spilled, site);
      }
    }
    for (int i = 0; i < slots.length; i++) {
      locals.loadLocal(spilled[i], slots[i]);
    }
    mv.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    for (BulkArrayCalls.Range range : model.ranges()) {
      if (!range.write()) {
        check(range, slots, spilled, site);
      }
    }
  }

  private void check(BulkArrayCalls.Range range, Type[] slots, int[] spilled, int site) {
    locals.loadLocal(spilled[range.array()], slots[range.array()]);
    boolean toEnd = range.toArg() == BulkArrayCalls.NONE && range.lengthArg() == BulkArrayCalls.NONE;
    if (range.write() && toEnd && range.fromArg() == BulkArrayCalls.NONE) {
      push(site);
      BulkHookMethod.WRITE_ALL.call(mv);
      return;
    }
    loadIntOrZero(range.fromArg(), spilled);
    if (range.toArg() != BulkArrayCalls.NONE) {
      loadIntOrZero(range.toArg(), spilled);
    } else if (range.lengthArg() != BulkArrayCalls.NONE) {
      loadIntOrZero(range.fromArg(), spilled);
      loadIntOrZero(range.lengthArg(), spilled);
      mv.visitInsn(Opcodes.IADD);
    } else {
      push(Integer.MAX_VALUE); // a read after the call: the runtime clamps to the array's end
    }
    push(site);
    if (range.write()) {
      BulkHookMethod.WRITE_RANGE.call(mv);
    } else {
      HookMethod.READ_RANGE.call(mv);
    }
  }

  private void loadIntOrZero(int arg, int[] spilled) {
    if (arg == BulkArrayCalls.NONE) {
      mv.visitInsn(Opcodes.ICONST_0);
    } else {
      locals.loadLocal(spilled[arg], Type.INT_TYPE);
    }
  }

  private void push(int value) {
    mv.visitLdcInsn(value);
  }
}
