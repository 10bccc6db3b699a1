import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/index.js';
import { removeContainers, start, waitForStatus } from './docker.js';

/**
 * The Python and Go relay clients (clients/), which bring webhooks to a receiver on the host
 * without Node: each runs in a real pytest or go test run (test/image/relay-clients/) with its
 * receiver on the host's 127.0.0.1 and the emulator in a container on the default bridge. The
 * run checks the signature itself and prints what it got; this file checks it again and reads
 * the emulator's side: the delivery log holds the receiver's status, the relay is closed. A
 * last run kills the container under the relay, which must end with an error, not hang.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const PYTHON_CLIENT = join(root, 'clients/python/onboarding_relay.py');
const GO_CLIENT = join(root, 'clients/go/onboardingrelay/relay.go');
const RUNS = join(root, 'test/image/relay-clients');
const work = mkdtempSync(join(tmpdir(), 'oe-relay-clients-'));
const goEnv = {
  ...process.env, GOCACHE: join(work, 'gocache'), GOPATH: join(work, 'gopath'), GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', GO111MODULE: 'on',
};

afterAll(async () => {
  await removeContainers();
  rmSync(work, { recursive: true, force: true });
});

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

/** The python3 that has pytest: the one on PATH, else Debian's (python3-pytest). */
async function python(): Promise<string> {
  for (const candidate of ['python3', '/usr/bin/python3']) {
    if ((await exec(candidate, ['-m', 'pytest', '--version'], work, process.env, 30_000)).code === 0) return candidate;
  }
  throw new Error('no python3 with pytest here (install the Debian package python3-pytest)');
}

interface Result { relay: string; workspace: string; key: string; webhook: string; secret: string; event_id: string; signature: string; body: string }

const resultOf = (out: string): Result => {
  const line = /RESULT (\{.*\})$/m.exec(out); // after pytest's progress dots, if any
  if (!line) throw new Error(`the run printed no RESULT line:\n${out}`);
  return JSON.parse(line[1]!) as Result;
};

/** What the run printed, checked against the emulator: a valid signature, the receiver's 202 in the log, no relay left open. */
async function expectDelivered(base: string, r: Result): Promise<void> {
  expect(verifySignature(r.body, r.signature, r.secret)).toBe(true);
  expect(JSON.parse(r.body)).toMatchObject({ id: r.event_id, type: 'onboarding.created' });
  const res = await fetch(`${base}/v1/webhooks/${r.webhook}/deliveries`, { headers: { Authorization: `Bearer ${r.key}` } });
  const deliveries = ((await res.json()) as { data: Record<string, unknown>[] }).data;
  expect(deliveries).toEqual([expect.objectContaining({ event_id: r.event_id, status: 'succeeded', attempts: 1, last_status_code: 202, last_error: null })]);
  const relays = (await (await fetch(`${base}/_emulator/workspaces/${r.workspace}/relays`)).json()) as { data: unknown[] };
  expect(relays.data).toEqual([]);
}

async function emulator() {
  const c = await start({ args: ['--log-level', 'warn'] });
  await waitForStatus(`${c.base}/_emulator/health`);
  return c;
}

describe('the relay clients without Node', () => {
  it('compile and vet: the Python module imports without pytest, the Go file passes go vet and gofmt', async () => {
    const py = await python();
    const compiled = await exec(py, ['-c', 'import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)', PYTHON_CLIENT, join(work, 'client.pyc')], work, process.env, 30_000);
    expect(compiled.code, compiled.out).toBe(0);
    // pytest made unimportable: the relay is there, the fixture is not (-B: no __pycache__ left in clients/).
    const bare = await exec(py, ['-B', '-c', "import sys; sys.modules['pytest'] = None; sys.path.insert(0, sys.argv[1]); import onboarding_relay as m; print(hasattr(m, 'Relay'), hasattr(m, 'onboarding_relay'))", join(root, 'clients/python')], work, process.env, 30_000);
    expect(bare.out.trim(), bare.out).toBe('True False');
    const vet = await exec('go', ['vet', GO_CLIENT], work, goEnv, 120_000);
    expect(vet.code, vet.out).toBe(0);
    const fmt = await exec('gofmt', ['-l', GO_CLIENT], work, goEnv, 30_000);
    expect(fmt.out.trim()).toBe('');
  }, 150_000);

  it('Python: the pytest fixture relays a signed message to a receiver on the host, reports its 202 and closes; a lost emulator is an error', async () => {
    const py = await python();
    const c = await emulator();
    const dir = join(work, 'python');
    mkdirSync(dir);
    // As the docs say: the one file beside the tests.
    copyFileSync(PYTHON_CLIENT, join(dir, 'onboarding_relay.py'));
    copyFileSync(join(RUNS, 'test_relay_client.py'), join(dir, 'test_relay_client.py'));
    const env = { ...process.env, EMULATOR_URL: c.base, EMULATOR_CONTAINER: c.id };
    const pytest = (k: string) => exec(py, ['-m', 'pytest', '-q', '-s', '-p', 'no:cacheprovider', '-k', k], dir, env, 120_000);
    const run = await pytest('not goes_away');
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/\b3 passed\b/);
    await expectDelivered(c.base, resultOf(run.out));
    const lost = await pytest('goes_away');
    expect(lost.code, lost.out).toBe(0);
    expect(lost.out).toMatch(/LOST cannot reach the emulator at http:\/\/127\.0\.0\.1:\d+: /);
  }, 180_000);

  it('Go: the helper relays a signed message to a receiver on the host, reports its 202 and closes on cancel; a lost emulator is an error', async () => {
    const c = await emulator();
    const dir = join(work, 'go');
    mkdirSync(join(dir, 'onboardingrelay'), { recursive: true });
    // As the docs say: a module of the tests' own, the one file in a folder of it.
    const init = await exec('go', ['mod', 'init', 'relayclient'], dir, goEnv, 30_000);
    expect(init.code, init.out).toBe(0);
    copyFileSync(GO_CLIENT, join(dir, 'onboardingrelay', 'relay.go'));
    copyFileSync(join(RUNS, 'relay_client_test.go'), join(dir, 'relay_client_test.go'));
    const env = { ...goEnv, EMULATOR_URL: c.base, EMULATOR_CONTAINER: c.id };
    const goTest = (run: string) => exec('go', ['test', '-count=1', '-v', '-run', run, '.'], dir, env, 150_000);
    const run = await goTest('Refuses|Helper');
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/^--- PASS: TestTheHelperBringsASignedMessageToTheHost\b/m);
    expect(run.out).toMatch(/^--- PASS: TestAnEmulatorThatRefusesIsAClearError\b/m);
    await expectDelivered(c.base, resultOf(run.out));
    const lost = await goTest('GoesAway');
    expect(lost.code, lost.out).toBe(0);
    expect(lost.out).toMatch(/LOST cannot reach the emulator at http:\/\/127\.0\.0\.1:\d+: /);
  }, 210_000);
});
