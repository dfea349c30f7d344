package dev.racetriage.dashboard.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {
  static final String GUESSER = "203.0.113.7";
  static final String TEAMMATE = "198.51.100.2";

  final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
  final LoginThrottle throttle = new LoginThrottle(clock);

  @Test
  void theFirstWrongTokensAreFreeAndTheFifthLocksTheAddressOut() {
    for (int i = 1; i < LoginThrottle.FREE_FAILURES; i++) {
      throttle.failed(GUESSER);
      assertEquals(Optional.empty(), throttle.lockedOut(GUESSER), "after " + i + " wrong tokens");
    }
    throttle.failed(GUESSER);
    assertEquals(Optional.of(LoginThrottle.FIRST_LOCKOUT), throttle.lockedOut(GUESSER));
    assertEquals(Optional.empty(), throttle.lockedOut(TEAMMATE), "per address");
  }

  @Test
  void eachFurtherWrongTokenDoublesTheLockoutUpToTheCap() {
    failTimes(LoginThrottle.FREE_FAILURES);
    Duration expected = LoginThrottle.FIRST_LOCKOUT;
    for (int i = 0; i < 20; i++) {
      Duration left = throttle.lockedOut(GUESSER).orElseThrow();
      assertEquals(expected, left, "lockout " + i);
      clock.advance(left);
      assertEquals(Optional.empty(), throttle.lockedOut(GUESSER), "the lockout ends on time");
      throttle.failed(GUESSER);
      expected = min(expected.multipliedBy(2), LoginThrottle.MAX_LOCKOUT);
    }
    assertEquals(LoginThrottle.MAX_LOCKOUT, throttle.lockedOut(GUESSER).orElseThrow());
  }

  @Test
  void theRightTokenClearsTheAddress() {
    failTimes(LoginThrottle.FREE_FAILURES - 1);
    throttle.succeeded(GUESSER);
    throttle.failed(GUESSER);
    assertEquals(Optional.empty(), throttle.lockedOut(GUESSER), "counting starts again");
  }

  @Test
  void aQuietHourForgetsEarlierWrongTokens() {
    failTimes(LoginThrottle.FREE_FAILURES + 3);
    clock.advance(LoginThrottle.FORGET_AFTER.plusSeconds(1));
    assertEquals(Optional.empty(), throttle.lockedOut(GUESSER));
    throttle.failed(GUESSER);
    assertEquals(Optional.empty(), throttle.lockedOut(GUESSER), "one wrong token after a quiet hour is free again");
  }

  @Test
  void lockoutsNeverOverflow() {
    assertEquals(LoginThrottle.MAX_LOCKOUT, LoginThrottle.lockout(Integer.MAX_VALUE));
    assertTrue(LoginThrottle.lockout(LoginThrottle.FREE_FAILURES).equals(LoginThrottle.FIRST_LOCKOUT));
  }

  private void failTimes(int times) {
    for (int i = 0; i < times; i++) {
      throttle.failed(GUESSER);
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
