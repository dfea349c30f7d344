package dev.racetriage.corpus;

/**
 * Java PathRelaxer's {@code dcl} program (its Figure 10): double-checked locking that reads {@code helper} again to
 * return it. A thread whose first read sees another thread's helper skips the lock, so nothing orders it after the
 * construction: the second read may still return null, and the helper's {@code value} may still be the default 0
 * (a partially constructed object).
 *
 * <p>Racy fields: {@code helper} — destructive (the re-read returns null); {@code Helper.value} — destructive
 * (stale 0).
 */
public final class HelperHolder {
  private Helper helper = null;

  public Helper getHelper() {
    if (helper == null) {
      synchronized (this) {
        if (helper == null) {
          helper = new Helper();
        }
      }
    }
    return helper;
  }
}
