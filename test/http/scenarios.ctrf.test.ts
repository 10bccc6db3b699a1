import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { CURRENT_SPEC_VERSION, validate } from 'ctrf';
import { describe, expect, it } from 'vitest';
import { until } from '../support/wait.js';
import { harness, KEYS, type Harness } from '../support/harness.js';
import { createOnboarding } from '../support/sandbox-steps.js';
import { EXPECTING } from '../support/report-scenarios.js';

/** GET /_emulator/scenario/report?format=ctrf: the report as CTRF, checked by the reference package. */

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const scenario = EXPECTING;

interface CtrfTest { name: string; status: string; duration: number; message?: string; trace?: string; suite?: string[] }
interface Ctrf {
  reportFormat: string;
  specVersion: string;
  results: { tool: { name: string; version?: string }; summary: Record<string, number>; tests: CtrfTest[] };
}

const keyed = (h: Harness, key: string) => h.as(KEYS.owner).post('/v1/onboardings', {
  reference: 'keyed', employee: { first_name: 'Sam', last_name: 'Smit', email: 'sam@example.test' },
  employment: { position: 'Clerk', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 20, hourly_wage_cents: 1500 },
}).set('Idempotency-Key', key);

/** Two hours into a run: one expectation pending, one failed, one passed-or-pending, one failed (a keyless create). */
async function midRun(): Promise<Harness> {
  const h = harness();
  await h.http().put('/_emulator/scenario').send(scenario).expect(200);
  await keyed(h, 'create-ctrf').expect(201);
  await createOnboarding(h);
  await h.http().post('/_emulator/clock/advance').send({ by: '2h' }).expect(200);
  return h;
}

async function ctrf(h: Harness, query = ''): Promise<Ctrf> {
  const res = await h.http().get(`/_emulator/scenario/report?format=ctrf${query}`);
  expect(res.status, res.text).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return JSON.parse(res.text) as Ctrf;
}

describe('GET /_emulator/scenario/report?format=ctrf', () => {
  it('answers a CTRF report the reference package accepts: a test per expectation, pending ones pending, failures with message and trace', async () => {
    const h = await midRun();
    const doc = await ctrf(h);
    expect(validate(doc)).toEqual({ valid: true, errors: [] });
    expect(validate(doc, { specVersion: CURRENT_SPEC_VERSION }).valid).toBe(true);
    expect(doc).toMatchObject({ reportFormat: 'CTRF', specVersion: CURRENT_SPEC_VERSION, results: { tool: { name: 'onboarding-emulator', version: VERSION } } });

    const json = (await h.http().get('/_emulator/scenario/report').expect(200)).body as { now: string; expectations: { name: string; status: string; reason: string; kind: string }[] };
    const tests = doc.results.tests;
    expect(tests.map((t) => [t.name, t.status])).toEqual(json.expectations.map((e) => [e.name, e.status]));
    expect(tests.map((t) => t.status)).toEqual(['pending', 'failed', 'pending', 'failed']);
    for (const [i, t] of tests.entries()) {
      expect(t.suite).toEqual(['expecting', json.expectations[i]!.kind]);
      if (t.status !== 'passed') expect(t.message).toBe(json.expectations[i]!.reason);
    }
    expect(tests[1]!.trace).toMatch(/^onb_\w+ failed: /m);
    expect(tests[0]!.trace).toBeUndefined();
    expect(doc.results.summary).toMatchObject({ tests: 4, passed: 0, failed: 2, pending: 2, skipped: 0, other: 0 });
  });

  it('stamps start and stop from the workspace clock, so the same run answers the same document', async () => {
    const h = await midRun();
    const first = await ctrf(h);
    // Two hours in on the frozen workspace clock, whatever the wall clock says.
    const at = Date.parse('2026-10-05T11:00:00.000Z');
    expect(first.results.summary).toMatchObject({ start: at, stop: at });
    // The wall clock moves on; the document does not.
    const wall = Date.now();
    await until(() => Date.now() > wall, 'the wall clock to move on');
    expect(await ctrf(h)).toEqual(first);
    await h.http().post('/_emulator/clock/advance').send({ by: '1m' }).expect(200);
    expect((await ctrf(h)).results.summary.stop).toBe(at + 60_000);
  });

  it('with final=true fails what is still pending, as JUnit does', async () => {
    const h = await midRun();
    const doc = await ctrf(h, '&final=true');
    expect(validate(doc).valid).toBe(true);
    expect(doc.results.tests.map((t) => t.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(doc.results.tests[0]!.message).toMatch(/^not reached by the end of the run: /);
    expect(doc.results.summary).toMatchObject({ tests: 4, failed: 4, pending: 0 });
    const junit = (await h.http().get('/_emulator/scenario/report?format=junit&final=true').expect(200)).text;
    expect(junit).toMatch(/<testsuite name="expecting" tests="4" failures="4" errors="0" skipped="0"/);
  });

  it('answers the same under the workspace path, and for a workspace without a scenario an empty valid report', async () => {
    const h = await midRun();
    const scoped = (await h.http().get('/_emulator/workspaces/default/scenario/report?format=ctrf').expect(200)).body as Ctrf;
    expect(scoped).toEqual(await ctrf(h));
    const empty = await ctrf(harness());
    expect(validate(empty).valid).toBe(true);
    expect(empty.results).toMatchObject({ summary: { tests: 0, passed: 0, failed: 0, pending: 0 }, tests: [] });
  });

  it('refuses a format it does not know with 422 in the error envelope, naming format and the formats it knows', async () => {
    const h = harness();
    for (const path of ['/_emulator/scenario/report?format=xml', '/_emulator/workspaces/default/scenario/report?format=CTRF']) {
      const res = await h.http().get(path);
      expect(res.status, path).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'format' });
      expect(res.body.error.message).toMatch(/ctrf/);
    }
  });

  it('is described in the OpenAPI document: the format values, and the CTRF report among the JSON answers, as answered', async () => {
    const h = await midRun();
    const doc = (await h.http().get('/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { parameters?: { name: string; schema: unknown }[]; responses: Record<string, { content: Record<string, { schema: unknown }> }> }>>;
      components: { schemas: Record<string, unknown> };
    };
    const op = doc.paths['/_emulator/scenario/report']!.get!;
    expect(JSON.stringify(op.parameters!.find((p) => p.name === 'format')!.schema)).toContain('"ctrf"');
    const json = JSON.stringify(op.responses['200']!.content['application/json']!.schema);
    expect(json).toContain('CtrfReport');
    expect(Object.keys(op.responses['200']!.content)).toEqual(expect.arrayContaining(['application/json', 'application/xml']));
    // The published schema describes what is answered, pending and failed tests included.
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const check = ajv.compile(doc.components.schemas.CtrfReport as object);
    for (const query of ['', '&final=true']) {
      const answer = await ctrf(h, query);
      expect(check(answer), JSON.stringify(check.errors)).toBe(true);
    }
  });
});
