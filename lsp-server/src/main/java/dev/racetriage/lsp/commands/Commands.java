package dev.racetriage.lsp.commands;

import java.util.List;

/** The commands the server executes ({@code workspace/executeCommand}); clients may also bind them to keys. */
public final class Commands {
  /** {@code [fieldKey, note?]}: record a trusted-benign mark in the store and the shared marks file. */
  public static final String MARK_TRUSTED_BENIGN = "racetriage.markTrustedBenign";
  /** {@code [fieldKey]}: put the field at the head of the daemon's work queue. */
  public static final String TRIAGE_NOW = "racetriage.triageNow";
  /**
   * {@code [fieldKey?]}: show the dashboard ({@code racetriage.dashboardUrl}), or the field's race page, through
   * {@code window/showDocument}.
   */
  public static final String OPEN_DASHBOARD = "racetriage.openDashboard";
  /** {@code []}: re-read the store and re-publish every open document's diagnostics. */
  public static final String REFRESH = "racetriage.refresh";

  public static final List<String> ALL = List.of(MARK_TRUSTED_BENIGN, TRIAGE_NOW, OPEN_DASHBOARD, REFRESH);

  private Commands() {}
}
