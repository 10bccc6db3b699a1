import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from 'ctrf';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, serve } from '../support/serve.js';

/** `scenario report` of the built CLI against a built server on a frozen clock: exit status, table, --json, --junit and --ctrf. */
const START = '2026-10-05T09:00:00.000Z';
const OWNER = 'hrs_test_acme_owner';
const children: ChildProcess[] = [];
const cli = (args: string[]) => run(args, children, { EMULATOR_URL: '', EMULATOR_KEY: '' });
const dir = mkdtempSync(join(tmpdir(), 'cli-scenario-report-'));
let url = '';

const rules = [{ match: { all: true }, employee: { opens: '1h', submits: '30m' } }];
const PASSING = join(dir, 'passing.yaml');
writeFileSync(PASSING, [
  'name: passing',
  'rules:',
  '  - match: { all: true }',
  '    employee: { opens: 1h, submits: 30m }',
  'expect:',
  '  - name: in review within 2h',
  '    onboarding: { match: { reference: "CLI-*" }, reaches: in_review, within: 2h }',
  '  - name: no keyless create',
  '    never: { method: POST, path: /v1/onboardings, has_idempotency_key: false }',
  '',
].join('\n'));
const FAILING = join(dir, 'failing.json');
writeFileSync(FAILING, JSON.stringify({
  name: 'failing',
  rules,
  expect: [
    { name: 'completed within 1h', onboarding: { match: { reference: 'CLI-*' }, reaches: 'completed', within: '1h' } },
    { name: 'in review within 1d', onboarding: { match: { reference: 'CLI-*' }, reaches: 'in_review', within: '1d' } },
  ],
}));

async function post(path: string, body: object, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return res;
}
const createOnboarding = (reference: string) => post('/v1/onboardings', {
  reference,
  employee: { first_name: 'Sam', last_name: 'Smit', email: 'sam@example.test' },
  employment: { position: 'Clerk', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 20, hourly_wage_cents: 1500 },
}, { 'Idempotency-Key': reference });

beforeAll(async () => {
  url = (await serve(['--log-level', 'warn', '--clock', 'frozen', '--start-time', START, '--seed', 'cli-report'], children)).url;
});

