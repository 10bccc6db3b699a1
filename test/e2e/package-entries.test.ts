import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The package's two entries as a partner's project reaches them: `require` gets the CommonJS
 * bundle (dist/index.cjs, scripts/build-cjs.mjs) and its declarations, `import` the ES build.
 * scripts/consumer-check.mjs runs real vitest, node:test and Jest projects against the packed
 * package; these tests check the same promises from the built dist/ on every suite run.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/**
 * Node 20.19 and later can require() an ES module, which would hide an ES module left in the
 * CommonJS entry; Jest's own loader cannot. So the child runs with that ability turned off.
 */
const commonJsProbe = `
const { basename } = require('node:path');
const entry = require('onboarding-emulator');
(async () => {
  const em = entry.createEmulator({ seed: 1, clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
  const { url } = await em.start(0);
  const headers = { Authorization: 'Bearer hrs_test_acme_owner', 'Content-Type': 'application/json' };
  const list = await (await fetch(url + '/v1/onboardings', { headers })).json();
  const docs = await (await fetch(url + '/v1/onboardings/onb_acme_daan/documents', { headers })).json();
  const contract = docs.data.find((d) => d.kind === 'contract');
  const file = await fetch(url + '/v1/onboardings/onb_acme_daan/documents/' + contract.id, { headers });
  const bytes = Buffer.from(await file.arrayBuffer());
  const created = await fetch(url + '/v1/webhooks', {
    method: 'POST', headers, body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks', events: ['onboarding.created'] }),
  });
  const refused = await fetch(url + '/v1/webhooks', { method: 'POST', headers, body: JSON.stringify({ url: 'x', unknown: 1 }) });
  const moved = await em.clock.advance('90m');
  await em.close();
  console.log(JSON.stringify({
    resolved: basename(require.resolve('onboarding-emulator')),
    exports: Object.keys(entry).sort(),
    listed: list.data.map((o) => o.id),
    download: { status: file.status, type: file.headers.get('content-type'), head: bytes.subarray(0, 5).toString('latin1') },
    webhook: { status: created.status, id: (await created.json()).id },
    refused: refused.status,
    now: moved.now,
    validators: Object.keys(require.cache).filter((f) => /[\\/]validators[\\/]v_[bq]_[0-9a-f]+\\.cjs$/.test(f)).map((f) => basename(f)).sort(),
  }));
})().catch((err) => { console.error(err); process.exit(1); });
`;

describe('the CommonJS entry', () => {
  it('loads and serves from plain require() with require(esm) turned off', async () => {
    const { stdout } = await run(process.execPath, ['--no-experimental-require-module', '-e', commonJsProbe], { cwd: root, timeout: 30_000 });
    const seen = JSON.parse(stdout) as Record<string, any>; // the probe's own JSON line
    const esm = (await import('../../dist/index.js')) as Record<string, unknown>;
    expect(seen.resolved).toBe('index.cjs');
    expect(seen.exports).toEqual(Object.keys(esm).sort());
    // The default fixtures, sample documents and precompiled validators are found relative to each module.
    expect(seen.listed).toContain('onb_demo_jansen');
    expect(seen.download).toEqual({ status: 200, type: 'application/pdf', head: '%PDF-' });
    // Each loaded on first use: the fixtures' at start, then those of the requests made.
    expect(seen.validators.length).toBeGreaterThanOrEqual(2);
    for (const file of seen.validators) expect(file).toMatch(/^v_[bq]_[0-9a-f]{20}\.cjs$/);
    expect(seen.refused).toBe(422);
    // Ids come from nanoid, an ES-only package the bundle carries inside.
    expect(seen.webhook.status).toBe(201);
    expect(seen.webhook.id).toMatch(/^wh_[A-Za-z0-9]{20}$/);
    expect(seen.now).toBe('2026-10-05T10:30:00.000Z');
  });
});

describe('the declarations', () => {
  const project = mkdtempSync(join(tmpdir(), 'onboarding-types-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('type a CommonJS and an ES module consumer under module node16, each through its own condition', async () => {
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(root, join(project, 'node_modules', 'onboarding-emulator'), 'dir');
    writeFileSync(join(project, 'package.json'), '{ "name": "types-consumer", "private": true }\n');
    const use = [
      "import { createEmulator, ApiError, type CreatedOnboarding, type OutboxMail } from 'onboarding-emulator';",
      "const em = createEmulator({ seed: 1, clock: { mode: 'frozen' } });",
      "export const moved: Promise<{ now: string }> = em.clock.advance('90m');",
      'export const mails: Promise<OutboxMail[]> = em.outbox();',
      'export const created: CreatedOnboarding | undefined = undefined;',
      'export const isApiError = (e: unknown): boolean => e instanceof ApiError;',
      '',
    ].join('\n');
    writeFileSync(join(project, 'commonjs.cts'), use);
    writeFileSync(join(project, 'module.mts'), use);
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const { stdout } = await run(
      process.execPath,
      [tsc, '--noEmit', '--strict', '--module', 'node16', '--moduleResolution', 'node16', '--types', 'node',
        '--typeRoots', join(root, 'node_modules', '@types'), '--listFiles', 'commonjs.cts', 'module.mts'],
      { cwd: project, timeout: 60_000 },
    ).catch((err: { stdout?: string }) => {
      throw new Error(`tsc refused the consumer:\n${err.stdout ?? String(err)}`);
    });
    const files = stdout.split('\n').map((f) => f.replaceAll('\\', '/'));
    expect(files).toContain(`${root.replaceAll('\\', '/')}dist/cjs-types/index.d.ts`);
    expect(files).toContain(`${root.replaceAll('\\', '/')}dist/index.d.ts`);
  }, 90_000);
});

describe('the README section "Use it from your tests"', () => {
  it('shows the consumer tests scripts/consumer-check.mjs and the image suite run, word for word', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const start = readme.indexOf('## Use it from your tests');
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const blocks = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => ({ code: m[1], before: section.slice(0, m.index) }));
    // The three consumer projects, then the Testcontainers project the image suite runs.
    const files = ['consumers/vitest/emulator.test.js', 'consumers/node-test/emulator.test.mjs', 'consumers/jest/emulator.test.js', 'image/testcontainers-project/emulator.test.js'];
    expect(blocks.map((b) => b.code)).toEqual(files.map((f) => readFileSync(join(root, 'test', f), 'utf8')));
    // Each recipe names the file it must be saved as, so it runs word for word (an ES module's `import` fails in a .js of a CommonJS project).
    files.slice(0, 3).forEach((f, i) => {
      const intro = blocks[i]!.before.slice(blocks[i]!.before.lastIndexOf('\n**'));
      expect(intro, f).toContain(`\`${f.slice(f.lastIndexOf('/') + 1)}\``);
    });
  });
});
