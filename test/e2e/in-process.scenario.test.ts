import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError, createEmulator, readScenarioFile, ScenarioError,
  type CreatedOnboarding, type InProcessEmulator, type InProcessOptions, type Onboarding, type ScenarioDocument,
} from '../../src/index.js';

/**
 * The scenario helpers of createEmulator(): the `scenario` option, load/get/clear/validate on
 * the emulator and on workspace handles (the same control service as /_emulator/scenario), and
 * the steps they make the in-process clock helper play, seen over HTTP as events.
 */
const START = '2026-10-05T09:00:00.000Z';
const OWNER = 'hrs_test_acme_owner';
const scenarioFile = (name: string) => fileURLToPath(new URL(`../../scenarios/${name}`, import.meta.url));
const HAPPY = scenarioFile('happy-path.yaml');
const dir = mkdtempSync(join(tmpdir(), 'in-process-scenario-'));
const started: InProcessEmulator[] = [];

afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});

async function startEmulator(options: InProcessOptions = {}) {
  const em = createEmulator({ seed: 1, clock: { mode: 'frozen', start: START }, ...options });
  started.push(em);
  const { url } = await em.start(0);
  return { em, url };
}

async function createOnboarding(url: string, key = OWNER, reference = 'in-process-scenario'): Promise<string> {
  const res = await fetch(`${url}/v1/onboardings`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      reference,
      employee: { first_name: 'Lotte', last_name: 'de Boer', email: 'lotte@example.test' },
      employment: { position: 'Cashier', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1400 },
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as CreatedOnboarding).id;
}

