package dev.racetriage.agent.instrument;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
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
    SpilledCall call = SpilledCall.spill(locals, opcode, owner, name, descriptor);
    for (BulkArrayCalls.Range range : model.ranges()) {
      if (range.write()) {
        check(range, call, site);
      }
    }
    call.reload();
    mv.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    for (BulkArrayCalls.Range range : model.ranges()) {
      if (!range.write()) {
        check(range, call, site);
      }
    }
  }

  private void check(BulkArrayCalls.Range range, SpilledCall call, int site) {
    call.load(range.array());
    boolean toEnd = range.toArg() == BulkArrayCalls.NONE && range.lengthArg() == BulkArrayCalls.NONE;
    if (range.write() && toEnd && range.fromArg() == BulkArrayCalls.NONE) {
      push(site);
      BulkHookMethod.WRITE_ALL.call(mv);
      return;
    }
    loadIntOrZero(range.fromArg(), call);
    if (range.toArg() != BulkArrayCalls.NONE) {
      loadIntOrZero(range.toArg(), call);
    } else if (range.lengthArg() != BulkArrayCalls.NONE) {
      loadIntOrZero(range.fromArg(), call);
      loadIntOrZero(range.lengthArg(), call);
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

  private void loadIntOrZero(int arg, SpilledCall call) {
    if (arg == BulkArrayCalls.NONE) {
      mv.visitInsn(Opcodes.ICONST_0);
    } else {
      call.load(arg);
    }
  }

  private void push(int value) {
    mv.visitLdcInsn(value);
  }
}
