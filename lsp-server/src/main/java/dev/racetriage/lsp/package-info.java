/**
 * The racetriage language server (LSP4J, stdio or a debug socket): race diagnostics, quick fixes, hovers, code
 * lenses, commands and daemon progress for any LSP client.
 *
 * <p>One handler per request ({@code codeactions}, {@code hover}, {@code codelens}, {@code commands}), quick fixes
 * in their own processors, documents in {@code documents}, the per-file findings (static candidates from
 * {@code analysis}, verdicts from {@code triage}) merged and published by {@code diagnostics}. No analysis runs on
 * the JSON-RPC reader thread.
 */
package dev.racetriage.lsp;
