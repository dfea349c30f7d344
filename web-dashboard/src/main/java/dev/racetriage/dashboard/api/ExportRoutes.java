package dev.racetriage.dashboard.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.dashboard.export.CsvExport;
import dev.racetriage.dashboard.export.ExportFormat;
import dev.racetriage.dashboard.export.RaceCollector;
import dev.racetriage.dashboard.export.SarifExport;
import io.javalin.Javalin;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;

/**
 * {@code GET /api/export?format=json|csv|sarif} with the race list's filters ({@code verdict}, {@code state},
 * {@code class}, {@code q}, {@code sort}, {@code desc}): every matching race, as a download. Races whose rows cannot
 * be read are left out; the {@value #UNREADABLE_HEADER} header counts them (the JSON and CSV formats have no place
 * for a note) and a SARIF log carries a tool notification saying so.
 */
public final class ExportRoutes {
  public static final String UNREADABLE_HEADER = "X-Racetriage-Unreadable-Races";

  private final RaceCollector collector;
  private final ObjectMapper json;
  private final String toolVersion;

  public ExportRoutes(RaceCollector collector, ObjectMapper json, String toolVersion) {
    this.collector = collector;
    this.json = json;
    this.toolVersion = toolVersion;
  }

  public void install(Javalin app) {
    app.get("/api/export", this::export);
  }

  private void export(Context ctx) throws JsonProcessingException {
    ExportFormat format;
    try {
      format = ExportFormat.parse(ctx.queryParam("format"));
    } catch (IllegalArgumentException e) {
      throw new BadRequestResponse(e.getMessage());
    }
    RaceCollector.Collected collected = collector.collect(RaceListRequest.from(ctx), RaceListRequest.scope(ctx));
    String body = switch (format) {
      case JSON -> json.writerWithDefaultPrettyPrinter().writeValueAsString(collected.races());
      case CSV -> CsvExport.write(collected.races());
      case SARIF -> json.writerWithDefaultPrettyPrinter().writeValueAsString(
          SarifExport.write(collected.races(), collected.unreadable(), toolVersion, json));
    };
    if (collected.unreadable() > 0) {
      ctx.header(UNREADABLE_HEADER, Integer.toString(collected.unreadable()));
    }
    ctx.header("Content-Disposition", "attachment; filename=\"" + format.fileName() + "\"");
    ctx.contentType(format.contentType()).result(body);
  }
}
