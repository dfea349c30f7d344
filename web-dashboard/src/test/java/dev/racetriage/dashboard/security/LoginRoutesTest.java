package dev.racetriage.dashboard.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LoginRoutesTest {

  @ParameterizedTest
  @ValueSource(strings = {
      "//evil.example/", "/\\evil.example/", "\\\\evil.example", "https://evil.example/", "evil.example",
      "/\t/evil.example", "/\n/evil.example", "/ /evil.example", ""})
  void redirectTargetsThatCouldLeaveTheSiteBecomeTheOverview(String next) {
    assertEquals("/", LoginRoutes.safeNext(next));
  }

  @ParameterizedTest
  @ValueSource(strings = {"/", "/races", "/races/com.example.Cache.hash", "/races?verdict=qos"})
  void sameSitePathsAreKept(String next) {
    assertEquals(next, LoginRoutes.safeNext(next));
  }
}
