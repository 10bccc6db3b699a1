import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { run, serve } from '../support/serve.js';

/**
 * `serve --log-format pretty|json` (EMULATOR_LOG_FORMAT): JSON lines for machines, pino-pretty's
 * lines for a person, pretty by default only on a terminal. Secrets are masked in both.
 */
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

const CLI_PATH = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
/** Colour codes, which pino-pretty adds when the environment asks for colour. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const plain = (text: string) => text.replace(ANSI, '').replace(/\r/g, '');

interface Spawned {
  child: ChildProcess;
  output(): string;
}

/** Spawns `command` and resolves once its output matches `ready` (rejects after 10 s, or when it exits first). */
function spawnUntil(command: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<Spawned> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let seen = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready: ${seen}`)), 10_000);
    const check = (chunk: Buffer) => {
      seen += chunk.toString();
      if (ready.test(plain(seen))) {
        clearTimeout(timer);
        resolve({ child, output: () => plain(seen) });
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${seen}`));
    });
  });
}

/** The pretty ready line and the URL field under it. */
const PRETTY_READY = /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: onboarding emulator listening\n\s+url: "(http:\/\/127\.0\.0\.1:\d+)"/m;
const SAFE = ['serve', '--port', '0', '--host', '127.0.0.1'];

async function servePretty(args: string[], env: Record<string, string> = {}): Promise<Spawned & { url: string }> {
  const s = await spawnUntil(process.execPath, [CLI_PATH, ...SAFE, ...args], env, PRETTY_READY);
  return { ...s, url: PRETTY_READY.exec(s.output())![1]! };
}

const isJson = (line: string) => {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
};

describe('serve --log-format', () => {
  it('writes JSON lines when stdout is a pipe, and with --log-format json or EMULATOR_LOG_FORMAT=json', async () => {
    for (const [args, env] of [[[], {}], [['--log-format', 'json'], {}], [[], { EMULATOR_LOG_FORMAT: 'json' }]] as const) {
      const served = await serve([...args], children, env);
      await fetch(`${served.url}/v1/onboardings`, { headers: { Authorization: 'Bearer hrs_test_acme_owner' } });
      await expect.poll(() => served.lines().some((l) => l.includes('/v1/onboardings')), { timeout: 5_000 }).toBe(true);
      expect(served.lines().length).toBeGreaterThanOrEqual(2);
      for (const line of served.lines()) expect(isJson(line), line).toBe(true);
    }
  });

  it.each<[string, string[], Record<string, string>]>([
    ['--log-format pretty', ['--log-format', 'pretty'], {}],
    ['EMULATOR_LOG_FORMAT=pretty', [], { EMULATOR_LOG_FORMAT: 'pretty' }],
  ])('%s writes lines for a person, a request on one line', async (_, args, env) => {
    const served = await servePretty(args, env);
    const res = await fetch(`${served.url}/v1/onboardings`, { headers: { Authorization: 'Bearer hrs_test_acme_owner' } });
    const requestLine = new RegExp(`^\\[[\\d:.]+\\] INFO: request GET /v1/onboardings 200 \\d+\\.\\d ms ${res.headers.get('request-id')}$`, 'm');
    await expect.poll(() => served.output(), { timeout: 5_000 }).toMatch(requestLine);
    expect(served.output()).toContain(`inspector: "${served.url}/_emulator/ui"`);
    expect(served.output().split('\n').filter((l) => l.trim().startsWith('{'))).toEqual([]);
  });

  it('masks keys, webhook secrets and link tokens in pretty lines as in JSON ones', async () => {
    const key = 'hrs_test_acme_owner';
    const secret = 'whsec_pretty0123456789abcdefSECRET';
    const token = 'prettyLinkToken0123456789abcdefXYZ';
    const paths = [`/v1/onboardings?api_key=${key}`, `/v1/webhooks?secret=${secret}`, `/hosted/${token}`];
    const pretty = await servePretty(['--log-format', 'pretty']);
    const json = await serve(['--log-format', 'json'], children);
    for (const base of [pretty.url, json.url]) for (const path of paths) await fetch(`${base}${path}`);
    const shown = (text: string) => [key, secret, token].filter((s) => text.includes(s));
    await expect.poll(() => pretty.output().match(/INFO: request GET/g)?.length ?? 0, { timeout: 5_000 }).toBe(3);
    await expect.poll(() => json.lines().filter((l) => l.includes('"request"')).length, { timeout: 5_000 }).toBe(3);
    expect(shown(pretty.output())).toEqual([]);
    expect(shown(json.output())).toEqual([]);
    // Masked, not dropped: the same masked path in both formats.
    const maskedPaths = json.lines().map((l) => JSON.parse(l) as { req?: { path: string } }).flatMap((e) => (e.req ? [e.req.path] : []));
    expect(maskedPaths).toHaveLength(3);
    for (const path of maskedPaths) expect(pretty.output()).toContain(` GET ${path} `);
  });

  it('is pretty by default when stdout is a terminal', async () => {
    // script(1) runs the emulator on a pseudo-terminal: process.stdout.isTTY is true there.
    const command = [process.execPath, CLI_PATH, ...SAFE].map((a) => `'${a}'`).join(' ');
    const served = await spawnUntil('script', ['-qec', command, '/dev/null'], { EMULATOR_LOG_FORMAT: '' }, PRETTY_READY);
    expect(served.output()).not.toContain('{"level"');
  });

  it.each<[string, string[], Record<string, string>, string]>([
    ['a flag', ['--log-format', 'xml'], {}, "error: option '--log-format <format>' argument 'xml' is invalid. Allowed choices are pretty, json.\n"],
    ['the variable', [], { EMULATOR_LOG_FORMAT: 'loud' }, "error: option '--log-format <format>' value 'loud' from env 'EMULATOR_LOG_FORMAT' is invalid. Allowed choices are pretty, json.\n"],
  ])('refuses a format it does not know from %s: exit 2, the accepted values named', async (_, args, env, line) => {
    const ran = await run([...SAFE, ...args], children, env);
    expect(ran.code, ran.out).toBe(2);
    expect(ran.stderr).toBe(line);
    expect(ran.stdout).toBe('');
  });
});
