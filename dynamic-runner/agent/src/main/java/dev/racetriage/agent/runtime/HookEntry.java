package dev.racetriage.agent.runtime;

import jdk.internal.vm.annotation.DontInline;

/**
 * What instrumented code calls for array elements ({@code instrument.HookMethod}): each method forwards to the
 * {@link Hooks} method of the same name and descriptor, and has no branch of its own, so the JIT compiles it once and
 * never makes that code not entrant.
 *
 * <p><b>Why a second call.</b> A hook's body is a cover check whose branches depend on the data (a thread slot that is
 * null at a method's first access, the thread's last array, a write summary that is its own epoch or another thread's,
 * a predictive analysis waking). C2 compiles a branch its profile never saw as an uncommon trap, and when the program
 * takes it, the hook's compiled code is made not entrant and it runs interpreted until compiled again. A call made in
 * that window from compiled code that is itself no longer in use — a worker's on-stack-replaced loop, made not entrant
 * by another thread's trap, which the worker never leaves — is bound to the interpreter for the rest of the run: the VM
 * repairs a call site only in code still in use. Calling the element hooks directly, the Java Grande SOR took 8–40 s
 * instead of 1.3 s in 8 of 10 runs, and 10 of 10 were fast through these forwarders (benchmarks/RESULTS.md, issue 18).
 * Calls from a forwarder's code, which stays in use, are repaired when the hook is compiled again.
 *
 * <p>Only the element hooks: a forwarder costs a call, and on the field hooks, whose covered reads are a few loads,
 * it cost the Grande raytracer 19 % and moldyn 10 %. The element hooks' slow paths are inlined into them instead
 * ({@code DetectRuntime.readElement}, {@code writeElement}), so an element write still makes two calls.
 */
public final class HookEntry {
  private HookEntry() {
  }

  @DontInline
  public static ThreadShadow readElement(Object array, int index, int site, ThreadShadow thread) {
    return Hooks.readElement(array, index, site, thread);
  }

  @DontInline
  public static ThreadShadow readElement(Object array, int index, int site, int guard, ThreadShadow thread) {
    return Hooks.readElement(array, index, site, guard, thread);
  }

  @DontInline
  public static ThreadShadow readElements(Object array, int from, int to, int site, ThreadShadow thread) {
    return Hooks.readElements(array, from, to, site, thread);
  }

  @DontInline
  public static ThreadShadow writeElements(Object array, int from, int to, int site, ThreadShadow thread) {
    return Hooks.writeElements(array, from, to, site, thread);
  }

  @DontInline
  public static ThreadShadow writeElement(Object array, int index, int site, ThreadShadow thread) {
    return Hooks.writeElement(array, index, site, thread);
  }

  @DontInline
  public static ThreadShadow writeElement(Object array, int index, int site, int guard, ThreadShadow thread) {
    return Hooks.writeElement(array, index, site, guard, thread);
  }

  @DontInline
  public static void readRange(Object array, int from, int to, int site) {
    Hooks.readRange(array, from, to, site);
  }

  @DontInline
  public static void writeRange(Object array, int from, int to, int site) {
    Hooks.writeRange(array, from, to, site);
  }

  @DontInline
  public static void readRange(Object array, int from, int to, int step, int site) {
    Hooks.readRange(array, from, to, step, site);
  }

  @DontInline
  public static void writeRange(Object array, int from, int to, int step, int site) {
    Hooks.writeRange(array, from, to, step, site);
  }
}
