// Checks a packaged .vsix: a valid manifest and the bundle and the server distribution inside. Exit 1 says what lacks.
import * as path from 'node:path';
import { checkVsix } from '../src/packaging/vsixCheck';

const file = path.resolve(process.argv[2] ?? 'racetriage.vsix');
const problems = checkVsix(file);
if (problems.length > 0) {
  for (const problem of problems) {
    console.error(`check-vsix: ${problem}`);
  }
  process.exit(1);
}
console.log(`check-vsix: ${file} is a complete racetriage extension package`);
