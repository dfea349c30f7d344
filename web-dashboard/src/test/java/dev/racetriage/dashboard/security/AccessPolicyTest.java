package dev.racetriage.dashboard.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class AccessPolicyTest {
  static final BindAddress LOOPBACK = new BindAddress("127.0.0.1", true);
  static final BindAddress PUBLIC = new BindAddress("0.0.0.0", false);

  @Test
  void loopbackWithoutTokenAllowsEverythingButStillNeedsCsrf() {
    AccessPolicy policy = AccessPolicy.of(LOOPBACK, null);
    assertFalse(policy.mutationsNeedToken());
    assertFalse(policy.readsNeedToken());
    assertFalse(policy.tokenMatches("anything"));
  }

  @Test
  void aTokenProtectsMutationsAndOnPublicBindsReads() {
    assertTrue(AccessPolicy.of(LOOPBACK, "0123456789abcdef").mutationsNeedToken());
    assertFalse(AccessPolicy.of(LOOPBACK, "0123456789abcdef").readsNeedToken());
    assertTrue(AccessPolicy.of(PUBLIC, "0123456789abcdef").readsNeedToken());
  }

  @Test
  void publicBindWithoutTokenOrWithAShortOneIsRefused() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> AccessPolicy.of(PUBLIC, null))
        .getMessage().contains("--token"));
    assertThrows(IllegalArgumentException.class, () -> AccessPolicy.of(PUBLIC, "   "));
    assertThrows(IllegalArgumentException.class, () -> AccessPolicy.of(LOOPBACK, "short"));
  }

  @Test
  void tokenComparisonIsExact() {
    AccessPolicy policy = AccessPolicy.of(LOOPBACK, "0123456789abcdef");
    assertTrue(policy.tokenMatches("0123456789abcdef"));
    assertFalse(policy.tokenMatches("0123456789abcde"));
    assertFalse(policy.tokenMatches("0123456789abcdeF"));
    assertFalse(policy.tokenMatches(null));
  }

  @Test
  void bearerHeaderParsing() {
    assertEquals(Optional.of("abc"), AccessPolicy.bearer("Bearer abc"));
    assertEquals(Optional.of("abc"), AccessPolicy.bearer("bearer  abc "));
    assertEquals(Optional.empty(), AccessPolicy.bearer("Basic abc"));
    assertEquals(Optional.empty(), AccessPolicy.bearer(null));
  }

  @Test
  void bindAddressKnowsLoopback() {
    assertTrue(BindAddress.of("127.0.0.1").loopback());
    assertTrue(BindAddress.of("localhost").loopback());
    assertTrue(BindAddress.of("::1").loopback());
    assertFalse(BindAddress.of("0.0.0.0").loopback());
  }

  @Test
  void hostCheckOnLoopbackAcceptsOnlyLoopbackNames() {
    HostCheck check = new HostCheck(LOOPBACK);
    assertTrue(check.allows("localhost:7070"));
    assertTrue(check.allows("127.0.0.1:7070"));
    assertTrue(check.allows("[::1]:7070"));
    assertFalse(check.allows("attacker.example:7070"));
    assertFalse(check.allows("127.0.0.1.attacker.example"));
    assertFalse(check.allows(null));
    assertTrue(new HostCheck(PUBLIC).allows("team-box.example:7070"));
  }

  @Test
  void loginRedirectStaysOnTheSite() {
    assertEquals("/races", LoginRoutes.safeNext("/races"));
    assertEquals("/", LoginRoutes.safeNext("//evil.example"));
    assertEquals("/", LoginRoutes.safeNext("https://evil.example"));
    assertEquals("/", LoginRoutes.safeNext("/\\evil.example"));
    assertEquals("/", LoginRoutes.safeNext(null));
  }

  @Test
  void authenticatingReplacesTheSessionId() {
    Sessions sessions = new Sessions();
    Session anonymous = sessions.create();
    Session authenticated = sessions.authenticate(Optional.of(anonymous));
    assertTrue(authenticated.authenticated());
    assertFalse(authenticated.id().equals(anonymous.id()));
    assertEquals(Optional.empty(), sessions.find(anonymous.id()));
  }

  @Test
  void aFloodOfAnonymousSessionsDoesNotEvictALogin() {
    Sessions sessions = new Sessions();
    Session login = sessions.authenticate(Optional.empty());
    for (int i = 0; i < Sessions.MAX_ANONYMOUS + 10; i++) {
      sessions.create();
    }
    assertEquals(Optional.of(login), sessions.find(login.id()));
  }
}
