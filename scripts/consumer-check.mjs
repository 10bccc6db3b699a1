// Installs the package as a partner would and runs a small test in each kind of project it
// promises to work in: vitest (ES modules), Node's own runner (ES module and CommonJS files) and
// Jest in a default CommonJS project. The projects live in test/consumers/<name>/; each is
// copied to a fresh temporary folder, gets the packed tarball and its runner from the npm
// registry, and runs `npm test`. Exit status 0 only if every project passed.
//
//   node scripts/consumer-check.mjs            every project
//   node scripts/consumer-check.mjs jest       only the ones named
//
// POSIX only (process groups), like .ci/run, which runs it.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const consumers = join(root, 'test', 'consumers');

// Upper bounds, several times what a step takes with a cold npm cache, so a stuck registry or
// a test that never ends fails the check instead of holding the CI job. Together they stay
// under the limit .ci/run puts on the whole script.
const LIMITS = { build: 300_000, pack: 120_000, install: 300_000, test: 120_000 };

// Each command runs in a process group of its own (so a limit can end npm and everything it
// started); when this script is stopped, the group of the command running then goes too.
let running;
let work;
const killGroup = (child) => {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (running) killGroup(running);
    if (work) rmSync(work, { recursive: true, force: true });
    process.exit(1);
  });
}

// Run through `npm run check:consumers`, this process inherits npm's description of this
// repository (npm_package_*, the local prefix, INIT_CWD); the consumers' npm must not see it.
const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm_package_|npm_lifecycle_|npm_config_local_prefix$|INIT_CWD$)/i.test(key)),
);
Object.assign(childEnv, { CI: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' });

/** Runs a command in its own process group and kills the whole group when it outlives `limitMs`. */
function run(command, args, { cwd, limitMs, capture = false }) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command, args, {
      cwd,
      detached: true,
      stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
      env: childEnv,
    });
    running = child;
    let out = '';
    child.stdout?.on('data', (chunk) => (out += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, limitMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      running = undefined;
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running = undefined;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const line = `${command} ${args.join(' ')}`;
      if (timedOut) reject(new Error(`${line}: killed after ${limitMs / 1000} s`));
      else if (code !== 0) reject(new Error(`${line}: exit ${code ?? signal} after ${seconds} s`));
      else resolve({ out, seconds });
    });
  });
}

const wanted = process.argv.slice(2);
const names = (await readdir(consumers, { withFileTypes: true }))
  .filter((entry) => entry.isDirectory() && (wanted.length === 0 || wanted.includes(entry.name)))
  .map((entry) => entry.name)
  .sort();
if (names.length === 0 || (wanted.length > 0 && names.length !== wanted.length)) {
  console.error(`consumer-check: no such project among test/consumers: ${wanted.filter((n) => !names.includes(n)).join(', ') || '(none found)'}`);
  process.exit(2);
}

work = await mkdtemp(join(tmpdir(), 'onboarding-consumers-'));
const results = [];
const started = Date.now();
try {
  // The build first, then a pack of what it wrote: the tarball is what a publish would ship.
  console.log('==> npm run build');
  const built = await run('npm', ['run', 'build'], { cwd: root, limitMs: LIMITS.build });
  console.log(`built in ${built.seconds} s\n\n==> npm pack`);
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root, limitMs: LIMITS.pack, capture: true });
  const [{ filename, size, entryCount }] = JSON.parse(pack.out);
  const tarball = join(work, filename);
  console.log(`packed ${filename}: ${entryCount} files, ${(size / 1024).toFixed(0)} kB, in ${pack.seconds} s`);

  for (const name of names) {
    const project = join(work, name);
    const result = { name, install: '-', test: '-', ok: false };
    results.push(result);
    try {
      await cp(join(consumers, name), project, { recursive: true });
      console.log(`\n==> ${name}: npm install the tarball and the runner`);
      result.install = (await run('npm', ['install', '--no-package-lock', tarball], { cwd: project, limitMs: LIMITS.install })).seconds;
      console.log(`\n==> ${name}: npm test`);
      result.test = (await run('npm', ['test'], { cwd: project, limitMs: LIMITS.test })).seconds;
      result.ok = true;
    } catch (err) {
      result.error = err.message;
      console.error(`consumer-check: ${name}: ${err.message}`);
    }
  }
} catch (err) {
  console.error(`consumer-check: ${err.message}`);
} finally {
  await rm(work, { recursive: true, force: true });
}

console.log('\nproject     install  test    result');
for (const r of results) {
  console.log(`${r.name.padEnd(11)} ${`${r.install} s`.padEnd(8)} ${`${r.test} s`.padEnd(7)} ${r.ok ? 'passed' : `FAILED (${r.error})`}`);
}
const passed = results.filter((r) => r.ok).length;
console.log(`consumer-check: ${passed} of ${names.length} projects passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(passed === names.length ? 0 : 1);
