// Runs before the test suite (npm test). The browser tests drive the chromium at
// /usr/bin/chromium; when it is missing and apt-get is at hand, install Debian's package so
// that `npm test` needs nothing else. Otherwise say what to install and carry on: the browser
// tests then fail with the same advice, and every other test still runs.
import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CHROMIUM = '/usr/bin/chromium';
const ADVICE =
  `Install Chromium so that ${CHROMIUM} runs it (on Debian: apt-get install chromium; elsewhere, ` +
  'link a Chromium or Chrome binary there), then run npm test again.';

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Runs an apt-get command as root (through sudo when we are not root); true when it exited 0. */
function asRoot(args) {
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root ? [args[0], args.slice(1)] : ['sudo', args];
  const run = spawnSync(cmd, argv, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    // Generous: a first install pulls about a hundred packages on a slow mirror.
    timeout: 15 * 60_000,
  });
  return run.status === 0;
}

function main() {
  if (executable(CHROMIUM)) return;

  if (process.platform !== 'linux' || !onPath('apt-get')) {
    console.warn(`ensure-chromium: ${CHROMIUM} is missing and there is no apt-get here. ${ADVICE}`);
    return;
  }
  const root = process.getuid?.() === 0;
  if (!root && !onPath('sudo')) {
    console.warn(`ensure-chromium: ${CHROMIUM} is missing, and installing it needs root (no sudo here). ${ADVICE}`);
    return;
  }

  console.log(
    `ensure-chromium: the browser tests need ${CHROMIUM}; installing the chromium package with apt-get` +
      `${root ? '' : ' (through sudo)'}. This happens once and takes a minute or two.`,
  );
  // A failed update may still leave a package list good enough to install from.
  if (!asRoot(['apt-get', 'update'])) console.warn('ensure-chromium: apt-get update failed; trying the install anyway.');
  const ok = asRoot(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium']);
  if (ok && executable(CHROMIUM)) {
    console.log(`ensure-chromium: ${CHROMIUM} installed.`);
    return;
  }
  console.warn(`ensure-chromium: the install did not give ${CHROMIUM}. ${ADVICE}`);
}

main();
