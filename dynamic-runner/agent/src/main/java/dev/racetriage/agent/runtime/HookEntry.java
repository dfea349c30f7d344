package dev.racetriage.agent.runtime;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;

/**
 * What instrumented code calls ({@code instrument.HookMethod}): each method forwards to the {@link Hooks} method of the
 * same name and descriptor, and has no branch of its own, so the JIT compiles it once and never makes that code not
 * entrant.
 *
 * <p><b>Why a second call.</b> A hook's body is a cover check whose branches depend on the data (a thread slot that is
 * null at a method's first access, the thread's last array, a write summary that is its own epoch or another thread's,
 * a predictive analysis waking). C2 compiles a branch its profile never saw as an uncommon trap, and when the program
 * takes it, the hook's compiled code is made not entrant and it runs interpreted until compiled again. A call made in
 * that window from compiled code that is itself no longer in use — a worker's on-stack-replaced loop, made not entrant
 * by another thread's trap, which the worker never leaves — is bound to the interpreter for the rest of the run: the VM
 * repairs a call site only in code still in use. Instrumented code that called the hooks directly then paid an
 * interpreted hook per access: the Java Grande SOR took 8–40 s instead of 1.3 s in about half its runs
 * (benchmarks/RESULTS.md, issue 18). Calls from a forwarder's code, which stays in use, are repaired when the hook is
 * compiled again. The forwarder costs a call (0–4 % on the element-heavy kernels). The two owned guards are
 * {@code @ForceInline}: inlined into the instrumented method, their traps deoptimise that method's own frame, which
 * the VM handles.
 */
public final class HookEntry {
  private HookEntry() {
  }

  @DontInline
  public static ThreadShadow readField(Object object, int fieldId, int site, ThreadShadow thread) {
    return Hooks.readField(object, fieldId, site, thread);
  }

  @DontInline
  public static ThreadShadow readFields(Object object, int field1, int field2, int field3, int site,
                                       ThreadShadow thread) {
    return Hooks.readFields(object, field1, field2, field3, site, thread);
  }

  @ForceInline // a guard inlined into instrumented code: no call to bind
  public static boolean ownedShadow(Object slot) {
    return Hooks.ownedShadow(slot);
  }

  @DontInline
  public static ThreadShadow writeField(Object object, int fieldId, int site, ThreadShadow thread) {
    return Hooks.writeField(object, fieldId, site, thread);
  }

  @ForceInline // a guard inlined into instrumented code: no call to bind
  public static ThreadShadow ownedRewrite(Object slot, ThreadShadow thread, long bit) {
    return Hooks.ownedRewrite(slot, thread, bit);
  }

  @DontInline
  public static ThreadShadow writeFieldGuarded(Object object, int fieldId, int site, long bit, long mask,
                                              ThreadShadow thread) {
    return Hooks.writeFieldGuarded(object, fieldId, site, bit, mask, thread);
  }

  @DontInline
  public static ThreadShadow readStatic(int fieldId, int site, ThreadShadow thread) {
    return Hooks.readStatic(fieldId, site, thread);
  }

  @DontInline
  public static ThreadShadow writeStatic(int fieldId, int site, ThreadShadow thread) {
    return Hooks.writeStatic(fieldId, site, thread);
  }

  @DontInline
  public static ThreadShadow readElement(Object array, int index, int site, ThreadShadow thread) {
    return Hooks.readElement(array, index, site, thread);
  }

  @DontInline
  public static ThreadShadow writeElement(Object array, int index, int site, ThreadShadow thread) {
    return Hooks.writeElement(array, index, site, thread);
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

  @DontInline
  public static ThreadShadow arrayInField(Object array, int fieldId, ThreadShadow thread) {
    return Hooks.arrayInField(array, fieldId, thread);
  }

  @DontInline
  public static void monitorEnter(Object monitor) {
    Hooks.monitorEnter(monitor);
  }

  @DontInline
  public static void monitorExit(Object monitor) {
    Hooks.monitorExit(monitor);
  }

  @DontInline
  public static void monitorEnterTransparent(Object monitor) {
    Hooks.monitorEnterTransparent(monitor);
  }

  @DontInline
  public static void volatileRead(Object object, int fieldId) {
    Hooks.volatileRead(object, fieldId);
  }

  @DontInline
  public static void volatileWrite(Object object, int fieldId) {
    Hooks.volatileWrite(object, fieldId);
  }

  @DontInline
  public static void volatileReadStatic(int fieldId) {
    Hooks.volatileReadStatic(fieldId);
  }

  @DontInline
  public static void volatileWriteStatic(int fieldId) {
    Hooks.volatileWriteStatic(fieldId);
  }

  @DontInline
  public static ThreadShadow trustedReferenceRead(Object holder, ThreadShadow thread) {
    return Hooks.trustedReferenceRead(holder, thread);
  }

  @DontInline
  public static void atomicBefore(Object handle, Object target, int mode) {
    Hooks.atomicBefore(handle, target, mode);
  }

  @DontInline
  public static void atomicAfter(Object handle, Object target, int mode) {
    Hooks.atomicAfter(handle, target, mode);
  }

  @DontInline
  public static void waitOn(Object monitor) throws InterruptedException {
    Hooks.waitOn(monitor);
  }

  @DontInline
  public static void waitOn(Object monitor, long millis) throws InterruptedException {
    Hooks.waitOn(monitor, millis);
  }

  @DontInline
  public static void waitOn(Object monitor, long millis, int nanos) throws InterruptedException {
    Hooks.waitOn(monitor, millis, nanos);
  }

  @DontInline
  public static void threadStarting(Thread child) {
    Hooks.threadStarting(child);
  }

  @DontInline
  public static void joinReturned(Thread joined) {
    Hooks.joinReturned(joined);
  }

  @DontInline
  public static boolean isAlive(Thread thread) {
    return Hooks.isAlive(thread);
  }

  @DontInline
  public static void clinitEnter() {
    Hooks.clinitEnter();
  }

  @DontInline
  public static void clinitExit() {
    Hooks.clinitExit();
  }
}
