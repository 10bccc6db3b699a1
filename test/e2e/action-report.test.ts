import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { validate } from 'ctrf';
import { afterAll, describe, expect, it } from 'vitest';
import { runActionScript } from '../support/action-run.js';
import { createBody } from '../support/harness.js';
import { closedPort, jsonRequest } from '../support/net.js';
import { answer, useReceivers } from '../support/receiver.js';
import { serve } from '../support/serve.js';

/**
 * The GitHub Action's report script (action/report.mjs, run by report/action.yml) against the
 * built server on 127.0.0.1: the files it saves, the job summary and the step's outputs. The
 * image suite runs it against the container (test/image/action.test.ts).
 */
const OWNER = 'hrs_test_acme_owner';
const children: ChildProcess[] = [];
const receivers = useReceivers();
const dir = mkdtempSync(join(tmpdir(), 'action-report-'));
const SCENARIO = join(dir, 'five.yaml');
writeFileSync(SCENARIO, [
  'name: five',
  'rules:',
  '  - match: { all: true }',
  '    employee: { opens: 1h }',
  'expect:',
  ...['a', 'b', 'c'].map((x) => `  - name: never a DELETE of /v1/${x}\n    never: { method: DELETE, path: /v1/${x} }`),
  '  - name: completed within 1h',
  '    onboarding: { reaches: completed, within: 1h }',
  '  - name: "cancelled | within 1h"',
  '    onboarding: { reaches: cancelled, within: 1h }',
  '',
].join('\n'));

afterAll(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

describe('the report script', () => {
  it('saves the reports and HAR files and writes verdicts (failures first, rows past max-rows counted), a receiver check and delivery counts', async () => {
    const { url } = await serve(['--scenario', SCENARIO, '--clock', 'frozen', '--start-time', '2026-10-05T09:00:00Z'], children);
    // The receiver check's messages (at /check) are wrong on purpose: only the deliveries are held to the document.
    const r = await receivers.start(answer(200), { unchecked: ['/check'] });
    expect((await jsonRequest(url, 'POST', '/v1/webhooks', { url: r.url('/hooks') }, OWNER)).status).toBe(201);
    expect((await jsonRequest(url, 'POST', '/v1/onboardings', createBody(), OWNER)).status).toBe(201);
    expect((await jsonRequest(url, 'GET', '/_emulator/wait?for=delivery&status=succeeded', undefined, OWNER)).status).toBe(200);
    // A real receiver check's answer, saved as a job would: a receiver answering 200 to everything fails it.
    const check = await jsonRequest(url, 'POST', '/_emulator/receiver-checks', { url: r.url('/check'), secret: 'whsec_x', burst: 2, timeout_ms: 2000 }, OWNER);
    expect(check.body.ok).toBe(false);
    const checkFile = join(dir, 'check.json');
    writeFileSync(checkFile, JSON.stringify(check.body));

    const run = await runActionScript('report', { INPUT_URL: url, INPUT_MAX_ROWS: '3', INPUT_RECEIVER_CHECK: checkFile, INPUT_ARTIFACT: 'emulator-report' });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ verdict: 'failed', passed: '3', failed: '2', pending: '0', delivered: '1', 'deliveries-failed': '0', 'receiver-check': 'failed' });

    const rows = run.summary.split('\n').filter((l) => /^\| (✅|❌)/.test(l));
    const expectationRows = rows.slice(0, 3);
    expect(expectationRows.map((l) => l.split(' | ')[0])).toEqual(['| ❌ failed', '| ❌ failed', '| ✅ passed']);
    expect(run.summary).toContain('cancelled \\| within 1h');
    expect(run.summary).toContain('… and 2 more expectations, in scenario-report.json.');
    expect(run.summary).toContain('Scenario `five`: **❌ failed** (3 passed, 2 failed, 0 pending)');
    expect(run.summary).toMatch(/### Receiver check\n\n❌ .*\/check: \*\*failed\*\*/);
    expect(run.summary).toContain('| delivered | failed | pending |\n| --- | --- | --- |\n| 1 | 0 | 0 |');
    expect(run.summary).toContain('uploaded as the artifact `emulator-report`');

    const out = run.outputs['output-dir']!;
    expect(out).toBe(join(run.dir, 'onboarding-emulator-report'));
    const report = JSON.parse(readFileSync(join(out, 'scenario-report.json'), 'utf8'));
    expect(report).toMatchObject({ scenario: 'five', final: true, failed: 2 });
    const junit = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(out, 'scenario-report.junit.xml'), 'utf8'));
    expect(junit.testsuites['@_tests']).toBe('5');
    expect(junit.testsuites['@_failures']).toBe('2');
    const ctrf = JSON.parse(readFileSync(join(out, 'scenario-report.ctrf.json'), 'utf8'));
    expect(validate(ctrf).valid).toBe(true);
    expect(ctrf.results.summary).toMatchObject({ tests: 5, passed: 3, failed: 2 });
    const requests = JSON.parse(readFileSync(join(out, 'requests.har'), 'utf8'));
    expect(requests.log.entries.map((e: { request: { method: string; url: string } }) => `${e.request.method} ${new URL(e.request.url).pathname}`)).toEqual(['POST /v1/webhooks', 'POST /v1/onboardings']);
    const deliveries = JSON.parse(readFileSync(join(out, 'deliveries.har'), 'utf8'));
    expect(deliveries.log.entries.map((e: { request: { url: string } }) => e.request.url)).toEqual([r.url('/hooks')]);
    expect(JSON.parse(readFileSync(join(out, 'receiver-check.json'), 'utf8')).ok).toBe(false);
    for (const f of ['scenario-report.json', 'scenario-report.junit.xml', 'scenario-report.ctrf.json', 'requests.har', 'deliveries.har', 'receiver-check.json']) expect(run.summary).toContain(`\`${f}\``);
  });

  it('still writes a summary, saying what it could not get, when the emulator does not answer', async () => {
    const run = await runActionScript('report', { INPUT_URL: `http://127.0.0.1:${await closedPort()}` });
    expect(run.code).toBe(0);
    expect(run.outputs.verdict).toBe('unknown');
    expect(run.summary).toContain('No scenario report: the emulator did not answer.');
    expect(run.summary).toContain('No delivery log: the emulator did not answer.');
    expect(run.summary).toMatch(/### Warnings\n\n- GET \/_emulator\/scenario\/report\?final=true: fetch failed/);
    expect(existsSync(join(run.outputs['output-dir']!, 'requests.har'))).toBe(false);
  });

  it('says so in the summary, and does not fail, when the start step left no emulator URL', async () => {
    const run = await runActionScript('report', {});
    expect(run.code).toBe(0);
    expect(run.outputs.verdict).toBe('unknown');
    expect(run.summary).toContain('- no emulator URL: the start action did not run the emulator');
  });

  it('refuses a max-rows out of range with an error annotation', async () => {
    const run = await runActionScript('report', { INPUT_URL: 'http://127.0.0.1:1', INPUT_MAX_ROWS: '0' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('::error title=onboarding-emulator::input max-rows: "0" is not a whole number from 1 to 1000');
    expect(run.summary).toBe('');
  });
});
