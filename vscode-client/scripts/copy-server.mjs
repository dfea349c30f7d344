// Copies the racetriage distribution (cli/target/racetriage-cli.jar + lib/*.jar, built by `mvn -B package` in the
// repository root) into server/, which the .vsix ships. RACETRIAGE_DIST=dir overrides where it is taken from.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const client = resolve(here, '..');
const source = resolve(process.env.RACETRIAGE_DIST ?? join(client, '..', 'cli', 'target'));
const jar = join(source, 'racetriage-cli.jar');
const lib = join(source, 'lib');
if (!existsSync(jar) || !existsSync(lib)) {
  console.error(`copy-server: no racetriage distribution in ${source} (need racetriage-cli.jar and lib/).`);
  console.error("Build it first: 'mvn -B -DskipTests package' in the repository root, or set RACETRIAGE_DIST.");
  process.exit(1);
}
const target = join(client, 'server');
rmSync(target, { recursive: true, force: true });
mkdirSync(join(target, 'lib'), { recursive: true });
cpSync(jar, join(target, 'racetriage-cli.jar'));
const jars = readdirSync(lib).filter((name) => name.endsWith('.jar'));
for (const name of jars) {
  cpSync(join(lib, name), join(target, 'lib', name));
}
console.log(`copy-server: ${jars.length + 1} jars from ${source} into ${target}`);
