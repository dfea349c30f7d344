package dev.racetriage.dashboard.security;

import dev.racetriage.dashboard.pages.PageRoutes;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.util.Map;

/**
 * How a browser gets the token into its session: the login form ({@code POST /login}), or a link carrying
 * {@code ?token=…} once (handy to share from a terminal), which is exchanged for the session cookie and then
 * redirected away so the token does not stay in the address bar or history.
 */
public final class LoginRoutes {
    private static final String ERROR_SLOT = "<!--error-->";

  private final WebSecurity security;
  private final String loginPage;

  public LoginRoutes(WebSecurity security) {
    this.security = security;
    this.loginPage = PageRoutes.resource("login.html");
  }

  public void install(Javalin app) {
    app.before(this::exchangeQueryToken);
    app.get("/login", ctx -> ctx.html(loginPage.replace(ERROR_SLOT, "")));
    app.post("/login", this::logIn);
    app.get("/api/session", this::describeSession);
  }

  private void exchangeQueryToken(Context ctx) {
    String token = ctx.queryParam("token");
    if (token == null || ctx.path().startsWith("/api/") || !"GET".equals(ctx.method().name())) {
      return;
    }
    if (security.logIn(ctx, token)) {
      // The path came from the request: "//evil.example/?token=…" must not send a freshly logged-in browser away.
      ctx.redirect(safeNext(ctx.path()));
    } else {
      ctx.status(HttpStatus.UNAUTHORIZED).html(page("That token is not this dashboard's token."));
    }
    ctx.skipRemainingHandlers();
  }

  private void logIn(Context ctx) {
    if (security.logIn(ctx, ctx.formParam("token"))) {
      ctx.redirect(safeNext(ctx.formParam("next")));
    } else {
      ctx.status(HttpStatus.UNAUTHORIZED).html(page("That token is not this dashboard's token."));
    }
  }

  private void describeSession(Context ctx) {
    Session session = security.ensureSession(ctx);
    AccessPolicy policy = security.policy();
    ctx.json(Map.of(
        "csrfToken", session.csrfToken(),
        "authenticated", session.authenticated(),
        "mutationsNeedToken", policy.mutationsNeedToken(),
        "readsNeedToken", policy.readsNeedToken()));
  }

  /**
   * Only same-site absolute paths: "//evil.example", "/\\evil.example" and "https://…" would make the login an open
   * redirect. Browsers drop tabs and newlines from a Location and treat a backslash as a slash, so any control
   * character, white space or backslash is refused as well.
   */
  static String safeNext(String next) {
    if (next == null || !next.startsWith("/") || next.startsWith("//")
        || next.chars().anyMatch(c -> c == '\\' || Character.isWhitespace(c) || Character.isISOControl(c))) {
      return "/";
    }
    return next;
  }

  private String page(String constantMessage) {
    // The message is one of this class's constants, never request data, so it needs no escaping.
    return loginPage.replace(ERROR_SLOT, "<p class=\"error\">" + constantMessage + "</p>");
  }
}
