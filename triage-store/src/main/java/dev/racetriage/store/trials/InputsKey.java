package dev.racetriage.store.trials;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The key under which a trial's inputs are stored: SHA-256, in hex, of the parts in order. Each part is hashed with
 * its length, so ("ab", "c") and ("a", "bc") differ. The runner decides the parts (class-file fingerprint, agent
 * version, field, test, heuristic, seed, jumbled indices); any change to one of them gives a new key, so a trial run
 * on other inputs is never reused.
 */
public final class InputsKey {
  private InputsKey() {}

  public static String of(List<String> parts) {
    MessageDigest sha256;
    try {
      sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
    for (String part : parts) {
      byte[] bytes = String.valueOf(part).getBytes(StandardCharsets.UTF_8);
      sha256.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
      sha256.update(bytes);
    }
    return HexFormat.of().formatHex(sha256.digest());
  }

  public static String of(String... parts) {
    return of(List.of(parts));
  }
}
