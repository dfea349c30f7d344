package dev.racetriage.dashboard.api;

import dev.racetriage.store.FieldKey;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;

/** The {@code {id}} path parameter of race routes: a field key such as {@code com.example.Cache.hash}. */
final class Paths {
  private Paths() {}

  static FieldKey raceId(Context ctx) {
    String id = ctx.pathParam("id");
    try {
      return FieldKey.parse(id);
    } catch (IllegalArgumentException e) {
      throw new BadRequestResponse(e.getMessage());
    }
  }
}
