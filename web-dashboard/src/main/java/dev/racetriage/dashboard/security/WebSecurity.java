package dev.racetriage.dashboard.security;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Cookie;
import io.javalin.http.ForbiddenResponse;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.javalin.http.SameSite;
import io.javalin.http.UnauthorizedResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Optional;

/**
 * The request pipeline's guard: headers on every response, the Host check, the session cookie, the token for
 * reads on public binds, and CSRF proof plus the token for every mutation.
 *
 * <p>A mutation is accepted when (1) its {@code Origin}, if the browser sent one, is this server, and (2) it carries
 * {@code Authorization: Bearer <token>} (scripts and CLIs — a cross-site page cannot add that header without a CORS
 * preflight, which this server never grants), or it carries the session cookie (SameSite=Strict, so cross-site
 * requests arrive without it) and the session's CSRF token in {@code X-CSRF-Token}, from a session that logged in
 * with the token when one is configured.
 *
 * <p>Every token a client sends (login form, {@code ?token=} link, bearer header) is checked by {@link #tokenIsRight},
 * which a {@link LoginThrottle} guards against guessing.
 */
public final class WebSecurity {
  public static final String SESSION_COOKIE = "racetriage_session";
  public static final String CSRF_HEADER = "X-CSRF-Token";
  private static final String SESSION_ATTRIBUTE = "racetriage.session";

  private final AccessPolicy policy;
  private final HostCheck hostCheck;
  private final Sessions sessions = new Sessions();
  private final LoginThrottle throttle;

  public WebSecurity(AccessPolicy policy, LoginThrottle throttle) {
    this.policy = policy;
    this.hostCheck = new HostCheck(policy.bind());
    this.throttle = throttle;
  }

  public AccessPolicy policy() {
    return policy;
  }

  public void install(Javalin app) {
    app.before(this::guard);
  }

  private void guard(Context ctx) {
    SecurityHeaders.apply(ctx);
    if (!hostCheck.allows(ctx.header("Host"))) {
      throw new ForbiddenResponse(
          "this dashboard only answers requests addressed to localhost or 127.0.0.1 (Host was '"
              + ctx.header("Host") + "')");
    }
    boolean mutation = isMutation(ctx.method());
    if (mutation && !sameOriginOrNone(ctx)) {
      throw new ForbiddenResponse("cross-origin request refused (Origin " + ctx.header("Origin") + ")");
    }
    if (isOpenPath(ctx.path()) || !mutation && carriesLoginToken(ctx)) {
      return;
    }
    if (mutation) {
      requireMutationProof(ctx);
    } else if (policy.readsNeedToken() && !authenticated(ctx)) {
      if (ctx.path().startsWith("/api/")) {
        throw new UnauthorizedResponse("this dashboard needs its token: send 'Authorization: Bearer <token>' or log in");
      }
      ctx.redirect("/login");
      ctx.skipRemainingHandlers();
    }
  }

  /** The login page, its form and the session probe must work before logging in; assets hold no data. */
  private static boolean isOpenPath(String path) {
    return path.equals("/login") || path.equals("/api/session") || path.startsWith("/assets/")
        || path.startsWith("/vendor/");
  }

  /** A page link with {@code ?token=}: {@link LoginRoutes} checks it next and answers with a redirect or a 401. */
  private static boolean carriesLoginToken(Context ctx) {
    return ctx.queryParam("token") != null && !ctx.path().startsWith("/api/");
  }

