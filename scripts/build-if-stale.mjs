// Runs before `npm start` in a checkout: builds dist/ when it is missing or older than what it
// is built from, so `npm ci && npm start` works without a build step of its own at install
// time (an install script would also run, or be flagged, wherever the package is installed).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const OUTPUT = 'dist/cli/main.js';
const INPUTS = ['src', 'scripts/build-validators.mjs', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const built = statSync(OUTPUT, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const changed = Math.max(...INPUTS.map(newest));
if (built === 0 || changed > built) {
  console.log(built === 0 ? 'dist/ is missing: building it first.' : 'sources changed since the last build: building first.');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(run.status ?? 1);
}
