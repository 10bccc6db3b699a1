import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { SHIPPED_CORPUS } from '../../src/parity/corpus.js';
import { run } from '../support/serve.js';

/**
 * `onboarding-emulator parity run` as a CI job runs it: the shipped corpus against an emulator
 * it starts, each format, and the refusals (exit 2) and could-not-check steps of a bad set-up.
 */
const children: ChildProcess[] = [];
const folders: string[] = [];
const servers: Server[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
  for (const s of servers.splice(0)) s.close();
});
const folder = () => {
  const f = mkdtempSync(join(tmpdir(), 'parity-cli-'));
  folders.push(f);
  return f;
};

describe('parity run', () => {
  it('replays the shipped corpus offline: a summary and exit 0; JUnit and JSON as asked', async () => {
    const summary = await run(['parity', 'run', '--seed', 'cli'], children);
    expect(summary.code, summary.stderr).toBe(0);
    expect(summary.stdout).toMatch(/\d+ flows, (\d+) steps: \1 match, 0 drift, 0 could not be checked/);
    expect(summary.stdout).toMatch(/coverage: endpoints \d+\/27/);

    const junit = await run(['parity', 'run', '--format', 'junit'], children);
    expect(junit.code).toBe(0);
    const xml = new XMLParser({ ignoreAttributes: false }).parse(junit.stdout) as { testsuites: { '@_failures': string; testsuite: unknown[] } };
    expect(xml.testsuites['@_failures']).toBe('0');

    const json = await run(['parity', 'run', '--format', 'json'], children);
    const report = JSON.parse(json.stdout) as { object: string; ok: boolean; counts: { steps: number; match: number } };
    expect(report).toMatchObject({ object: 'parity_report', ok: true });
    expect(report.counts.match).toBe(report.counts.steps);
  }, 60_000);

  it('refuses a bad set-up with exit 2 before sending anything', async () => {
    const notCorpus = folder();
    writeFileSync(join(notCorpus, 'x.flow.json'), '{"flow": "x"}');
    const cases: [string[], RegExp][] = [
      [['parity', 'run', '--target', 'http://127.0.0.1:9', '--key', 'hrs_live_acme_owner'], /test key/],
      [['parity', 'run', '--target', 'ftp://example.test', '--key', 'hrs_test_x'], /http\(s\) URL/],
      [['parity', 'run', '--target', 'https://user:pw@example.test', '--key', 'hrs_test_x'], /credentials/],
      [['parity', 'run', '--target', 'http://127.0.0.1:9'], /needs --key/],
      [['parity', 'run', folder()], /no flow/],
      [['parity', 'run', notCorpus], /x\.flow\.json is no flow/],
      [['parity', 'run', '--step-timeout', 'soon'], /--step-timeout/],
      [['parity', 'run', '--format', 'xml'], /format/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args, children);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stdout).toBe('');
    }
  }, 60_000);

  it('a target that never answers: each step could not be checked within its timeout, and the run ends', async () => {
    const silent = createServer(() => {});
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const corpus = folder();
    cpSync(join(SHIPPED_CORPUS, '02-cancel.flow.json'), join(corpus, '02-cancel.flow.json'));
    const began = Date.now();
    const r = await run(['parity', 'run', corpus, '--target', `http://127.0.0.1:${port}`, '--key', 'hrs_test_acme_owner', '--step-timeout', '300'], children);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/no answer within 0\.3 s/);
    expect(r.stdout).toMatch(/0 match, 0 drift, \d+ could not be checked/);
    expect(Date.now() - began).toBeLessThan(20_000);
  }, 30_000);
});
