package dev.racetriage.runner.trial;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What a trial's result depends on, as one key: the project's class files ({@code fingerprint}), the agent
 * ({@code agentVersion}), the field, the test, the heuristic, the seed and the jumbled elements. A trial stored under the
 * same key by an interrupted triage is the same experiment, so a re-run reuses it instead of running it again.
 */
public record TrialInputs(String fingerprint, String agentVersion) {

  public String key(TrialSpec spec) {
    StringBuilder text = new StringBuilder()
        .append(fingerprint).append('\n').append(agentVersion).append('\n').append(spec.fieldKey()).append('\n')
        .append(spec.testName()).append('\n').append(spec.heuristic()).append('\n').append(spec.seed()).append('\n')
        .append(spec.indices());
    return sha256(text.toString());
  }

  public static String sha256(String text) {
    return sha256(text.getBytes(StandardCharsets.UTF_8));
  }

  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JDK has no SHA-256", e);
    }
  }
}
