import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { run } from '../support/serve.js';
import { gradedReceiver, SECRET, type GradedReceiver } from '../support/graded-receivers.js';

/**
 * `receiver-check` of the built CLI: it runs the checks itself (no emulator) against receivers
 * on 127.0.0.1; exit status, table, --json and the --junit file read back by an XML parser.
 */
const children: ChildProcess[] = [];
const open: GradedReceiver[] = [];
const dir = mkdtempSync(join(tmpdir(), 'cli-receiver-check-'));
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});
afterAll(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});
const start = async (kind: Parameters<typeof gradedReceiver>[0]) => {
  const r = await gradedReceiver(kind);
  open.push(r);
  return r;
};
const cli = (args: string[]) => run(['receiver-check', ...args], children, { EMULATOR_URL: '', EMULATOR_KEY: '' });
const readJunit = (file: string) =>
  new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(readFileSync(file, 'utf8'));

describe('onboarding-emulator receiver-check', () => {
  it('passes a correct receiver: exit 0, a table of every check, a JUnit file without failures', async () => {
    const r = await start('correct');
    const junit = join(dir, 'correct.xml');
    const out = await cli(['--url', r.url, '--secret', SECRET, '--timeout-ms', '2000', '--burst', '4', '--junit', junit]);
    expect(out.code, out.out).toBe(0);
    expect(out.stdout).toMatch(/^check\s+required\s+grade\s+status\s+ms\s+reason$/m);
    expect(out.stdout).toMatch(/^3 bad_signature\s+yes\s+passed\s+401\s+\d+\s+v1 altered: refused with 401$/m);
    expect(out.stdout).toMatch(/receiver check ok: 11 passed, 0 failed, 0 warnings, 0 skipped/);
    const doc = readJunit(junit);
    expect(doc.testsuites).toMatchObject({ tests: '11', failures: '0', skipped: '0' });
    expect(doc.testsuites.testsuite[0].testcase).toHaveLength(11);
  });

  it('fails a receiver that skips the signature: exit 1, checks 3 to 6 as JUnit failures', async () => {
    const r = await start('unsigned');
    const junit = join(dir, 'unsigned.xml');
    const out = await cli(['--url', r.url, '--secret', SECRET, '--timeout-ms', '2000', '--burst', '2', '--junit', junit, '--json']);
    expect(out.code, out.out).toBe(1);
    const report = JSON.parse(out.stdout) as { ok: boolean; checks: { id: number; grade: string }[] };
    expect(report.ok).toBe(false);
    expect(report.checks.filter((c) => c.grade === 'failed').map((c) => c.id)).toEqual([3, 4, 5, 6]);
    const doc = readJunit(junit);
    expect(doc.testsuites).toMatchObject({ tests: '11', failures: '4' });
    const failed = (doc.testsuites.testsuite[0].testcase as { name: string; failure?: { message: string } }[]).filter((c) => c.failure);
    expect(failed.map((c) => c.name)).toEqual(['3 bad_signature', '4 missing_signature', '5 stale_timestamp', '6 body_changed']);
    expect(failed[1]!.failure!.message).toContain('accepted with 200');
  });

  it('fails a receiver that is not idempotent on check 2', async () => {
    const r = await start('notIdempotent');
    const out = await cli(['--url', r.url, '--secret', SECRET, '--timeout-ms', '2000', '--burst', '2']);
    expect(out.code, out.out).toBe(1);
    expect(out.stdout).toMatch(/^2 repeated_message\s+yes\s+failed\s+409\s/m);
    expect(out.stdout).toMatch(/receiver check FAILED \(required: 2\)/);
  });

  it('exits 2 on usage mistakes, sending nothing', async () => {
    const r = await start('correct');
    const missing = await cli(['--url', r.url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--secret');
    const burst = await cli(['--url', r.url, '--secret', SECRET, '--burst', '51']);
    expect(burst.code).toBe(2);
    expect(burst.stderr).toContain('--burst must be a whole number from 1 to 50');
    const url = await cli(['--url', 'ftp://example.test/hook', '--secret', SECRET, '--junit', join(dir, 'never.xml')]);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('url: must be an absolute http or https URL.');
    expect(existsSync(join(dir, 'never.xml'))).toBe(false);
    expect(r.received).toBe(0);
  });
});
