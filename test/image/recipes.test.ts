import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPort } from '../support/net.js';
import { until } from '../support/wait.js';
import { docker, IMAGE } from './docker.js';

/**
 * The pytest and Go examples of docs/testing.md, run as a reader would run them: each block is
 * written to a folder of its own and the section's shell commands are run there by sh (they copy
 * the relay client in from ONBOARDING_EMULATOR, this checkout), against the image under test on
 * a free port of 127.0.0.1 (EMULATOR_IMAGE, EMULATOR_PORT). The example starts its container with
 * `docker run` and stops it; what it leaves behind is removed here by its name all the same.
 * A missing tool fails the test with the Debian package that brings it.
 */
const DOC = new URL('../../docs/testing.md', import.meta.url);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'oe-recipes-'));
const names: string[] = [];

afterAll(async () => {
  if (names.length) await docker(['rm', '-f', '-v', ...names]);
  rmSync(work, { recursive: true, force: true });
});

/** The first fenced block of `lang` in the section under `heading` (up to the next `## `). */
function block(heading: string, lang: string): string {
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/testing.md has no "${heading}" section`);
  const next = text.indexOf('\n## ', start + heading.length + 2);
  const section = text.slice(start, next < 0 ? undefined : next);
  const found = new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```$', 'm').exec(section);
  if (!found) throw new Error(`docs/testing.md: no \`\`\`${lang} block under "${heading}"`);
  return found[1]!;
}

interface Run { code: number; out: string }

/** Runs a command in `cwd`; never throws for a non-zero exit or a missing program (code -1). */
function exec(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      resolve({ code, out: `${stdout}${stderr}${err && code === -1 ? `\n${err.message}` : ''}` });
    });
  });
}

/** Fails naming the Debian package when `cmd args` does not run. */
async function need(cmd: string, args: string[], pkg: string): Promise<void> {
  const r = await exec(cmd, args, work, process.env, 30_000);
  if (r.code !== 0) throw new Error(`\`${cmd} ${args.join(' ')}\` does not run (install the Debian package ${pkg}): ${r.out.trim()}`);
}

/** A free port for the example, and the container name the example derives from it. */
async function portFor(): Promise<{ port: string; env: NodeJS.ProcessEnv }> {
  const port = String(await closedPort());
  names.push(`onboarding-emulator-${port}`);
  return { port, env: { ...process.env, EMULATOR_IMAGE: IMAGE, EMULATOR_PORT: port, ONBOARDING_EMULATOR: ROOT } };
}

/** The example's container is gone once the tool has ended (docker stop, then --rm). */
async function expectGone(name: string): Promise<void> {
  let left = '';
  const gone = async () => (left = (await docker(['ps', '-aq', '--filter', `name=^/${name}$`])).stdout.trim()) === '';
  await until(gone, `container ${name} to be gone`, 10_000).catch(() => {
    throw new Error(`the example left container ${name} (${left})`);
  });
}

describe('the examples of docs/testing.md against the image', () => {
  it('## pytest: the documented commands copy the relay client in and pytest runs the module; its tests pass', async () => {
    const commands = block('## pytest', 'sh');
    const code = block('## pytest', 'python');
    // The python3 on PATH may be another installation than Debian's, which python3-pytest serves:
    // then the commands' python3 is Debian's, first on PATH.
    const onPath = (await exec('python3', ['-m', 'pytest', '--version'], work, process.env, 30_000)).code === 0;
    await need(onPath ? 'python3' : '/usr/bin/python3', ['-m', 'pytest', '--version'], 'python3-pytest');
    const bin = join(work, 'bin');
    if (!onPath) {
      mkdirSync(bin);
      symlinkSync('/usr/bin/python3', join(bin, 'python3'));
    }
    const dir = join(work, 'pytest');
    mkdirSync(dir);
    writeFileSync(join(dir, 'test_onboarding.py'), code);
    const { port, env } = await portFor();
    const began = performance.now();
    const r = await exec('sh', ['-e', '-c', commands], dir, { ...env, PATH: `${bin}:${env.PATH}`, PYTEST_ADDOPTS: '-p no:cacheprovider' }, 120_000);
    console.log(`pytest example: ${Math.round(performance.now() - began)} ms`);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/\b2 passed\b/);
    await expectGone(`onboarding-emulator-${port}`);
  }, 180_000);

  it('## Go: the documented commands make the module, copy the relay client in and go test runs the package; its tests pass', async () => {
    const commands = block('## Go', 'sh');
    const code = block('## Go', 'go');
    await need('go', ['version'], 'golang-go');
    const dir = join(work, 'go');
    mkdirSync(dir);
    writeFileSync(join(dir, 'onboarding_test.go'), code);
    const { port, env } = await portFor();
    const goEnv = {
      ...env, GOCACHE: join(work, 'gocache'), GOPATH: join(work, 'gopath'), GOFLAGS: '', GOPROXY: 'off', GOTOOLCHAIN: 'local', GO111MODULE: 'on',
    };
    const began = performance.now();
    const r = await exec('sh', ['-e', '-c', commands], dir, goEnv, 150_000);
    console.log(`go test example: ${Math.round(performance.now() - began)} ms`);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^--- PASS: TestNewLinkIsMailed\b/m);
    expect(r.out).toMatch(/^--- PASS: TestWebhookReachesTheHost\b/m);
    expect(r.out).toMatch(/^ok\s+onboarding_test\b/m);
    await expectGone(`onboarding-emulator-${port}`);
  }, 210_000);
});
