import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createEmulator, type CreatedOnboarding, type InProcessEmulator, type Organization } from '../../src/index.js';
import type { Employee, OpenApproval, ReviewSession, WebhookEndpoint } from 'onboarding-emulator';

/**
 * The in-process API used exactly as the README shows it: a real server on 127.0.0.1:0, the
 * API over fetch, and the control helpers (the same control service as /_emulator) in between.
 */
const START = '2026-10-05T09:00:00.000Z';
const OWNER = 'hrs_test_acme_owner';
const started: InProcessEmulator[] = [];

afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});

async function startEmulator() {
  const em = createEmulator({ seed: 1, clock: { mode: 'frozen', start: START } });
  started.push(em);
  const { url } = await em.start(0);
  return { em, url };
}

const api = (url: string, key: string) => ({
  get: (path: string) => fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${key}` } }),
  post: (path: string, body: unknown) =>
    fetch(`${url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
});

const onboardingBody = (options: Record<string, unknown> = {}) => ({
  reference: 'in-process',
  employee: { first_name: 'Lotte', last_name: 'de Boer', email: 'lotte@example.test' },
  employment: {
    position: 'Cashier',
    start_date: '2026-12-01',
    location_id: 'loc_acme_amsterdam',
    template_id: 'tpl_acme_standard',
    hours_per_week: 24,
    hourly_wage_cents: 1400,
  },
  options,
});

describe('createEmulator() in process', () => {
  it('starts on 127.0.0.1 with a free port, serves the API at url, and close() frees the port', async () => {
    const em = createEmulator();
    expect(em.url).toBeNull();
    const { url } = await em.start(0);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(em.url).toBe(url);
    expect((await em.start()).url).toBe(url); // a second start is the same server
    const res = await api(url, OWNER).get('/v1/organization');
    expect(res.status).toBe(200);
    expect(((await res.json()) as Organization).id).toBe('org_acme');
    await em.close();
    expect(em.url).toBeNull();
    await expect(fetch(`${url}/_emulator/health`)).rejects.toThrow();
    await em.close(); // closing twice is harmless
  });

  it('advances the clock with clock.advance("90m"), the same clock /_emulator/clock shows', async () => {
    const { em, url } = await startEmulator();
    expect(await em.clock.now()).toBe(START);
    const moved = await em.clock.advance('90m');
    expect(moved.now).toBe('2026-10-05T10:30:00.000Z');
    expect(await em.clock.now()).toBe(moved.now);
    const overHttp = await (await fetch(`${url}/_emulator/clock`)).json();
    expect(overHttp).toEqual(await em.clock.state());
    await em.clock.advance(3600); // seconds, as over HTTP
    expect(await em.clock.now()).toBe('2026-10-05T11:30:00.000Z');
    await em.clock.set('2026-10-06T09:00:00Z');
    expect(await em.clock.now()).toBe('2026-10-06T09:00:00.000Z');
    await expect(em.clock.set(START)).rejects.toMatchObject({ code: 'clock_backwards' });
    await expect(em.clock.advance('soon')).rejects.toBeInstanceOf(ApiError);
    await expect(em.clock.set('not a date')).rejects.toMatchObject({ code: 'parameter_invalid' });
  });

  it('reads the invitation from the outbox after POST /v1/onboardings with send_invitation', async () => {
    const { em, url } = await startEmulator();
    const res = await api(url, OWNER).post('/v1/onboardings', onboardingBody({ send_invitation: true }));
    expect(res.status).toBe(201);
    const created = (await res.json()) as CreatedOnboarding;
    const mails = await em.outbox({ onboarding_id: created.id });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: 'invitation', to: 'lotte@example.test', onboarding_id: created.id });
    expect(mails[0]!.code).toMatch(/^\d{6}$/);
    expect(mails[0]!.link).toMatch(/\/hosted\/\S+$/);
    expect(await em.outbox({ to: 'LOTTE@example.test' })).toEqual(mails);
    expect(await em.outbox({ to: 'someone@example.test' })).toEqual([]);
    const overHttp = (await (await fetch(`${url}/_emulator/outbox?onboarding_id=${created.id}`)).json()) as { data: unknown[] };
    expect(overHttp.data).toEqual(mails);
  });

  it('creates a second workspace with its own keys, clock and data, and a handle bound to it', async () => {
    const { em, url } = await startEmulator();
    expect((await em.keys()).map((k) => k.key)).toContain(OWNER);
    const ws = await em.workspace.create();
    expect(ws.id).toMatch(/^ws_/);
    expect(ws.clock.now).toBe(START);
    const key = ws.keys.find((k) => k.key.startsWith(`${OWNER}_`))!.key;
    expect(await ws.handle.keys()).toEqual(ws.keys);
    expect(ws.handle.workspaceId).toBe(ws.id);

    const res = await api(url, key).post('/v1/onboardings', onboardingBody({ send_invitation: true }));
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as CreatedOnboarding;
    expect(await ws.handle.outbox()).toHaveLength(1);
    expect(await em.outbox()).toEqual([]); // the default workspace saw nothing
    expect((await api(url, OWNER).get(`/v1/onboardings/${id}`)).status).toBe(404);
    expect((await api(url, key).get(`/v1/onboardings/${id}`)).status).toBe(200);

    await ws.handle.clock.advance('1d');
    expect(await ws.handle.clock.now()).toBe('2026-10-06T09:00:00.000Z');
    expect(await em.clock.now()).toBe(START);
    expect(await em.workspace.get(ws.id).clock.now()).toBe('2026-10-06T09:00:00.000Z');

    const reset = await ws.handle.workspace.reset();
    expect(reset).toMatchObject({ id: ws.id, reset: true, clock: { now: START } });
    expect(await ws.handle.outbox()).toEqual([]);
    expect(() => em.workspace.get('ws_missing')).toThrow(ApiError);
    await expect(em.workspace.create({ fixtures: { nonsense: true } })).rejects.toMatchObject({ code: 'fixtures_invalid' });
  });

  it('adds a fault that the next matching request gets, lists and clears faults', async () => {
    const { em, url } = await startEmulator();
    const fault = await em.faults.add({ kind: 'error', method: 'GET', path: '/v1/organization' });
    expect(fault).toMatchObject({ object: 'fault', kind: 'error', remaining: 1 });
    expect(await em.faults.list()).toEqual([fault]);
    const failed = await api(url, OWNER).get('/v1/organization');
    expect(failed.status).toBe(500);
    expect(((await failed.json()) as { error: { code: string } }).error.code).toBe('internal_error');
    expect((await api(url, OWNER).get('/v1/organization')).status).toBe(200);
    expect(await em.faults.list()).toEqual([]);

    await em.faults.add({ kind: 'rate_limit', count: 2, retry_after_seconds: 7 });
    const limited = await api(url, OWNER).get('/v1/onboardings');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    const overHttp = (await (await fetch(`${url}/_emulator/faults`)).json()) as { data: unknown[] };
    expect(overHttp.data).toEqual(await em.faults.list());
    expect(await em.faults.clear()).toEqual({ deleted: 1 });
    expect((await api(url, OWNER).get('/v1/onboardings')).status).toBe(200);

    // The same refusals as POST /_emulator/faults.
    await expect(em.faults.add({ kind: 'latency' })).rejects.toMatchObject({ code: 'parameter_missing', param: 'latency_ms' });
    await expect(em.faults.add({ kind: 'error', count: 0 })).rejects.toBeInstanceOf(ApiError);
    const ws = await em.workspace.create();
    await ws.handle.faults.add({ kind: 'error' });
    expect(await em.faults.list()).toEqual([]); // faults belong to one workspace
    expect(await ws.handle.faults.list()).toHaveLength(1);
  });
});

