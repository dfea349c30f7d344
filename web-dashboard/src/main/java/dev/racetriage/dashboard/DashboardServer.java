package dev.racetriage.dashboard;

import dev.racetriage.store.engine.StoreLocation;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.dashboard.api.ExportRoutes;
import dev.racetriage.dashboard.api.OverviewRoutes;
import dev.racetriage.dashboard.api.RaceRoutes;
import dev.racetriage.dashboard.api.RaceViewBuilder;
import dev.racetriage.dashboard.api.SourceRoutes;
import dev.racetriage.dashboard.api.TriageRoutes;
import dev.racetriage.dashboard.api.WorkerRoutes;
import dev.racetriage.dashboard.database.StoreAccess;
import dev.racetriage.dashboard.export.RaceCollector;
import dev.racetriage.dashboard.json.HtmlSafeJson;
import dev.racetriage.dashboard.live.ProgressFeed;
import dev.racetriage.dashboard.live.ProgressReader;
import dev.racetriage.dashboard.pages.PageRoutes;
import dev.racetriage.dashboard.pages.VendorScripts;
import dev.racetriage.dashboard.security.AccessPolicy;
import dev.racetriage.dashboard.security.BindAddress;
import dev.racetriage.dashboard.security.LoginRoutes;
import dev.racetriage.dashboard.security.LoginThrottle;
import dev.racetriage.dashboard.security.WebSecurity;
import dev.racetriage.dashboard.source.AccessSources;
import dev.racetriage.dashboard.source.TestCodeRaces;
import dev.racetriage.dashboard.source.ProjectFiles;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.TriageStore;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.javalin.http.staticfiles.Location;
import io.javalin.json.JavalinJackson;
import java.net.BindException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The team triage dashboard: a Javalin server over a project's triage database. Every read and write goes through
 * the store's API ({@link StoreAccess}: reads and triage actions may use different stores); files are read only
 * through {@link ProjectFiles} (sources inside the store's project directory).
 */
public final class DashboardServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DashboardServer.class);
  static final String ASSETS = "/dev/racetriage/dashboard/web/assets";

  private final Javalin app;
  private final ProgressFeed feed;
  private final BindAddress bind;
  private final StoreAccess stores;

  private DashboardServer(Javalin app, ProgressFeed feed, BindAddress bind, StoreAccess stores) {
    this.app = app;
    this.feed = feed;
    this.bind = bind;
    this.stores = stores;
  }

  /**
   * Serves the database {@code dbFile} of {@code projectDir} without writing to it until someone triages: it is read
   * through a read-only store ({@link StoreAccess#readOnly}), and closed with the server. Throws
   * {@link DashboardStartException} with a one-line message when the database cannot be served (missing, corrupt,
   * another program's, an older or newer schema) or the port cannot be bound, and
   * {@link IllegalArgumentException} for unsafe or invalid options.
   */
  public static DashboardServer open(Path dbFile, Path projectDir, DashboardOptions options) {
    return open(StoreLocation.file(dbFile), projectDir, options);
  }

  /** As {@link #open(Path, Path, DashboardOptions)} for a file or a PostgreSQL store shared by a team. */
  public static DashboardServer open(StoreLocation location, Path projectDir, DashboardOptions options) {
    StoreAccess stores;
    try {
      stores = StoreAccess.readOnly(location, projectDir);
    } catch (StoreException e) {
      throw new DashboardStartException(oneLine(e.getMessage()), e);
    }
    try {
      return start(stores, options, Clock.systemUTC());
    } catch (RuntimeException e) {
      stores.close();
      throw e;
    }
  }

  /**
   * Starts serving {@code store}, which the caller opened (for writing) and closes; reads and triage actions both use
   * it. {@link #open} is the way that writes nothing until someone triages. Throws {@link IllegalArgumentException} for options that are unsafe or invalid (a
   * public bind without a token, a short token) and {@link DashboardStartException} when the port cannot be bound.
   */
  public static DashboardServer start(TriageStore store, DashboardOptions options) {
    return start(store, options, Clock.systemUTC());
  }

  /** As {@link #start(TriageStore, DashboardOptions)}; {@code clock} times the lockouts after wrong tokens. */
  static DashboardServer start(TriageStore store, DashboardOptions options, Clock clock) {
    return start(StoreAccess.shared(store), options, clock);
  }

  private static DashboardServer start(StoreAccess stores, DashboardOptions options, Clock clock) {
    TriageStore store = stores.reads();
    BindAddress bind = BindAddress.of(options.bind());
    AccessPolicy policy = AccessPolicy.of(bind, options.token());
    PortProbe.requireFree(bind.host(), options.port());
    ObjectMapper json = HtmlSafeJson.mapper();
    AccessSources sources = new AccessSources(new ProjectFiles(store.projectDir()));
    TestCodeRaces testCode = new TestCodeRaces(store, sources);
    ProgressReader progress = new ProgressReader(store, testCode);
    ProgressFeed feed = new ProgressFeed(progress::read, store::dataVersion, json, options.pollInterval());
    WebSecurity security = new WebSecurity(policy, new LoginThrottle(clock));

    Javalin app = Javalin.create(config -> {
      config.showJavalinBanner = false;
      config.startupWatcherEnabled = false;
      config.jsonMapper(new JavalinJackson(json, false));
      config.staticFiles.add(files -> {
        files.hostedPath = "/assets";
        files.directory = ASSETS;
        files.location = Location.CLASSPATH;
      });
    });
    security.install(app);
    new LoginRoutes(security).install(app);
    new PageRoutes().install(app);
    new VendorScripts().install(app);
    new OverviewRoutes(store, progress, feed).install(app);
    new RaceRoutes(store, testCode, new RaceViewBuilder(sources, store.projectDir(), testCode)).install(app);
    new TriageRoutes(stores, json, testCode).install(app);
    new WorkerRoutes(store, clock).install(app);
    new SourceRoutes(sources.files()).install(app);
    new ExportRoutes(new RaceCollector(store, sources), json, version()).install(app);
    installErrorHandling(app);

    try {
      app.start(bind.host(), options.port());
    } catch (RuntimeException e) {
      feed.close();
      app.stop();
      if (causedByBind(e)) {
        throw portInUse(bind.host(), options.port(), e);
      }
      throw new DashboardStartException(
          "cannot start the dashboard on " + bind.host() + ":" + options.port() + ": " + e.getMessage(), e);
    }
    return new DashboardServer(app, feed, bind, stores);
  }

  static DashboardStartException portInUse(String host, int port, Throwable cause) {
    return new DashboardStartException(
        "cannot listen on " + host + ":" + port + ": the port is in use (is another dashboard running?). Stop it or "
            + "choose another port with --port", cause);
  }

  private static void installErrorHandling(Javalin app) {
    app.exception(HttpResponseException.class, (e, ctx) -> error(ctx, e.getStatus(), e.getMessage()));
    app.exception(StoreException.class, (e, ctx) -> {
      LOG.warn("store error on {} {}: {}", ctx.method(), ctx.path(), e.getMessage());
      error(ctx, HttpStatus.SERVICE_UNAVAILABLE.getCode(), e.getMessage());
    });
    app.exception(Exception.class, (e, ctx) -> {
      LOG.error("unexpected error on {} {}", ctx.method(), ctx.path(), e);
      error(ctx, HttpStatus.INTERNAL_SERVER_ERROR.getCode(),
          "internal error (" + e.getClass().getSimpleName() + "); the dashboard's log has the details");
    });
    app.error(HttpStatus.NOT_FOUND, ctx -> {
      if (ctx.result() == null) {
        error(ctx, HttpStatus.NOT_FOUND.getCode(), "no such page: " + ctx.path());
      }
    });
  }

  /** API errors are JSON {@code {"status", "error"}}; page errors are plain text (never HTML built from input). */
  private static void error(Context ctx, int status, String message) {
    ctx.status(status);
    if (ctx.path().startsWith("/api/")) {
      ctx.json(Map.of("status", status, "error", message));
    } else {
      ctx.contentType("text/plain; charset=utf-8").result(status + " " + message);
    }
  }

  private static boolean causedByBind(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BindException || t.getClass().getSimpleName().equals("JavalinBindException")) {
        return true;
      }
    }
    return false;
  }

  private static String oneLine(String message) {
    return message == null ? "cannot open the triage database" : message.replaceAll("\\s*\\R\\s*", " ");
  }

  static String version() {
    String version = DashboardServer.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }

  public int port() {
    return app.port();
  }

  /** The address to open in a browser: loopback binds print {@code 127.0.0.1}, wildcard binds this host's name. */
  public URI url() {
    String host = bind.host();
    if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
      host = "localhost";
    } else if (host.contains(":") && !host.startsWith("[")) {
      host = "[" + host + "]";
    }
    return URI.create("http://" + host + ":" + port() + "/");
  }

  @Override
  public void close() {
    try {
      feed.close();
      app.stop();
    } finally {
      stores.close();
    }
  }
}
