package dev.racetriage.store.trials;

import dev.racetriage.store.FieldKey;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A failure as a user should read it. Under adversarial memory a read of the jumbled field goes through the agent's
 * hook, so the JVM's helpful NPE message names the hook ({@code because the return value of
 * "dev.racetriage.agent.runtime.JumbleHooks.readRef(Object, Object, int)" is null}); the user wrote a read of a field,
 * and that is what the message names once rewritten ({@code because the value read from "Cache.value" is null}).
 */
public final class FailureText {
  private static final Pattern HOOK = Pattern.compile(
      "the return value of \"dev\\.racetriage\\.agent\\.[\\w.$]+\\([^)]*\\)\"");

  private FailureText() {}

  /** {@code failure} with every mention of an agent hook's return value replaced by the read of {@code field}. */
  public static String forField(String failure, FieldKey field) {
    if (failure == null || !failure.contains("dev.racetriage.agent.")) return failure;
    String simpleClass = field.className().substring(field.className().lastIndexOf('.') + 1);
    String name = simpleClass + "." + field.member() + (field.array() ? "[…]" : "");
    return HOOK.matcher(failure).replaceAll(Matcher.quoteReplacement(
        "the value read from \"" + name + "\" (read under adversarial memory)"));
  }
}
