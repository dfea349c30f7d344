package dev.racetriage.store;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runs every test of the class once per {@link TestEngine}; the class declares {@code @Parameter TestEngine engine}.
 * A PostgreSQL run whose server is missing is skipped (failed under CI) before the class's own {@code @BeforeEach}
 * opens anything, so its {@code @AfterEach} never meets a store that was not opened.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedClass(name = "[{index}] {0}")
@EnumSource(TestEngine.class)
@ExtendWith(OnEveryEngine.ServerAvailable.class)
public @interface OnEveryEngine {
  /** Checks the engine's server before anything else of the test runs. */
  final class ServerAvailable implements BeforeEachCallback {
    @Override
    public void beforeEach(ExtensionContext context) throws IllegalAccessException {
      Object test = context.getRequiredTestInstance();
      for (Class<?> type = test.getClass(); type != null; type = type.getSuperclass()) {
        for (var field : type.getDeclaredFields()) {
          if (field.getType() == TestEngine.class) {
            field.setAccessible(true);
            ((TestEngine) field.get(test)).requireAvailable();
            return;
          }
        }
      }
    }
  }
}