describe('the package by its name', () => {
  it('resolves to the built entry point with the API, and its resource types describe the answers', async () => {
    const pkg = await import('onboarding-emulator');
    expect(Object.keys(pkg)).toEqual(expect.arrayContaining(['createEmulator', 'createApp', 'verifySignature', 'ApiError', 'Emulator', 'StateFileError', 'readScenarioFile']));
    const { url } = await startEmulator();
    const owner = api(url, OWNER);
    // Each answer typed with the exported type; the fields read are the type's, so a renamed field fails the typecheck.
    const employee: Employee = ((await (await owner.get('/v1/employees?limit=1')).json()) as { data: Employee[] }).data[0]!;
    expect(employee.id).toMatch(/^emp_/);
    const hook: WebhookEndpoint = (await (await owner.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook' })).json()) as WebhookEndpoint;
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.recent_deliveries).toEqual([]);
    // An onboarding brought to review by the sandbox: it waits for approvals and can be reviewed.
    const created = (await (await owner.post('/v1/onboardings', onboardingBody())).json()) as CreatedOnboarding;
    for (const step of ['employee_opened', 'employee_submitted']) {
      expect(((await (await owner.post(`/v1/sandbox/onboardings/${created.id}/advance`, {})).json()) as { step: string }).step).toBe(step);
    }
    const approvals = (await (await api(url, 'hrs_test_acme_manager').get('/v1/approvals')).json()) as { data: OpenApproval[] };
    const open = approvals.data.find((a) => a.onboarding_id === created.id);
    expect(open).toMatchObject({ data_version: 2, can_approve_as: ['manager'] });
    expect(open!.blocked_by).toEqual(['identity_check']);
    const res = await api(url, 'hrs_test_acme_manager').post(`/v1/onboardings/${created.id}/review-sessions`, {
      reviewer: { email: 'mark.manager@acme.test', external_id: 'user-42', name: 'Mark Manager' },
    });
    expect(res.status).toBe(201);
    const session: ReviewSession = (await res.json()) as ReviewSession;
    expect(session.review_url).toBe(`${url}/review/${session.review_url.split('/review/')[1]}`);
    expect(session.reviewer.linked).toBe(false);
  });
});

describe('the README example', () => {
  it('is the file test/e2e/in-process.readme.test.ts runs, word for word', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## In-process use from a Node test suite'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const test = readFileSync(new URL('./in-process.readme.test.ts', import.meta.url), 'utf8');
    expect(test.split('\n').slice(1).join('\n')).toBe(block);
  });
});

describe('the TypeScript of docs/rehearsing-failures.md', () => {
  it('is the file test/e2e/in-process.rehearsing.test.ts runs, its blocks joined in order, word for word', () => {
    const page = readFileSync(new URL('../../docs/rehearsing-failures.md', import.meta.url), 'utf8');
    const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const test = readFileSync(new URL('./in-process.rehearsing.test.ts', import.meta.url), 'utf8');
    expect(blocks.length).toBeGreaterThan(2);
    expect(test.split('\n').slice(1).join('\n')).toBe(blocks.join(''));
  });
});
