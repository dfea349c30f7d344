import { zipEntryNames, zipEntryText } from './zipListing';

/** What the packaged manifest must still say for VS Code to activate the extension and find its parts. */
const REQUIRED_ACTIVATION = ['workspaceContains:pom.xml', 'onLanguage:java'];
const REQUIRED_SETTINGS = ['racetriage.java.home', 'racetriage.server.path', 'racetriage.startDaemon',
  'racetriage.dashboard.port', 'racetriage.trace.server'];

/**
 * The problems of a .vsix, empty when it is complete: the manifest (extension/package.json) is valid and points at a
 * bundle that is inside, the server distribution (racetriage-cli.jar and lib/*.jar) is inside, and nothing that
 * only development needs (node_modules, sources, test output) was shipped.
 */
export function checkVsix(file: string): string[] {
  let names: string[];
  try {
    names = zipEntryNames(file);
  } catch (e) {
    return [`cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`];
  }
  const problems: string[] = [];
  const has = new Set(names);
  for (const required of ['extension.vsixmanifest', 'extension/package.json', 'extension/dist/extension.js',
    'extension/server/racetriage-cli.jar']) {
    if (!has.has(required)) {
      problems.push(`${file} lacks ${required}`);
    }
  }
  const libJars = names.filter((n) => /^extension\/server\/lib\/[^/]+\.jar$/.test(n));
  if (!libJars.some((n) => /racetriage-lsp-server-[^/]*\.jar$/.test(n))) {
    problems.push(`${file} lacks the language server's jar in extension/server/lib/ (found ${libJars.length} jars there)`);
  }
  const stray = names.filter((n) => /^extension\/(node_modules|src|out|test)\//.test(n));
  if (stray.length > 0) {
    problems.push(`${file} ships development files it does not need, e.g. ${stray.slice(0, 3).join(', ')}`);
  }
  if (has.has('extension/package.json')) {
    problems.push(...manifestProblems(zipEntryText(file, 'extension/package.json'), has));
  }
  return problems;
}

function manifestProblems(text: string, entries: Set<string>): string[] {
  let manifest: Record<string, any>;
  try {
    manifest = JSON.parse(text);
  } catch (e) {
    return [`extension/package.json is not JSON: ${e instanceof Error ? e.message : String(e)}`];
  }
  const problems: string[] = [];
  for (const key of ['name', 'publisher', 'version']) {
    if (typeof manifest[key] !== 'string' || manifest[key].length === 0) {
      problems.push(`extension/package.json has no "${key}"`);
    }
  }
  if (typeof manifest.engines?.vscode !== 'string') {
    problems.push('extension/package.json has no engines.vscode');
  }
  const main = typeof manifest.main === 'string' ? manifest.main.replace(/^\.\//, '') : undefined;
  if (!main || !entries.has(`extension/${main}`)) {
    problems.push(`extension/package.json's main (${manifest.main}) is not in the package`);
  }
  const activation: unknown[] = Array.isArray(manifest.activationEvents) ? manifest.activationEvents : [];
  for (const event of REQUIRED_ACTIVATION) {
    if (!activation.includes(event)) {
      problems.push(`extension/package.json does not activate on ${event}`);
    }
  }
  const commands: Array<Record<string, unknown>> = manifest.contributes?.commands ?? [];
  if (commands.length === 0) {
    problems.push('extension/package.json contributes no commands');
  }
  for (const command of commands) {
    if (typeof command.command !== 'string' || typeof command.title !== 'string') {
      problems.push(`extension/package.json has a command without an id or a title: ${JSON.stringify(command)}`);
    }
  }
  const settings = Object.keys(manifest.contributes?.configuration?.properties ?? {});
  for (const setting of REQUIRED_SETTINGS) {
    if (!settings.includes(setting)) {
      problems.push(`extension/package.json does not declare the setting ${setting}`);
    }
  }
  return problems;
}
