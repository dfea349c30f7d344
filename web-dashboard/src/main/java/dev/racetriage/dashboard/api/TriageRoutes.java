package dev.racetriage.dashboard.api;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.store.FieldKey;
import dev.racetriage.dashboard.database.StoreAccess;
import dev.racetriage.dashboard.source.TestCodeRaces;
import dev.racetriage.store.marks.AuditEntry;
import io.javalin.Javalin;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.HttpResponseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.Locale;

/**
 * The triage actions: {@code POST /api/races/{id}/triage} with {@code {"state": "trusted-benign" | "open", "note",
 * "author"}} and {@code POST /api/races/{id}/comments} with {@code {"text", "author"}}. Both write the store's audit
 * log; a trusted-benign mark also updates the project's committed mirror file. They write through
 * {@link StoreAccess#writes()}, which may open the database for writing at the first action. Bodies must be JSON
 * ({@code Content-Type: application/json}), which an HTML form on another site cannot send.
 */
public final class TriageRoutes {
  static final String DEFAULT_AUTHOR = "dashboard";
  /** The store's one limit on a note or comment, whoever writes it (the CLI checks the same). */
  static final int MAX_TEXT = dev.racetriage.store.marks.TrustedBenignMark.MAX_NOTE;

  private final StoreAccess stores;
  private final ObjectMapper json;
  private final TestCodeRaces testCode;

  public TriageRoutes(StoreAccess stores, ObjectMapper json, TestCodeRaces testCode) {
    this.stores = stores;
    this.testCode = testCode;
    this.json = json.copy().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  }

  public void install(Javalin app) {
    app.post("/api/races/{id}/triage", this::triage);
    app.post("/api/races/{id}/comments", this::comment);
  }

  /**
   * {@code overrideDestructive}: the client showed the user the destructive evidence and the user confirmed the mark
   * anyway (recorded as an override in the audit log); without it a destructive race is not marked (409).
   */
  public record TriageRequest(String state, String note, String author, Boolean overrideDestructive) {}

  public record CommentRequest(String text, String author) {}

  private void triage(Context ctx) {
    FieldKey field = Paths.raceId(ctx);
    TriageRequest request = body(ctx, TriageRequest.class);
    requireRace(field);
    String author = author(request.author());
    String state = request.state() == null ? "" : request.state().strip().toLowerCase(Locale.ROOT);
    switch (state) {
      case "trusted-benign" -> {
        String note = text(request.note(), "note");
        boolean destructive = stores.reads().races().find(field)
            .map(r -> r.verdict() == dev.racetriage.store.verdicts.Verdict.DESTRUCTIVE).orElse(false);
        if (destructive && !Boolean.TRUE.equals(request.overrideDestructive())) {
          String evidence = stores.reads().verdicts().current(field).map(v -> v.evidence().summary())
              .filter(s -> !s.isBlank()).map(s -> " (" + s + ")").orElse("");
          throw new HttpResponseException(HttpStatus.CONFLICT.getCode(), field + " is destructive" + evidence
              + ": stale values made a test fail, and marking it trusted-benign overrides that evidence. Confirm "
              + "with \"overrideDestructive\": true to mark it anyway (recorded as an override in the audit log).");
        }
        stores.writes().marks().markTrustedBenign(field, author, note, destructive);
      }
      case "open" -> stores.writes().marks().reopen(field, author, optionalText(request.note()));
      default -> throw new BadRequestResponse("state must be \"trusted-benign\" or \"open\"");
    }
    ctx.json(RaceRow.of(stores.reads().races().find(field).orElseThrow(() -> RaceRoutes.notFound(field)),
        testCode.contains(field.toString())));
  }

  private void comment(Context ctx) {
    FieldKey field = Paths.raceId(ctx);
    CommentRequest request = body(ctx, CommentRequest.class);
    requireRace(field);
    AuditEntry entry = stores.writes().marks().comment(field, author(request.author()), text(request.text(), "text"));
    ctx.status(HttpStatus.CREATED).json(RaceView.AuditRow.of(entry));
  }

  private void requireRace(FieldKey field) {
    if (stores.reads().races().find(field).isEmpty()) {
      throw RaceRoutes.notFound(field);
    }
  }

  private <T> T body(Context ctx, Class<T> type) {
    String contentType = ctx.contentType();
    if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      throw new HttpResponseException(
          HttpStatus.UNSUPPORTED_MEDIA_TYPE.getCode(), "send the body as JSON (Content-Type: application/json)");
    }
    try {
      T value = json.readValue(ctx.body(), type);
      if (value == null) {
        throw new BadRequestResponse("the body must be a JSON object");
      }
      return value;
    } catch (JsonProcessingException e) {
      throw new BadRequestResponse("the body is not valid JSON for this request: " + e.getOriginalMessage());
    }
  }

  private static String author(String author) {
    return author == null || author.isBlank() ? DEFAULT_AUTHOR : limit(author.strip(), 200, "author");
  }

  private static String text(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new BadRequestResponse("\"" + name + "\" is required and must not be empty");
    }
    return limit(value.strip(), MAX_TEXT, name);
  }

  private static String optionalText(String value) {
    return value == null || value.isBlank() ? null : limit(value.strip(), MAX_TEXT, "note");
  }

  private static String limit(String value, int max, String name) {
    if (value.length() > max) {
      throw new BadRequestResponse("\"" + name + "\" is longer than " + max + " characters");
    }
    return value;
  }
}
