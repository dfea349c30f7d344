package dev.racetriage.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/** A browser-like client of a running dashboard: keeps cookies, sends JSON, reads JSON. */
final class HttpSession {
  static final ObjectMapper JSON = new ObjectMapper();

  final URI base;
  final HttpClient client;

  HttpSession(URI base) {
    this.base = base;
    this.client = HttpClient.newBuilder()
        .cookieHandler(new CookieManager())
        .followRedirects(HttpClient.Redirect.NEVER)
        .connectTimeout(Duration.ofSeconds(10))
        .build();
  }

  HttpResponse<String> get(String path, String... headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).GET();
    if (headers.length > 0) {
      request.headers(headers);
    }
    return send(request.build());
  }

  JsonNode getJson(String path) {
    HttpResponse<String> response = get(path);
    if (response.statusCode() != 200) {
      throw new AssertionError("GET " + path + " → " + response.statusCode() + ": " + response.body());
    }
    return parse(response.body());
  }

  /** The CSRF token of this client's session (creating the session and its cookie). */
  String csrfToken() {
    return getJson("/api/session").get("csrfToken").asText();
  }

  HttpResponse<String> postJson(String path, Object body, String... headers) {
    try {
      HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
      if (headers.length > 0) {
        request.headers(headers);
      }
      return send(request.build());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A triage POST the way the dashboard's pages make it: session cookie + CSRF header + same Origin. */
  HttpResponse<String> postAsPage(String path, Map<String, ?> body) {
    return postJson(path, body, "X-CSRF-Token", csrfToken(), "Origin", origin());
  }

  String origin() {
    return base.getScheme() + "://" + base.getAuthority();
  }

  HttpResponse<String> send(HttpRequest request) {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static JsonNode parse(String body) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + body, e);
    }
  }

  static String race(String fieldKey) {
    return "/api/races/" + URLEncoder.encode(fieldKey, StandardCharsets.UTF_8)
        .replace("+", "%20");
  }
}
