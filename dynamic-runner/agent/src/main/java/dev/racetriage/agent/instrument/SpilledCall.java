package dev.racetriage.agent.instrument;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.GeneratorAdapter;

/**
 * A call's receiver (for an instance call, not a constructor) and arguments, stored from the operand stack into fresh
 * locals so hooks around the call can load any of them; {@link #reload} puts them back for the call itself.
 * Position 0 is the receiver of an instance call, else the first argument.
 */
final class SpilledCall {
  private final GeneratorAdapter locals;
  private final Type[] types;
  private final int[] slots;

  private SpilledCall(GeneratorAdapter locals, Type[] types, int[] slots) {
    this.locals = locals;
    this.types = types;
    this.slots = slots;
  }

  static SpilledCall spill(GeneratorAdapter locals, int opcode, String owner, String name, String descriptor) {
    Type[] args = Type.getArgumentTypes(descriptor);
    boolean instance = opcode != Opcodes.INVOKESTATIC && !name.equals("<init>");
    Type[] types = new Type[args.length + (instance ? 1 : 0)];
    if (instance) {
      types[0] = Type.getObjectType(owner);
    }
    System.arraycopy(args, 0, types, instance ? 1 : 0, args.length);
    int[] slots = new int[types.length];
    for (int i = types.length - 1; i >= 0; i--) {
      slots[i] = locals.newLocal(types[i]);
      locals.storeLocal(slots[i], types[i]);
    }
    return new SpilledCall(locals, types, slots);
  }

  /** Pushes the value at {@code position}. */
  void load(int position) {
    locals.loadLocal(slots[position], types[position]);
  }

  /** Pushes the receiver and arguments back, in order, for the call. */
  void reload() {
    for (int i = 0; i < types.length; i++) {
      load(i);
    }
  }
}
