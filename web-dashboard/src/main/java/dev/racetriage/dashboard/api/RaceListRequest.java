package dev.racetriage.dashboard.api;

import dev.racetriage.store.races.CodeScope;
import dev.racetriage.store.races.RaceQuery;
import dev.racetriage.store.races.RaceSort;
import dev.racetriage.store.races.TriageState;
import dev.racetriage.store.verdicts.Verdict;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the race-list parameters shared by {@code /api/races} and {@code /api/export}: {@code verdict} (comma list),
 * {@code state} ({@code open} | {@code trusted-benign}), {@code class} (package or class prefix), {@code q} (text),
 * {@code sort} ({@code severity} | {@code field} | {@code last-seen} | {@code trials}), {@code desc}, {@code offset},
 * {@code limit}; and {@code scope} ({@code product} | {@code test} | {@code all}, the default: where the races live,
 * {@link #scope}). Bad values are a 400 naming the parameter and the allowed values.
 */
final class RaceListRequest {
  private RaceListRequest() {}

  static RaceQuery from(Context ctx) {
    RaceQuery query = RaceQuery.all()
        .withVerdicts(verdicts(ctx.queryParam("verdict")))
        .withTriageState(state(ctx.queryParam("state")))
        .withClassPrefix(ctx.queryParam("class"))
        .withText(ctx.queryParam("q"))
        .sortedBy(sort(ctx.queryParam("sort")), "true".equalsIgnoreCase(ctx.queryParam("desc")));
    int offset = intParam(ctx, "offset", 0);
    int limit = intParam(ctx, "limit", RaceQuery.DEFAULT_LIMIT);
    if (offset < 0 || limit < 1 || limit > RaceQuery.MAX_LIMIT) {
      throw new BadRequestResponse("offset must be >= 0 and limit in 1.." + RaceQuery.MAX_LIMIT);
    }
    return query.page(offset, limit);
  }

  /** {@code scope}: the product's races, the test-code races, or all of them (no parameter). */
  static CodeScope scope(Context ctx) {
    String param = ctx.queryParam("scope");
    if (param == null || param.isBlank()) {
      return CodeScope.ALL;
    }
    CodeScope scope = CodeScope.ofLabel(param.strip().toLowerCase(Locale.ROOT));
    if (scope == null) {
      throw new BadRequestResponse("unknown scope '" + param + "'; use product (races outside test code), test "
          + "(races whose every access is under src/test) or all");
    }
    return scope;
  }

  static Set<Verdict> verdicts(String param) {
    Set<Verdict> verdicts = EnumSet.noneOf(Verdict.class);
    if (param == null || param.isBlank()) {
      return verdicts;
    }
    for (String label : param.split(",")) {
      if (label.isBlank()) {
        continue;
      }
      try {
        verdicts.add(Verdict.fromLabel(label));
      } catch (IllegalArgumentException e) {
        throw new BadRequestResponse("unknown verdict '" + label.strip() + "'; use one of " + labels());
      }
    }
    return verdicts;
  }

  static TriageState state(String param) {
    if (param == null || param.isBlank() || param.equals("any")) {
      return null;
    }
    TriageState state = TriageState.ofLabel(param.strip().toLowerCase(Locale.ROOT));
    if (state == null) {
      throw new BadRequestResponse("unknown state '" + param + "'; use open, regressed, trusted-benign or fixed "
          + "(none: every race that is not fixed)");
    }
    return state;
  }

  static RaceSort sort(String param) {
    if (param == null || param.isBlank()) {
      return RaceSort.SEVERITY;
    }
    try {
      return RaceSort.valueOf(param.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new BadRequestResponse("unknown sort '" + param + "'; use severity, field, last-seen or trials");
    }
  }

  private static int intParam(Context ctx, String name, int fallback) {
    String value = ctx.queryParam(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new BadRequestResponse(name + " must be a number, was '" + value + "'");
    }
  }

  private static String labels() {
    return String.join(", ", EnumSet.allOf(Verdict.class).stream().map(Verdict::label).toList());
  }
}
