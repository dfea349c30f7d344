package dev.racetriage.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.races.TriageState;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Escaping, CSRF, tokens, Host checks, headers and file access, against real servers: one without a token (the
 * loopback default) and one with a token.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardSecurityTest {
  static final String TOKEN = "s3cret-token-for-tests";

  Path dir;
  FixtureProject project;
  DashboardServer open;
  DashboardServer guarded;

  @BeforeAll
  void start(@TempDir Path tempDir) throws IOException {
    dir = tempDir.resolve("project");
    Files.createDirectories(dir);
    project = FixtureProject.create(dir, 0);
    Path outside = tempDir.resolve("outside");
    Files.createDirectories(outside);
    Files.writeString(outside.resolve("Secret.java"), "class Secret { String password = \"hunter2\"; }\n");
    Files.createSymbolicLink(dir.resolve("src/main/java/com/example/Link.java"), outside.resolve("Secret.java"));
    Files.createSymbolicLink(dir.resolve("src/linked"), outside);
    Files.createLink(dir.resolve("src/main/java/com/example/Hard.java"), outside.resolve("Secret.java"));
    DashboardOptions options = DashboardOptions.defaults().withPort(0).withPollInterval(Duration.ofMillis(200));
    open = DashboardServer.start(project.store, options);
    guarded = DashboardServer.start(project.store, options.withToken(TOKEN));
  }

  @AfterAll
  void stop() {
    open.close();
    guarded.close();
    project.store.close();
  }

  // --- escaping ---------------------------------------------------------------------------------------------------

  @Test
  void testOutputInJsonNeverContainsRawMarkup() {
    HttpResponse<String> response = new HttpSession(open.url()).get(HttpSession.race("com.example.Cache.hash"));
    assertEquals(200, response.statusCode());
    String body = response.body();
    assertFalse(body.contains("<script>"), "raw <script> in the JSON");
    assertFalse(body.contains("<img"), "raw <img in the JSON");
    assertTrue(body.contains("\\u003Cscript\\u003E") || body.contains("\\u003cscript\\u003e"), body);
    // Escaped, not lost: a JSON parser gets the exact payload back for the page to show as text.
    assertTrue(HttpSession.parse(body).get("firstFailure").asText().contains(FixtureProject.XSS));
    assertEquals("nosniff", response.headers().firstValue("X-Content-Type-Options").orElseThrow());
    assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("application/json"));
  }

  @Test
  void exportsEscapeOrDefuseTestOutput() {
    HttpSession http = new HttpSession(open.url());
    assertFalse(http.get("/api/export?format=json").body().contains("<script>"));
    assertFalse(http.get("/api/export?format=sarif").body().contains("<script>"));
    String csv = http.get("/api/export?format=csv").body();
    assertEquals("attachment; filename=\"racetriage-races.csv\"",
        http.get("/api/export?format=csv").headers().firstValue("Content-Disposition").orElseThrow());
    assertTrue(csv.contains("com.example.Cache.hash"), csv);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/", "/races", "/races/com.example.Cache.hash", "/login"})
  void pagesAreStaticShellsWithoutInlineScriptAndWithStrictHeaders(String path) {
    HttpResponse<String> response = new HttpSession(open.url()).get(path);
    assertEquals(200, response.statusCode());
    String html = response.body();
    assertFalse(Pattern.compile("<script(?![^>]*\\ssrc=)[^>]*>").matcher(html).find(), "inline <script> in " + path);
    assertFalse(Pattern.compile("\\son[a-z]+\\s*=", Pattern.CASE_INSENSITIVE).matcher(html).find(),
        "inline event handler in " + path);
    assertFalse(html.contains("com.example.Cache.hash"), "page shells carry no data; scripts fetch it");
    String csp = response.headers().firstValue("Content-Security-Policy").orElseThrow();
    assertTrue(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), csp);
    assertTrue(csp.contains("frame-ancestors 'none'"), csp);
    assertEquals("DENY", response.headers().firstValue("X-Frame-Options").orElseThrow());
    assertEquals("nosniff", response.headers().firstValue("X-Content-Type-Options").orElseThrow());
  }

  @Test
  void chartJsIsServedFromTheJar() {
    HttpResponse<String> response = new HttpSession(open.url()).get("/vendor/chart.umd.js");
    assertEquals(200, response.statusCode());
    assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("text/javascript"));
    assertTrue(response.body().contains("Chart.js v" + System.getProperty("racetriage.chartjs.version", "")),
        "the webjar's banner names the pinned version");
  }

  // --- CSRF on the loopback server without a token ------------------------------------------------------------------

  @Test
  void mutationWithoutCsrfHeaderIsRefused() {
    HttpSession http = new HttpSession(open.url());
    http.csrfToken(); // has a session cookie, but does not send the header
    HttpResponse<String> response = http.postJson(triage("com.example.Cache.hash"), mark());
    assertEquals(403, response.statusCode(), response.body());
    assertTrue(response.body().contains("X-CSRF-Token"), response.body());
    assertOpen("com.example.Cache.hash");
  }

  @Test
  void mutationWithAnotherSessionsCsrfTokenIsRefused() {
    String stolen = new HttpSession(open.url()).csrfToken();
    HttpSession victim = new HttpSession(open.url());
    victim.csrfToken();
    assertEquals(403, victim.postJson(triage("com.example.Cache.hash"), mark(), "X-CSRF-Token", stolen).statusCode());
  }

  @Test
  void mutationWithoutSessionIsRefused() {
    HttpResponse<String> response = new HttpSession(open.url())
        .postJson(triage("com.example.Cache.hash"), mark(), "X-CSRF-Token", "guess");
    assertEquals(403, response.statusCode());
  }

  @Test
  void crossOriginMutationIsRefusedEvenWithAValidCsrfToken() {
    HttpSession http = new HttpSession(open.url());
    HttpResponse<String> response = http.postJson(triage("com.example.Cache.hash"), mark(),
        "X-CSRF-Token", http.csrfToken(), "Origin", "http://evil.example");
    assertEquals(403, response.statusCode());
    assertOpen("com.example.Cache.hash");
  }

  @Test
  void formEncodedMutationIsRefused() {
    HttpSession http = new HttpSession(open.url());
    HttpRequest request = HttpRequest.newBuilder(open.url().resolve(triage("com.example.Cache.hash")))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("X-CSRF-Token", http.csrfToken())
        .POST(HttpRequest.BodyPublishers.ofString("state=trusted-benign&note=x"))
        .build();
    assertEquals(415, http.send(request).statusCode());
  }

  @Test
  void sessionCookieIsHttpOnlyAndSameSiteStrict() {
    HttpResponse<String> response = new HttpSession(open.url()).get("/api/session");
    String cookie = response.headers().firstValue("Set-Cookie").orElseThrow();
    assertTrue(cookie.startsWith("racetriage_session="), cookie);
    assertTrue(cookie.contains("HttpOnly"), cookie);
    assertTrue(cookie.contains("SameSite=Strict"), cookie);
  }

  // --- the token --------------------------------------------------------------------------------------------------

  @Test
  void withATokenAPageSessionWithoutLoginCannotMutate() {
    HttpSession http = new HttpSession(guarded.url());
    HttpResponse<String> response = http.postAsPage(triage("com.example.Cache.hash"), mark());
    assertEquals(401, response.statusCode(), response.body());
    assertOpen("com.example.Cache.hash");
  }

  @Test
  void withATokenAWrongBearerIsRefusedAndTheRightOneWorks() {
    HttpSession http = new HttpSession(guarded.url());
    assertEquals(401, http.postJson(comments("com.example.Cache.hash"), Map.of("text", "hi"),
        "Authorization", "Bearer wrong-token-value").statusCode());
    HttpResponse<String> ok = http.postJson(comments("com.example.Cache.hash"), Map.of("text", "via bearer"),
        "Authorization", "Bearer " + TOKEN);
    assertEquals(201, ok.statusCode(), ok.body());
  }

  @Test
  void tokenInTheQueryIsExchangedForASessionCookieOnce() {
    HttpSession http = new HttpSession(guarded.url());
    HttpResponse<String> redirect = http.get("/races?token=" + TOKEN);
    assertEquals(302, redirect.statusCode());
    assertEquals("/races", redirect.headers().firstValue("Location").orElseThrow(), "the token leaves the URL");
    JsonNode session = http.getJson("/api/session");
    assertTrue(session.get("authenticated").asBoolean());
    HttpResponse<String> comment = http.postAsPage(comments("com.example.Cache.hash"), Map.of("text", "logged in"));
    assertEquals(201, comment.statusCode(), comment.body());

    assertEquals(401, new HttpSession(guarded.url()).get("/races?token=nope").statusCode());
  }

  @ParameterizedTest
  @ValueSource(strings = {"//evil.example/", "//evil.example/races"})
  void tokenExchangeRedirectsOnlyWithinTheSite(String path) {
    HttpSession http = new HttpSession(guarded.url());
    // Not base.resolve(path): "//evil.example/" would resolve to another host before the request is even sent.
    URI url = URI.create(http.origin() + path + "?token=" + TOKEN);
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(url).GET().build());
    assertEquals(302, response.statusCode(), response.body());
    assertEquals("/", response.headers().firstValue("Location").orElseThrow());
  }

  @Test
  void loginFormSetsAnAuthenticatedSessionAndRedirectsOnlyWithinTheSite() {
    HttpSession http = new HttpSession(guarded.url());
    HttpRequest login = HttpRequest.newBuilder(guarded.url().resolve("/login"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Origin", http.origin())
        .POST(HttpRequest.BodyPublishers.ofString("token=" + TOKEN + "&next=//evil.example/"))
        .build();
    HttpResponse<String> response = http.send(login);
    assertEquals(302, response.statusCode());
    assertEquals("/", response.headers().firstValue("Location").orElseThrow());
    assertTrue(http.getJson("/api/session").get("authenticated").asBoolean());
  }

  @Test
  void wrongTokenGuessesFromOneAddressAreLockedOut() {
    // A clock that never moves: the lockout cannot run out while the test runs, however slow the machine.
    Clock frozen = Clock.fixed(Instant.parse("2025-01-01T00:00:00Z"), ZoneOffset.UTC);
    try (DashboardServer server = DashboardServer.start(project.store,
        DashboardOptions.defaults().withPort(0).withToken(TOKEN), frozen)) {
      HttpSession http = new HttpSession(server.url());
      for (int i = 0; i < 4; i++) {
        assertEquals(401, http.get("/races?token=wrong-guess-" + i).statusCode(), "guess " + i);
      }
      assertEquals(401, loginForm(http, server, "wrong-guess-4").statusCode(), "the form counts too");

      HttpResponse<String> locked = http.get("/races?token=" + TOKEN);
      assertEquals(429, locked.statusCode(), "even the right token waits out the lockout");
      assertEquals("1", locked.headers().firstValue("Retry-After").orElseThrow());
      assertEquals(429, loginForm(http, server, TOKEN).statusCode());
      HttpResponse<String> bearer = http.postJson(comments("com.example.Cache.hash"), Map.of("text", "hi"),
          "Authorization", "Bearer " + TOKEN);
      assertEquals(429, bearer.statusCode(), bearer.body());
      assertTrue(bearer.body().contains("too many wrong tokens"), bearer.body());
    }
  }

  @Test
  void nonLoopbackBindWithoutTokenRefusesToStart() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
        DashboardServer.start(project.store, DashboardOptions.defaults().withPort(0).withBind("0.0.0.0")));
    assertTrue(e.getMessage().contains("--token"), e.getMessage());
  }

  @Test
  void nonLoopbackBindNeedsTheTokenForReadsToo() {
    try (DashboardServer wide = DashboardServer.start(project.store,
        DashboardOptions.defaults().withPort(0).withBind("0.0.0.0").withToken(TOKEN))) {
      HttpSession http = new HttpSession(URI.create("http://127.0.0.1:" + wide.port() + "/"));
      assertEquals(401, http.get("/api/races").statusCode());
      assertEquals(302, http.get("/races").statusCode());
      assertEquals(200, http.get("/api/races", "Authorization", "Bearer " + TOKEN).statusCode());
      assertEquals(401, http.get("/races?token=wrong-token-value").statusCode());
      assertEquals(302, http.get("/races?token=" + TOKEN).statusCode());
      assertEquals(200, http.get("/api/races").statusCode(), "the ?token= link logged this browser in");
    }
  }

  @Test
  void shortTokensAreRefused() {
    assertThrows(IllegalArgumentException.class, () ->
        DashboardServer.start(project.store, DashboardOptions.defaults().withPort(0).withToken("short")));
  }

  @Test
  void loopbackServerRefusesForeignHostHeadersAgainstDnsRebinding() throws IOException {
    assertEquals(403, rawGetStatus(open.port(), "evil.example:" + open.port()));
    assertEquals(200, rawGetStatus(open.port(), "localhost:" + open.port()));
    assertEquals(200, rawGetStatus(open.port(), "127.0.0.1:" + open.port()));
  }

  // --- files ------------------------------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {
      "../outside/Secret.java",
      "src/../../outside/Secret.java",
      "..%2Foutside%2FSecret.java",
      "%2Fetc%2Fpasswd",
      "/etc/passwd",
      "src/main/java/com/example/Link.java",
      "src/main/java/com/example/Hard.java",
      "src/linked/Secret.java",
      ".git/config",
      "src/main/java/com/example/..%5C..%5C..%5C..%5C..%5Coutside%5CSecret.java",
      ".racetriage/triage.db",
      "pom.xml"})
  void sourceViewRefusesPathsOutsideTheProjectsSources(String path) {
    HttpResponse<String> response = new HttpSession(open.url()).get("/api/source?path=" + path + "&line=1");
    assertEquals(403, response.statusCode(), path + " → " + response.body());
    assertFalse(response.body().contains("hunter2"));
  }

  @Test
  void missingSourceFileIs404() {
    assertEquals(404, new HttpSession(open.url()).get("/api/source?path=src/main/java/Nope.java").statusCode());
  }

  // --- helpers ----------------------------------------------------------------------------------------------------

  private void assertOpen(String field) {
    assertEquals(TriageState.OPEN,
        project.store.races().find(FieldKey.parse(field)).orElseThrow().triageState());
  }

  /** A mark as the race page sends it once the user confirmed overriding the destructive verdict. */
  private static Map<String, Object> mark() {
    return Map.of("state", "trusted-benign", "note", "attacker says so", "overrideDestructive", true);
  }

  private static String triage(String field) {
    return HttpSession.race(field) + "/triage";
  }

  private static String comments(String field) {
    return HttpSession.race(field) + "/comments";
  }

  private static HttpResponse<String> loginForm(HttpSession http, DashboardServer server, String token) {
    return http.send(HttpRequest.newBuilder(server.url().resolve("/login"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Origin", http.origin())
        .POST(HttpRequest.BodyPublishers.ofString("token=" + token))
        .build());
  }

  /** java.net.http will not send a forged Host header; a socket will. */
  private static int rawGetStatus(int port, String host) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(("GET /api/overview HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String statusLine = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
      return Integer.parseInt(statusLine.substring(9, 12));
    }
  }
}
