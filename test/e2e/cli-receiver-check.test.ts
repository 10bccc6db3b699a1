import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from 'ctrf';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { run } from '../support/serve.js';
import { gradedReceiver, SECRET, type GradedReceiver } from '../support/graded-receivers.js';

/**
 * `receiver-check` of the built CLI: it runs the checks itself (no emulator) against receivers
 * on 127.0.0.1; exit status, table, --json, the --junit file read back by an XML parser and the
 * --ctrf file checked by the CTRF reference package.
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
    const url = await cli(['--url', 'ftp://example.test/hook', '--secret', SECRET, '--junit', join(dir, 'never.xml'), '--ctrf', join(dir, 'never.json')]);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('url: must be an absolute http or https URL.');
    expect(existsSync(join(dir, 'never.xml'))).toBe(false);
    expect(existsSync(join(dir, 'never.json'))).toBe(false);
    expect(r.received).toBe(0);
  });

  it('--ctrf writes a CTRF report beside JUnit: a test per check, failures with message and trace, the run\'s own span', async () => {
    const r = await start('unsigned');
    const file = join(dir, 'unsigned.ctrf.json');
    const junit = join(dir, 'unsigned-too.xml');
    const out = await cli(['--url', r.url, '--secret', SECRET, '--timeout-ms', '2000', '--burst', '2', '--ctrf', file, '--junit', junit, '--json']);
    expect(out.code, out.out).toBe(1);
    const report = JSON.parse(out.stdout) as { started_at: string; duration_ms: number; checks: { id: number; name: string; grade: string; reason: string; ms: number | null }[] };
    const doc = JSON.parse(readFileSync(file, 'utf8')) as {
      reportFormat: string; results: { tool: { name: string }; summary: Record<string, number>; tests: { name: string; status: string; duration: number; message?: string; trace?: string; suite: string[] }[] };
    };
    expect(validate(doc)).toEqual({ valid: true, errors: [] });
    expect(doc.results.tool.name).toBe('onboarding-emulator');
    const start_ = Date.parse(report.started_at);
    expect(doc.results.summary).toEqual({ tests: 11, passed: 7, failed: 4, pending: 0, skipped: 0, other: 0, start: start_, stop: start_ + report.duration_ms });
    expect(doc.results.tests.map((t) => t.name)).toEqual(report.checks.map((c) => `${c.id} ${c.name}`));
    const failed = doc.results.tests.filter((t) => t.status === 'failed');
    expect(failed.map((t) => t.name)).toEqual(['3 bad_signature', '4 missing_signature', '5 stale_timestamp', '6 body_changed']);
    expect(failed[1]!.message).toContain('accepted with 200');
    expect(failed[1]!.trace).toMatch(/\nstatus: 200\n/);
    for (const [i, t] of doc.results.tests.entries()) {
      expect(t.suite).toEqual(['receiver-check']);
      expect(t.duration).toBe(Math.round(report.checks[i]!.ms ?? 0));
    }
    // JUnit from the same checks counts the same.
    expect(readJunit(junit).testsuites).toMatchObject({ tests: '11', failures: '4', skipped: '0' });
  });

  it('--format ctrf and --format junit print the report on stdout; a format it has not, or one beside --json, is a usage mistake', async () => {
    const r = await start('unsigned');
    const args = ['--url', r.url, '--secret', SECRET, '--timeout-ms', '2000', '--burst', '2'];
    const ctrf = await cli([...args, '--format', 'ctrf']);
    expect(ctrf.code, ctrf.stderr).toBe(1);
    const doc = JSON.parse(ctrf.stdout);
    expect(validate(doc)).toEqual({ valid: true, errors: [] });
    expect(doc.results.summary).toMatchObject({ tests: 11, failed: 4 });
    const junit = await cli([...args, '--format', 'junit']);
    expect(junit.code, junit.stderr).toBe(1);
    expect(junit.stdout).toMatch(/^<\?xml /);
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(junit.stdout);
    expect(xml.testsuites).toMatchObject({ tests: '11', failures: '4' });
    const before = r.received;
    for (const bad of [[...args, '--format', 'xml'], [...args, '--format', 'ctrf', '--json']]) {
      const out = await cli(bad);
      expect(out.code).toBe(2);
      expect(out.stdout).toBe('');
      expect(out.stderr).toMatch(/Allowed choices are table, json, junit, ctrf|--json and --format ctrf ask for two formats/);
    }
    // Refused before a message was sent.
    expect(r.received).toBe(before);
  });

  it('--ctrf to a place it cannot write: exit 2, naming the file', async () => {
    const r = await start('correct');
    const out = await cli(['--url', r.url, '--secret', SECRET, '--timeout-ms', '2000', '--burst', '2', '--ctrf', join(dir, 'no-such-folder', 'x.json')]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`cannot write ${join(dir, 'no-such-folder', 'x.json')}: ENOENT`);
  });
});
