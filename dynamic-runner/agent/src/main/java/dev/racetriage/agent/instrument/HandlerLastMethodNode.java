package dev.racetriage.agent.instrument;

import java.util.ArrayList;
import java.util.List;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * Buffers a method and replays it into {@code target} at the end, so that a try-catch block added by the
 * instrumenter after the method's own ones (at {@code visitMaxs}) is also last in the exception table: the
 * method's handlers must keep catching first, the instrumenter's catch-all only sees what escapes the method.
 *
 * <p>The reverse is needed too: a guard around one hook call ({@link #visitTryCatchBlockFirst}) must catch before any
 * handler of the method that also covers the call, so it goes first. A guard drops the throwable and continues after
 * the call, which the verifier accepts only if the operand stack is empty there (a handler starts with an empty
 * stack); javac leaves a value on it in, e.g., {@code synchronized (m) { return x + 1; }}, so every guard is checked
 * on the instrumented code and the ones whose call leaves something on the stack are dropped (that call stays
 * unguarded, as before guards existed).
 */
final class HandlerLastMethodNode extends MethodNode {
  private final String owner;
  private final MethodVisitor target;
  private final List<TryCatchBlockNode> guards = new ArrayList<>();

  HandlerLastMethodNode(String owner, int access, String name, String descriptor, String signature,
                        String[] exceptions, MethodVisitor target) {
    super(Opcodes.ASM9, access, name, descriptor, signature, exceptions);
    this.owner = owner;
    this.target = target;
  }

  /** A guard: a try-catch block around one call, first in the exception table if the stack allows it. */
  void visitTryCatchBlockFirst(Label start, Label end, Label handler, String type) {
    super.visitTryCatchBlock(start, end, handler, type);
    guards.add(tryCatchBlocks.get(tryCatchBlocks.size() - 1));
  }

  @Override
  public void visitEnd() {
    super.visitEnd();
    tryCatchBlocks.removeAll(guards);
    tryCatchBlocks.addAll(0, validGuards());
    accept(target);
  }

  /** The guards after whose call the operand stack is empty (checked without the guards: they change nothing else). */
  private List<TryCatchBlockNode> validGuards() {
    if (guards.isEmpty()) {
      return guards;
    }
    int savedStack = maxStack;
    try {
      maxStack = savedStack + 64; // room for the hooks' arguments: the writer computes the real maximum later
      Frame<BasicValue>[] frames = new Analyzer<>(new BasicInterpreter()).analyze(owner, this);
      List<TryCatchBlockNode> valid = new ArrayList<>();
      for (TryCatchBlockNode guard : guards) {
        Frame<BasicValue> afterCall = frames[instructions.indexOf(guard.end)];
        if (afterCall != null && afterCall.getStackSize() == 0) {
          valid.add(guard);
        }
      }
      return valid;
    } catch (AnalyzerException | RuntimeException e) {
      return List.of(); // not analysable here: leave every call unguarded rather than risk an invalid method
    } finally {
      maxStack = savedStack;
    }
  }
}
