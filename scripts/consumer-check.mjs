// Installs the package as a partner would and runs a small test in each kind of project it
// promises to work in: vitest, Node's own runner (ES module and CommonJS files), Jest, a
// strict TypeScript project that checks the package's types (skipLibCheck off), and a
// Playwright suite that drives the pages through the package's helpers. Each project is
// made as a person makes one, in a fresh temporary folder: `npm init -y` (a CommonJS project
// with npm 11), the runner's own init where it has one (`tsc --init`), the runner and the packed
// tarball installed from the npm registry, and the test files of test/consumers/<name>/ (the
// README's recipes, word for word: test/e2e/package-entries.test.ts holds them equal). Then
// `npm test`. Exit status 0 only if every project passed.
//
//   node scripts/consumer-check.mjs            every project
//   node scripts/consumer-check.mjs jest       only the ones named
//
// POSIX only (process groups), like .ci/run, which runs it.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
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

/**
 * What each project installs beside the package (runners pinned by major), what `npm test` runs,
 * the runner's own init, if it has one, and what it generates once its files are in place. Its
 * files are test/consumers/<name>/.
 */
const PROJECTS = {
  jest: { install: ['jest@^30'], test: 'jest' },
  'node-test': { install: [], test: 'node --test' },
  // tsc --init's defaults (strict, exactOptionalPropertyTypes, nodenext, ...) with the node types a
  // Node project has and the library check on: every type file the package ships is compiled.
  // Types for the webhook messages are generated as a partner does: the OpenAPI document the
  // package builds, through openapi-typescript with its default settings (webhook.mts uses them).
  typescript: {
    install: ['typescript@^5', '@types/node@^20', 'openapi-typescript@^7'],
    test: 'tsc --noEmit',
    init: ['npx', 'tsc', '--init', '--types', 'node', '--skipLibCheck', 'false'],
    generate: [
      ['node', '--input-type=module', '-e', "import { buildOpenApi } from 'onboarding-emulator'; import { writeFileSync } from 'node:fs'; writeFileSync('openapi.json', JSON.stringify(buildOpenApi()));"],
      ['npx', 'openapi-typescript', 'openapi.json', '--output', 'openapi.mts'],
    ],
  },
  vitest: { install: ['vitest@^4'], test: 'vitest run' },
  // The Playwright helpers (onboarding-emulator/playwright) as a partner's suite uses them, in
  // Debian's Chromium (playwright.config.mjs): @playwright/test brings playwright-core, the peer.
  playwright: { install: ['@playwright/test@^1'], test: 'playwright test' },
};

const wanted = process.argv.slice(2);
const folders = new Set((await readdir(consumers, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name));
const unknown = [...folders].filter((name) => !(name in PROJECTS));
if (unknown.length > 0) {
  console.error(`consumer-check: test/consumers/${unknown[0]} has no entry in PROJECTS`);
  process.exit(2);
}
const names = Object.keys(PROJECTS).filter((name) => folders.has(name) && (wanted.length === 0 || wanted.includes(name))).sort();
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
      const spec = PROJECTS[name];
      await mkdir(project);
      console.log(`\n==> ${name}: npm init -y, the runner and the tarball`);
      await run('npm', ['init', '-y'], { cwd: project, limitMs: LIMITS.pack, capture: true });
      await run('npm', ['pkg', 'set', `scripts.test=${spec.test}`], { cwd: project, limitMs: LIMITS.pack });
      result.install = (await run('npm', ['install', '--no-package-lock', '--save-dev', ...spec.install, tarball], { cwd: project, limitMs: LIMITS.install })).seconds;
      if (spec.init) await run(spec.init[0], spec.init.slice(1), { cwd: project, limitMs: LIMITS.pack, capture: true });
      await cp(join(consumers, name), project, { recursive: true });
      for (const [command, ...args] of spec.generate ?? []) await run(command, args, { cwd: project, limitMs: LIMITS.pack, capture: true });
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
