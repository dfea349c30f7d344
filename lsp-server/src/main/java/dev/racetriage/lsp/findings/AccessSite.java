package dev.racetriage.lsp.findings;

import java.nio.file.Path;

/**
 * One access of a racy field, where the prefilter or the agent saw it.
 *
 * @param file the source file (absolute)
 * @param line 1-based
 * @param description what the user reads in the related information ("write in run() without lock")
 */
public record AccessSite(Path file, int line, String description) {}
