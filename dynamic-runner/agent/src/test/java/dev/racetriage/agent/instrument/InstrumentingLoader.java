package dev.racetriage.agent.instrument;

import java.io.IOException;
import java.io.InputStream;

/**
 * A child-first class loader that instruments the classes of one package as the agent would (application policy),
 * so tests can run fixture code instrumented next to the same code loaded plainly. With a null instrumenter it
 * loads a fresh plain copy (fresh static state) to compare with.
 */
final class InstrumentingLoader extends ClassLoader {
  private final String prefix;
  private final ClassInstrumenter instrumenter;

  InstrumentingLoader(ClassLoader parent, String prefix, ClassInstrumenter instrumenter) {
    super(parent);
    this.prefix = prefix;
    this.instrumenter = instrumenter;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (!name.startsWith(prefix)) {
      return super.loadClass(name, resolve);
    }
    synchronized (getClassLoadingLock(name)) {
      Class<?> loaded = findLoadedClass(name);
      if (loaded == null) {
        byte[] code = bytes(name);
        if (instrumenter != null) {
          ClassInstrumenter.Outcome outcome = instrumenter.instrument(ClassKind.APPLICATION, this, code);
          if (outcome.bytes() == null) {
            throw new ClassNotFoundException(name + " could not be instrumented: " + outcome.skipReason());
          }
          code = outcome.bytes();
        }
        loaded = defineClass(name, code, 0, code.length);
      }
      if (resolve) {
        resolveClass(loaded);
      }
      return loaded;
    }
  }

  private byte[] bytes(String name) throws ClassNotFoundException {
    try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
      if (in == null) {
        throw new ClassNotFoundException(name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new ClassNotFoundException(name, e);
    }
  }
}