  private void requireMutationProof(Context ctx) {
    Optional<String> bearer = AccessPolicy.bearer(ctx.header("Authorization"));
    if (bearer.isPresent()) {
      if (tokenIsRight(ctx, bearer.get())) {
        return;
      }
      throw new UnauthorizedResponse("wrong dashboard token");
    }
    Optional<Session> session = currentSession(ctx);
    if (session.isEmpty()) {
      throw new ForbiddenResponse(
          "no session: load the dashboard page first (or send 'Authorization: Bearer <token>')");
    }
    String csrf = ctx.header(CSRF_HEADER);
    if (csrf == null || !MessageDigest.isEqual(
        csrf.getBytes(StandardCharsets.UTF_8), session.get().csrfToken().getBytes(StandardCharsets.UTF_8))) {
      throw new ForbiddenResponse("missing or wrong " + CSRF_HEADER + " header (CSRF protection)");
    }
    if (policy.mutationsNeedToken() && !session.get().authenticated()) {
      throw new UnauthorizedResponse("this change needs the dashboard token: log in at /login");
    }
  }

  private boolean authenticated(Context ctx) {
    Optional<String> bearer = AccessPolicy.bearer(ctx.header("Authorization"));
    if (bearer.isPresent()) {
      return tokenIsRight(ctx, bearer.get());
    }
    return currentSession(ctx).map(Session::authenticated).orElse(false);
  }

  /**
   * Browsers send Origin on every cross-origin request and on same-origin POSTs; non-browser clients usually send
   * none, and they prove themselves with the token or the CSRF header instead.
   */
  private static boolean sameOriginOrNone(Context ctx) {
    String origin = ctx.header("Origin");
    if (origin == null) {
      return !"cross-site".equals(ctx.header("Sec-Fetch-Site"));
    }
    String host = ctx.header("Host");
    return host != null && (origin.equals("http://" + host) || origin.equals("https://" + host));
  }

  private static boolean isMutation(HandlerType method) {
    return method == HandlerType.POST || method == HandlerType.PUT || method == HandlerType.PATCH
        || method == HandlerType.DELETE;
  }

  public Optional<Session> currentSession(Context ctx) {
    Session cached = ctx.attribute(SESSION_ATTRIBUTE);
    if (cached != null) {
      return Optional.of(cached);
    }
    Optional<Session> session = sessions.find(ctx.cookie(SESSION_COOKIE));
    session.ifPresent(s -> ctx.attribute(SESSION_ATTRIBUTE, s));
    return session;
  }

  /** The caller's session, created (with its cookie) when it has none. */
  public Session ensureSession(Context ctx) {
    return currentSession(ctx).orElseGet(() -> remember(ctx, sessions.create()));
  }

  /** Logs the caller in if {@code token} is right; the session id changes on login. */
  public boolean logIn(Context ctx, String token) {
    if (!tokenIsRight(ctx, token)) {
      return false;
    }
    remember(ctx, sessions.authenticate(currentSession(ctx)));
    return true;
  }

  /**
   * Whether {@code candidate} is the dashboard token, counting wrong ones per client address. While the address is
   * locked out the answer is 429 with {@code Retry-After}, and the candidate is not even compared.
   */
  private boolean tokenIsRight(Context ctx, String candidate) {
    String client = ctx.ip();
    Optional<Duration> wait = throttle.lockedOut(client);
    if (wait.isPresent()) {
      long seconds = Math.max(1, (wait.get().toMillis() + 999) / 1000);
      ctx.header("Retry-After", Long.toString(seconds));
      throw new HttpResponseException(HttpStatus.TOO_MANY_REQUESTS.getCode(),
          "too many wrong tokens from " + client + "; try again in " + seconds + " s");
    }
    if (policy.tokenMatches(candidate)) {
      throttle.succeeded(client);
      return true;
    }
    throttle.failed(client);
    return false;
  }

  private Session remember(Context ctx, Session session) {
    ctx.attribute(SESSION_ATTRIBUTE, session);
    // Session cookie (no max-age): SameSite=Strict keeps it off every cross-site request; HttpOnly keeps it from
    // scripts. Not Secure: the dashboard speaks plain HTTP on loopback.
    ctx.cookie(new Cookie(SESSION_COOKIE, session.id(), "/", -1, false, 0, true, null, null, SameSite.STRICT));
    return session;
  }
}