afterAll(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

describe('onboarding-emulator scenario report', () => {
  it('exits 0 while nothing failed, 1 once something did; --junit writes the report as JUnit XML', async () => {
    expect((await cli(['scenario', 'load', PASSING, '--url', url])).code).toBe(0);
    await createOnboarding('CLI-1');
    const pending = await cli(['scenario', 'report', '--url', url]);
    expect(pending.code, pending.stderr).toBe(0);
    expect(pending.stdout).toMatch(/^pending\s+1$/m);
    expect(pending.stdout).toMatch(/^pending\s+onboarding\s+in review within 2h$/m);

    await post('/_emulator/clock/advance', { by: '2h' });
    const passed = await cli(['scenario', 'report', '--url', url, '--json']);
    expect(passed.code, passed.stderr).toBe(0);
    expect(JSON.parse(passed.stdout)).toMatchObject({ scenario: 'passing', passed: 2, failed: 0, pending: 0 });

    expect((await cli(['scenario', 'load', FAILING, '--url', url])).code).toBe(0);
    await createOnboarding('CLI-2');
    await post('/_emulator/clock/advance', { by: '2h' });
    const junit = join(dir, 'report.xml');
    const failed = await cli(['scenario', 'report', '--url', url, '--junit', junit]);
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stdout).toMatch(/^failed: completed within 1h\n {2}1 of 1 onboarding\(s\) failed: onb_\w+: not completed by 2026-10-05T12:00:00.000Z; it is in_review$/m);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(junit, 'utf8'));
    expect(doc.testsuites).toMatchObject({ tests: '2', failures: '1', skipped: '0' });
    const cases = doc.testsuites.testsuite.testcase as { name: string; classname: string; failure?: { message: string } }[];
    expect(cases.map((c) => [c.name, c.classname, c.failure ? 'failed' : 'passed'])).toEqual([
      ['completed within 1h', 'failing.onboarding', 'failed'],
      ['in review within 1d', 'failing.onboarding', 'passed'],
    ]);
  });

  it('--final: the ready happy-path scenario with no onboarding created fails at the end of the run, where it passed as pending', async () => {
    expect((await cli(['scenario', 'load', 'happy-path', '--url', url])).code).toBe(0);
    const meanwhile = await cli(['scenario', 'report', '--url', url, '--json']);
    expect(meanwhile.code, meanwhile.stderr).toBe(0);
    const open = JSON.parse(meanwhile.stdout) as { final: boolean; failed: number; pending: number };
    expect(open).toMatchObject({ final: false, failed: 0 });
    expect(open.pending).toBeGreaterThan(0);

    const junit = join(dir, 'final.xml');
    const final = await cli(['scenario', 'report', '--final', '--url', url, '--junit', junit]);
    expect(final.code, final.stderr).toBe(1);
    expect(final.stdout).toMatch(/^pending\s+0$/m);
    expect(final.stdout).toMatch(/^final\s+yes/m);
    expect(final.stdout).toMatch(/^failed: .+\n {2}not reached by the end of the run: no test onboarding was created since the scenario was loaded$/m);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(junit, 'utf8'));
    expect(doc.testsuites).toMatchObject({ failures: String(open.pending), skipped: '0' });

    // The same verdict over HTTP.
    const overHttp = (await (await fetch(`${url}/_emulator/scenario/report?final=true`)).json()) as { final: boolean; failed: number; pending: number; expectations: { status: string; reason: string }[] };
    expect(overHttp).toMatchObject({ final: true, failed: open.pending, pending: 0 });
    for (const e of overHttp.expectations) expect(e.reason).toMatch(/^not reached by the end of the run: /);
  });

  it('--ctrf writes the report as CTRF, the document ?format=ctrf answers: pending ones pending, failed ones with their reason', async () => {
    expect((await cli(['scenario', 'load', FAILING, '--url', url])).code).toBe(0);
    await createOnboarding('CLI-3');
    const file = join(dir, 'report.ctrf.json');
    const open = await cli(['scenario', 'report', '--url', url, '--ctrf', file]);
    expect(open.code, open.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { results: { summary: Record<string, number>; tests: { name: string; status: string; message?: string }[] } };
    expect(validate(doc)).toEqual({ valid: true, errors: [] });
    expect(doc.results.tests.map((t) => [t.name, t.status])).toEqual([['completed within 1h', 'pending'], ['in review within 1d', 'pending']]);
    expect(doc.results.summary).toMatchObject({ tests: 2, passed: 0, failed: 0, pending: 2 });
    // Written from the report the CLI read: the document the server answers at the same workspace instant.
    expect(doc).toEqual(await (await fetch(`${url}/_emulator/scenario/report?format=ctrf`)).json());

    const final = await cli(['scenario', 'report', '--final', '--url', url, '--ctrf', file, '--junit', join(dir, 'final-too.xml')]);
    expect(final.code, final.stderr).toBe(1);
    const ended = JSON.parse(readFileSync(file, 'utf8')) as typeof doc;
    expect(validate(ended).valid).toBe(true);
    expect(ended.results.summary).toMatchObject({ tests: 2, failed: 2, pending: 0 });
    for (const t of ended.results.tests) expect(t.message).toMatch(/^not reached by the end of the run: /);
    const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(join(dir, 'final-too.xml'), 'utf8'));
    expect(junit.testsuites).toMatchObject({ tests: '2', failures: '2', skipped: '0' });
  });

  it('--format ctrf, junit and json print the report on stdout, each the document the server answers in that format', async () => {
    expect((await cli(['scenario', 'load', FAILING, '--url', url])).code).toBe(0);
    await createOnboarding('CLI-4');
    const ctrf = await cli(['scenario', 'report', '--url', url, '--format', 'ctrf']);
    expect(ctrf.code, ctrf.stderr).toBe(0);
    expect(validate(JSON.parse(ctrf.stdout))).toEqual({ valid: true, errors: [] });
    expect(JSON.parse(ctrf.stdout)).toEqual(await (await fetch(`${url}/_emulator/scenario/report?format=ctrf`)).json());
    const junit = await cli(['scenario', 'report', '--url', url, '--format', 'junit']);
    expect(junit.stdout).toBe(await (await fetch(`${url}/_emulator/scenario/report?format=junit`)).text());
    const json = await cli(['scenario', 'report', '--url', url, '--format', 'json']);
    expect(JSON.parse(json.stdout)).toEqual(await (await fetch(`${url}/_emulator/scenario/report`)).json());
    const final = await cli(['scenario', 'report', '--final', '--url', url, '--format', 'ctrf']);
    expect(final.code).toBe(1);
    expect(JSON.parse(final.stdout).results.summary).toMatchObject({ failed: 2, pending: 0 });
  });

  it('--format names a format it has not, or a second one beside --json: exit 2 before anything is asked or written', async () => {
    const file = join(dir, 'never.ctrf.json');
    for (const args of [['--format', 'xml'], ['--format', 'junit', '--json', '--ctrf', file]]) {
      const out = await cli(['scenario', 'report', '--url', url, ...args]);
      expect(out.code).toBe(2);
      expect(out.stdout).toBe('');
      expect(out.stderr).toMatch(/Allowed choices are table, json, junit, ctrf|--json and --format junit ask for two formats: give one/);
    }
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a format the report has not: exit 1 with the server\'s refusal, nothing printed on stdout', async () => {
    const refused = await cli(['control', 'GET', '/_emulator/scenario/report?format=xml', '--url', url]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe('error 422 parameter_invalid: format: must be one of: json, junit, ctrf\n');
    const ctrf = await cli(['control', 'GET', '/_emulator/scenario/report?format=ctrf', '--url', url, '--json']);
    expect(ctrf.code, ctrf.stderr).toBe(0);
    expect(validate(JSON.parse(ctrf.stdout)).valid).toBe(true);
  });
});
