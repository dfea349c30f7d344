package dev.racetriage.lsp.findings;

import java.util.List;

/**
 * Everything the editor shows about one field: from the prefilter (a candidate, with its patterns and reasons) or from
 * the store (a verdict, with its evidence). Diagnostics, hovers, code lenses and quick fixes all read this one model.
 *
 * @param fieldKey {@code pkg.Outer$Inner.field}
 * @param status candidate or verdict
 * @param code the diagnostic code: the verdict, or for a candidate its first pattern ({@code double-checked-locking})
 *     or {@code candidate}
 * @param summary one sentence for the diagnostic message
 * @param reasons the prefilter's reasons or the verdict's explanation, one per line
 * @param confidence the prefilter's confidence in [0, 1]; 1 for verdicts
 * @param accesses the conflicting accesses, in every file
 * @param evidence the trial table for verdicts ({@link VerdictEvidence#none()} for candidates)
 */
public record FieldFinding(
    String fieldKey,
    FieldStatus status,
    String code,
    String summary,
    List<String> reasons,
    double confidence,
    List<AccessSite> accesses,
    VerdictEvidence evidence) {

  public FieldFinding {
    reasons = List.copyOf(reasons);
    accesses = List.copyOf(accesses);
  }

  /** The simple field name, {@code field} of {@code pkg.Outer$Inner.field} (and of {@code pkg.Cls.slots[]}). */
  public String fieldName() {
    return FieldKeys.fieldName(fieldKey);
  }
}
