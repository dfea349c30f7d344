package dev.racetriage.dashboard.pages;

import io.javalin.Javalin;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * Serves Chart.js from its webjar on the classpath as {@code /vendor/chart.umd.js}, so the dashboard works offline
 * and the pages need not know the version pinned in the parent pom (it is read from the webjar's pom.properties).
 */
public final class VendorScripts {
  static final String CHART_JS_POM = "/META-INF/maven/org.webjars.npm/chart.js/pom.properties";

  private final byte[] chartJs;

  public VendorScripts() {
    String version = chartJsVersion();
    this.chartJs = read("/META-INF/resources/webjars/chart.js/" + version + "/dist/chart.umd.min.js");
  }

  public void install(Javalin app) {
    app.get("/vendor/chart.umd.js", ctx -> {
      ctx.contentType("text/javascript; charset=utf-8").result(chartJs);
      // Versioned by the jar: the browser may keep it for the session.
      ctx.header("Cache-Control", "private, max-age=3600");
    });
  }

  static String chartJsVersion() {
    try (InputStream in = VendorScripts.class.getResourceAsStream(CHART_JS_POM)) {
      if (in == null) {
        throw new IllegalStateException(
            "the Chart.js webjar (org.webjars.npm:chart.js) is missing from the classpath; rebuild racetriage");
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] read(String path) {
    try (InputStream in = VendorScripts.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException(path + " is missing from the Chart.js webjar; rebuild racetriage");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