async function readOnboarding(url: string, id: string, key = OWNER): Promise<Onboarding> {
  const res = await fetch(`${url}/v1/onboardings/${id}`, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as Onboarding;
}

/** The types of one onboarding's events, oldest first. */
async function eventTypes(url: string, id: string, key = OWNER): Promise<string[]> {
  const all: { id: string; type: string; data: { onboarding_id?: string } }[] = [];
  for (let cursor: string | undefined, page = 0; page < 20; page++) {
    const res = await fetch(`${url}/v1/events?limit=100${cursor ? `&starting_after=${cursor}` : ''}`, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { data: typeof all; has_more: boolean };
    all.push(...body.data);
    if (!body.has_more) break;
    cursor = body.data.at(-1)!.id;
  }
  return all.filter((e) => e.data.onboarding_id === id).map((e) => e.type);
}

const HAPPY_STEPS = [
  'employee_opened', 'employee_submitted', 'identity_verified', 'approval_given', 'approval_given', 'approval_given',
  'contract_sent', 'employee_signed', 'employer_signed', 'payroll_completed',
];
const HAPPY_EVENTS = [
  'onboarding.created', 'onboarding.started', 'onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required',
  'onboarding.approval_given', 'onboarding.approval_given', 'onboarding.approval_given', 'onboarding.approved',
  'contract.sent', 'contract.signed_by_employee', 'onboarding.contract_signed', 'contract.signed',
  'integration.sync_succeeded', 'payroll.completed', 'onboarding.completed',
];

const QUICK: ScenarioDocument = {
  name: 'quick',
  rules: [{ name: 'quick ones', match: { reference: 'QUICK-*' }, employee: { opens: '10m', submits: '20m' } }],
};

describe('createEmulator({ scenario })', () => {
  it('plays a scenario file given at creation as the clock helper advances', async () => {
    const { em, url } = await startEmulator({ scenario: HAPPY });
    const state = await em.scenario.get();
    expect(state).toMatchObject({ loaded: true, name: 'happy-path', source: 'happy-path.yaml', loaded_at: START });
    expect(state.document).toEqual(readScenarioFile(HAPPY));

    const id = await createOnboarding(url);
    expect((await em.scenario.get()).planned).toContainEqual({ onboarding_id: id, rule: 'rules[0]', step: 'employee_opened', due_at: '2026-10-05T10:00:00.000Z' });
    const moved = await em.clock.advance('1d');
    expect(moved.fired.filter((f) => f.kind === 'scenario.step' && f.onboarding_id === id).map((f) => f.step)).toEqual(HAPPY_STEPS);
    expect(await eventTypes(url, id)).toEqual(HAPPY_EVENTS);
    expect((await readOnboarding(url, id)).status).toBe('completed');
    expect((await em.scenario.get()).planned.map((p) => p.onboarding_id)).not.toContain(id);
  });

  it('takes several files (their rules in order, as repeated --scenario) or a document', async () => {
    const files = createEmulator({ scenario: [scenarioFile('slow-employer-signature.yaml'), HAPPY] });
    const merged = await files.scenario.get();
    expect(merged).toMatchObject({ name: 'slow-employer-signature + happy-path', source: 'slow-employer-signature.yaml, happy-path.yaml' });
    expect(merged.document!.rules).toHaveLength(2);

    const doc = createEmulator({ scenario: QUICK });
    expect(await doc.scenario.get()).toMatchObject({ loaded: true, name: 'quick', source: 'options', document: QUICK });
    // A workspace made later plays the same scenario unless it brings its own.
    const ws = await doc.workspace.create();
    expect(await ws.handle.scenario.get()).toMatchObject({ name: 'quick' });
    const none = await doc.workspace.create({ scenario: null });
    expect((await none.handle.scenario.get()).loaded).toBe(false);
  });

  it('refuses a document with mistakes at creation with ScenarioError listing them', () => {
    let caught: unknown;
    try {
      createEmulator({ scenario: { rules: [{ match: { all: true }, employee: { opens: 'soon' } }] } as ScenarioDocument });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ScenarioError);
    expect((caught as ScenarioError).mistakes).toEqual([expect.objectContaining({ path: 'rules[0].employee.opens', message: '"soon" is not a delay' })]);
  });
});

describe('emulator.scenario', () => {
  it('load(document) plans every onboarding from now; only the selected ones play', async () => {
    const { em, url } = await startEmulator();
    expect((await em.scenario.get()).loaded).toBe(false);
    const quick = await createOnboarding(url, OWNER, 'QUICK-1');
    const other = await createOnboarding(url, OWNER, 'OTHER-1');
    await em.clock.advance('5m');

    const state = await em.scenario.load(QUICK);
    expect(state).toMatchObject({ loaded: true, name: 'quick', source: 'api', loaded_at: '2026-10-05T09:05:00.000Z' });
    expect(state.planned.filter((p) => p.onboarding_id === quick || p.onboarding_id === other)).toEqual([
      { onboarding_id: quick, rule: 'rules[0]', step: 'employee_opened', due_at: '2026-10-05T09:15:00.000Z' },
    ]);
    // What GET /_emulator/scenario answers, without HTTP in between.
    expect(await (await fetch(`${url}/_emulator/scenario`)).json()).toEqual(await em.scenario.get());

    const moved = await em.clock.advance('1h');
    expect(moved.fired.filter((f) => f.kind === 'scenario.step').map((f) => [f.onboarding_id, f.step, f.due_at])).toEqual([
      [quick, 'employee_opened', '2026-10-05T09:15:00.000Z'],
      [quick, 'employee_submitted', '2026-10-05T09:35:00.000Z'],
    ]);
    expect(await eventTypes(url, quick)).toEqual(['onboarding.created', 'onboarding.started', 'onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required']);
    expect(await eventTypes(url, other)).toEqual(['onboarding.created']);
  });

  it('load(file) reads JSON or YAML as --scenario does; load([files]) plays them as one', async () => {
    const { em, url } = await startEmulator();
    const state = await em.scenario.load(HAPPY);
    expect(state).toMatchObject({ name: 'happy-path', source: 'happy-path.yaml' });
    const json = join(dir, 'quick.json');
    writeFileSync(json, JSON.stringify(QUICK));
    const both = await em.scenario.load([json, HAPPY]);
    expect(both).toMatchObject({ name: 'quick + happy-path', source: 'quick.json, happy-path.yaml' });
    expect(both.document!.rules.map((r) => r.name)).toEqual(['quick ones', 'everyone']);

    const id = await createOnboarding(url, OWNER, 'QUICK-2'); // the first matching rule drives it
    await em.clock.advance('1d');
    expect(await eventTypes(url, id)).toEqual(['onboarding.created', 'onboarding.started', 'onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required']);
  });

  it('refuses a document with mistakes with ApiError scenario_invalid and every mistake; the loaded one stays', async () => {
    const { em } = await startEmulator({ scenario: HAPPY });
    const bad = { name: 'bad', rules: [{ match: { all: true }, employee: { opens: 'soon', submit: '1h' }, payroll: { outcome: 'maybe' } }] };
    const refusal = await em.scenario.load(bad as unknown as ScenarioDocument).then(
      () => { throw new Error('loaded a bad scenario'); },
      (err: unknown) => err,
    );
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ code: 'scenario_invalid', status: 422 });
    expect((refusal as ApiError).details).toEqual(expect.arrayContaining([
      { path: 'rules[0].employee.opens', message: '"soon" is not a delay', hint: expect.stringContaining('"30m"') },
      { path: 'rules[0].employee.submit', message: 'is not a known field', hint: 'employee has opens, submits and signs' },
      expect.objectContaining({ path: 'rules[0].payroll.outcome' }),
    ]));
    expect((refusal as ApiError).details).toHaveLength(3);
    // The HTTP route refuses the same document with the same details.
    const { url } = await em.start();
    const overHttp = await fetch(`${url}/_emulator/scenario`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(bad) });
    expect(overHttp.status).toBe(422);
    expect(((await overHttp.json()) as { error: { details: unknown } }).error.details).toEqual((refusal as ApiError).details);
    expect(await em.scenario.get()).toMatchObject({ loaded: true, name: 'happy-path' });

    // A file: the message names it, the details hold the paths inside it.
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'rules:\n  - match: { all: true }\n    employee: { opens: soon }\n');
    await expect(em.scenario.load(file)).rejects.toMatchObject({
      code: 'scenario_invalid',
      message: expect.stringContaining(file),
      details: [expect.objectContaining({ path: 'rules[0].employee.opens' })],
    });
    // A file that cannot be read says so in the message itself, not only in the details.
    const missing = join(dir, 'missing.yaml');
    await expect(em.scenario.load(missing)).rejects.toMatchObject({
      code: 'scenario_invalid',
      message: `Cannot read scenario file ${missing}: no such file.`,
      details: [{ path: '(document)', message: `Cannot read scenario file ${missing}: no such file` }],
    });
    await expect(em.scenario.load([])).rejects.toMatchObject({ code: 'scenario_invalid' });
    expect(await em.scenario.get()).toMatchObject({ loaded: true, name: 'happy-path' });
  });

  it('validate() checks a document or a file without loading it', async () => {
    const { em } = await startEmulator();
    expect(await em.scenario.validate(QUICK)).toEqual({ valid: true, name: 'quick', rules: 1, mistakes: [], warnings: [] });
    expect(await em.scenario.validate(HAPPY)).toEqual({ valid: true, name: 'happy-path', rules: 1, mistakes: [], warnings: [] });
    expect(await em.scenario.validate('happy-path')).toEqual({ valid: true, name: 'happy-path', rules: 1, mistakes: [], warnings: [] });
    expect(await em.scenario.validate({ rules: [] })).toMatchObject({ valid: true, warnings: [{ path: 'rules', message: expect.stringContaining('no rules') }] });
    const result = await em.scenario.validate({ rules: [{ match: {}, employee: { opens: 'soon' } }] });
    expect(result.valid).toBe(false);
    expect(result.mistakes.map((m) => m.path)).toEqual(expect.arrayContaining(['rules[0].employee.opens']));
    expect(await em.scenario.validate(join(dir, 'missing.yaml'))).toMatchObject({ valid: false, mistakes: [{ path: '(document)' }] });
    expect((await em.scenario.get()).loaded).toBe(false);
  });

  it('clear() stops further steps: the onboarding stays where the scenario left it', async () => {
    const { em, url } = await startEmulator({ scenario: HAPPY });
    const id = await createOnboarding(url);
    await em.clock.advance('1h'); // opened
    expect(await eventTypes(url, id)).toEqual(['onboarding.created', 'onboarding.started']);
    const status = (await readOnboarding(url, id)).status;

    const cleared = await em.scenario.clear();
    expect(cleared).toMatchObject({ loaded: false, name: null, document: null });
    expect(cleared.planned.map((p) => p.onboarding_id)).not.toContain(id);
    const moved = await em.clock.advance('2d');
    expect(moved.fired.filter((f) => f.kind === 'scenario.step')).toEqual([]);
    expect(await eventTypes(url, id)).toEqual(['onboarding.created', 'onboarding.started']);
    expect((await readOnboarding(url, id)).status).toBe(status);
  });

  it('a ready scenario loads by name, from any working folder: the option, load() and a list', async () => {
    const cwd = process.cwd();
    process.chdir(dir); // no scenarios/ here: the name is found in the package itself
    try {
      const { em, url } = await startEmulator({ scenario: 'happy-path' });
      expect(await em.scenario.get()).toMatchObject({ loaded: true, name: 'happy-path', source: 'happy-path', document: readScenarioFile(HAPPY), warnings: [] });
      const id = await createOnboarding(url);
      await em.clock.advance('1d');
      expect(await eventTypes(url, id)).toEqual(HAPPY_EVENTS);

      expect(await em.scenario.load('slow-employer-signature')).toMatchObject({ name: 'slow-employer-signature', source: 'slow-employer-signature' });
      expect(await em.scenario.load(['payroll-failure-then-recovery', 'happy-path'])).toMatchObject({ name: 'payroll-failure-then-recovery + happy-path' });
      const unknown = await em.scenario.load('happy-pat').then(() => null, (err: unknown) => err);
      expect(unknown).toBeInstanceOf(ApiError);
      expect(unknown).toMatchObject({ code: 'scenario_invalid', message: expect.stringMatching(/^No ready scenario is named happy-pat; the ready scenarios are employee-never-opens, flaky-webhooks, happy-path, /) });
      expect(() => createEmulator({ scenario: 'nope' })).toThrow(/^No ready scenario is named nope; /);
    } finally {
      process.chdir(cwd);
    }
  });

  it('on a workspace handle acts on that workspace only', async () => {
    const { em, url } = await startEmulator();
    const ws = await em.workspace.create({ scenario: null });
    const key = ws.keys.find((k) => k.key.startsWith(`${OWNER}_`))!.key;
    await ws.handle.scenario.load(HAPPY);
    expect((await em.scenario.get()).loaded).toBe(false);
    expect(await em.workspace.get(ws.id).scenario.get()).toMatchObject({ loaded: true, name: 'happy-path' });

    const inWorkspace = await createOnboarding(url, key);
    const inDefault = await createOnboarding(url);
    await ws.handle.clock.advance('1d');
    await em.clock.advance('1d');
    expect(await eventTypes(url, inWorkspace, key)).toEqual(HAPPY_EVENTS);
    expect(await eventTypes(url, inDefault)).toEqual(['onboarding.created']);

    await ws.handle.scenario.clear();
    expect((await ws.handle.scenario.get()).loaded).toBe(false);
    await em.workspace.reset();
  });
});
