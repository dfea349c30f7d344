package dev.racetriage.dashboard.security;

import io.javalin.http.Context;

/**
 * Headers on every response. The CSP allows scripts and styles only from this server (no inline code at all: the
 * pages' scripts are files, and they build the DOM with textContent), forbids framing (clickjacking on the triage
 * buttons) and limits fetches to this origin.
 */
public final class SecurityHeaders {
  public static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
          + "font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  private SecurityHeaders() {}

  public static void apply(Context ctx) {
    ctx.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("X-Frame-Options", "DENY");
    ctx.header("Referrer-Policy", "no-referrer");
    ctx.header("Cross-Origin-Opener-Policy", "same-origin");
    ctx.header("Cross-Origin-Resource-Policy", "same-origin");
    // Race data and tokens must not linger in shared caches; static assets are tiny and served from the jar.
    ctx.header("Cache-Control", "no-store");
  }
}
