import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { harness, KEYS, type Harness } from '../support/harness.js';
import { answer, useReceivers } from '../support/receiver.js';
import { createOnboarding } from '../support/sandbox-steps.js';
import { EXPECTING } from '../support/report-scenarios.js';

/** A scenario's expect: entries, reported by GET /_emulator/scenario/report as the workspace clock moves. */

const happy = EXPECTING;

interface Result { name: string; kind: string; status: string; reason: string; details: { subject: string; status: string; due_at: string | null; seen_at: string | null; reason: string }[] }
interface Report { scenario: string | null; now: string; passed: number; failed: number; pending: number; expectations: Result[] }

async function report(h: Harness): Promise<Report> {
  const res = await h.http().get('/_emulator/scenario/report');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Report;
}
const byName = (r: Report, name: string) => r.expectations.find((e) => e.name === name)!;
const advance = (h: Harness, by: string) => h.http().post('/_emulator/clock/advance').send({ by }).expect(200);
const keyed = (h: Harness, key: string) => h.as(KEYS.owner).post('/v1/onboardings', {
  reference: 'keyed', employee: { first_name: 'Sam', last_name: 'Smit', email: 'sam@example.test' },
  employment: { position: 'Clerk', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 20, hourly_wage_cents: 1500 },
}).set('Idempotency-Key', key);

const receivers = useReceivers();

describe('GET /_emulator/scenario/report', () => {
  it('after: finds each event\'s request by the onboarding its path names, exactly or as a prefix, within the deadline', async () => {
    const h = harness();
    const read = (name: string, path: string) => ({ name, after: { event: 'onboarding.created', request: { method: 'GET', path }, within: '1h' } });
    await h.http().put('/_emulator/scenario').send({
      name: 'reads', rules: [],
      expect: [read('prefix', '/v1/onboardings/{onboarding_id}*'), read('prefix, named again', '/v1/onboardings/{onboarding_id}*'), read('exact', '/v1/onboardings/{onboarding_id}'), read('documents', '/v1/onboardings/{onboarding_id}/documents')],
    }).expect(200);
    const a = ((await keyed(h, 'a')).body as { id: string }).id;
    const b = ((await keyed(h, 'b')).body as { id: string }).id;
    const c = ((await keyed(h, 'c')).body as { id: string }).id;
    await advance(h, '10m');
    expect((await h.as(KEYS.owner).get(`/v1/onboardings/${a}/documents`)).status).toBe(200);
    await advance(h, '10m');
    expect((await h.as(KEYS.owner).get(`/v1/onboardings/${b}`)).status).toBe(200);
    await advance(h, '2h');
    // Past c's deadline: a read of c now is too late.
    expect((await h.as(KEYS.owner).get(`/v1/onboardings/${c}`)).status).toBe(200);
    const r = await report(h);
    const statuses = (name: string) => Object.fromEntries(byName(r, name).details.map((d) => [d.subject, d.status]));
    const [ea, eb, ec] = byName(r, 'exact').details.map((d) => d.subject);
    expect(statuses('prefix')).toEqual({ [ea!]: 'passed', [eb!]: 'passed', [ec!]: 'failed' });
    expect(byName(r, 'prefix, named again')).toMatchObject({ status: 'failed', details: byName(r, 'prefix').details });
    expect(statuses('exact')).toEqual({ [ea!]: 'failed', [eb!]: 'passed', [ec!]: 'failed' });
    expect(statuses('documents')).toEqual({ [ea!]: 'passed', [eb!]: 'failed', [ec!]: 'failed' });
    expect(byName(r, 'prefix').details[0]!.reason).toMatch(new RegExp(`^jrn_\\d+ GET /v1/onboardings/${a}/documents at 2026-10-05T09:10:00.000Z, 10m after the event$`));
    expect(byName(r, 'exact').details[2]!.reason).toBe(`no GET /v1/onboardings/${c} between 2026-10-05T09:00:00.000Z and 2026-10-05T10:00:00.000Z`);
  });

  it('is pending before the deadlines, then passed or failed with the reasons', async () => {
    const h = harness();
    await h.http().put('/_emulator/scenario').send(happy).expect(200);
    const empty = await report(h);
    expect(empty).toMatchObject({ scenario: 'expecting', now: '2026-10-05T09:00:00.000Z', passed: 1, failed: 0, pending: 3 });
    expect(byName(empty, 'completed within a day').reason).toBe('no matching test onboarding was created since the scenario was loaded');
    expect(byName(empty, 'no keyless create')).toMatchObject({ status: 'passed', kind: 'never' });

    const created = await keyed(h, 'create-1');
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const early = await report(h);
    expect(byName(early, 'completed within a day')).toMatchObject({ status: 'pending', kind: 'onboarding' });
    expect(byName(early, 'completed within a day').details).toEqual([
      { subject: id, status: 'pending', due_at: '2026-10-06T09:00:00.000Z', seen_at: null, reason: 'pending_employee, due completed by 2026-10-06T09:00:00.000Z (1d left)' },
    ]);
    expect(byName(early, 'read after completion').reason).toBe('no onboarding.completed event since the scenario was loaded');

    await advance(h, '2h');
    const late = await report(h);
    const hour = byName(late, 'completed within an hour');
    expect(hour.status).toBe('failed');
    expect(hour.reason).toContain(`${id}: not completed by 2026-10-05T10:00:00.000Z; it is in_review`);
    expect(byName(late, 'completed within a day').status).toBe('pending');

    // The journey takes 1h + 30m + 15m + 1h × roles + 10m + 2h + 1h + 5m: done well within the day.
    await advance(h, '10h');
    const done = await report(h);
    const day = byName(done, 'completed within a day');
    expect(day.status).toBe('passed');
    expect(day.details[0]!.reason).toMatch(/^reached completed at 2026-10-05T\d\d:\d\d:00.000Z, \d+h( \d+m)? after its creation$/);
    expect(byName(done, 'completed within an hour').details[0]!.reason).toMatch(/^reached completed at .*, \d+h( \d+m)? after the deadline 2026-10-05T10:00:00.000Z$/);
    // After completion the integration has 10 minutes to read the onboarding: nothing read yet.
    const waiting = byName(done, 'read after completion');
    expect(waiting.status).toBe('failed');
    expect(waiting.reason).toMatch(new RegExp(`no GET /v1/onboardings/${id} between `));
    expect(done).toMatchObject({ passed: 2, failed: 2, pending: 0 });
  });

  it('after: a request made within the window passes, pending while it is open; an event with none fails once it closes', async () => {
    const h = harness();
    await h.http().put('/_emulator/scenario').send(happy).expect(200);
    const id = (await keyed(h, 'create-2')).body.id as string;
    const completedEvent = () => h.emulator.defaultWorkspace.store.events.values().find((e) => e.data.onboarding_id === id && e.type === 'onboarding.completed');
    // Step the clock until the onboarding completes, then read it within the window.
    for (let i = 0; i < 200 && !completedEvent(); i++) await advance(h, '5m');
    const event = completedEvent()!;
    const item = async () => byName(await report(h), 'read after completion').details.find((d) => d.subject === event.id)!;
    expect(await item()).toMatchObject({ status: 'pending', seen_at: null, due_at: new Date(Date.parse(event.created_at) + 600_000).toISOString() });
    expect((await item()).reason).toMatch(new RegExp(`^waiting for GET /v1/onboardings/${id} until .* \\(\\d+m( \\d+s)? left\\)$`));
    await h.as(KEYS.owner).get(`/v1/onboardings/${id}`).expect(200);
    const read = await item();
    expect(read.status).toBe('passed');
    expect(read.reason).toMatch(new RegExp(`^jrn_\\d+ GET /v1/onboardings/${id} at .*, \\d+[dhms].* after the event$`));
    // The fixtures' onboardings completed too, and nobody read them: failed once their windows closed.
    await advance(h, '1h');
    const after = byName(await report(h), 'read after completion');
    expect(after.status).toBe('failed');
    expect(after.details.find((d) => d.subject === event.id)!.status).toBe('passed');
    expect(after.details.filter((d) => d.status === 'failed').map((d) => d.reason)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^no GET \/v1\/onboardings\/onb_demo_\w+ between .* and .*$/)]),
    );
  });

  it('never: a POST without an Idempotency-Key is caught with the request and when', async () => {
    const h = harness();
    await h.http().put('/_emulator/scenario').send(happy).expect(200);
    await keyed(h, 'fine').expect(201);
    expect(byName(await report(h), 'no keyless create').status).toBe('passed');
    await createOnboarding(h);
    const never = byName(await report(h), 'no keyless create');
    expect(never.status).toBe('failed');
    expect(never.reason).toMatch(/^1 of 1 request\(s\) failed: jrn_\d+: POST \/v1\/onboardings at 2026-10-05T09:00:00.000Z answered 201 \(no Idempotency-Key\)$/);
  });

  it('answers JUnit XML with format=junit: a test case per expectation, failures and skipped ones counted', async () => {
    const h = harness();
    await h.http().put('/_emulator/scenario').send(happy).expect(200);
    await keyed(h, 'create-3').expect(201);
    await createOnboarding(h);
    await advance(h, '2h');
    const res = await h.http().get('/_emulator/scenario/report?format=junit');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(res.text);
    const suite = doc.testsuites.testsuite;
    expect(suite).toMatchObject({ name: 'expecting', tests: '4', failures: '2', skipped: '2' });
    const cases = suite.testcase as { name: string; failure?: { message: string }; skipped?: { message: string } }[];
    expect(cases.map((c) => c.name)).toEqual(happy.expect!.map((e) => e.name));
    expect(cases.filter((c) => c.failure).map((c) => c.name)).toEqual(['completed within an hour', 'no keyless create']);
    expect(cases.find((c) => c.name === 'completed within a day')!.skipped!.message).toMatch(/due completed by/);
  });

  it('refuses expectations with mistakes, each with its path', async () => {
    const h = harness();
    const res = await h.http().put('/_emulator/scenario').send({
      rules: [],
      expect: [
        { onboarding: { reaches: 'done', within: '1d' } },
        { delivered: { event: 'onboarding.completed', within: 'soon' } },
        { never: { method: 'FETCH' } },
        { after: { event: 'onboarding.completed', request: { path: '/v1/onboardings/{id}' }, within: '5m' } },
        { never: { path: '/v1/onboardings/{onboarding_id}' } },
        { name: 'two', never: { method: 'GET' }, delivered: { event: 'onboarding.completed', within: '1h' } },
        { name: 'none' },
      ],
    });
    expect(res.status).toBe(422);
    const paths = (res.body.error.details as { path: string; message: string }[]).map((d) => `${d.path}: ${d.message}`);
    expect(paths).toEqual(expect.arrayContaining([
      expect.stringMatching(/^expect\[0\]\.onboarding\.reaches: /),
      'expect[1].delivered.within: "soon" is not a delay',
      expect.stringMatching(/^expect\[2\]\.never\.method: /),
      'expect[3].after.request.path: {id} is not a placeholder',
      'expect[4].never.path: {onboarding_id} names the onboarding of an event, and never has none',
      'expect[5]: has delivered and never; an expectation is one of them',
      'expect[6]: says nothing to expect',
    ]));
  });

  it('delivered: an event whose message was taken in time passes; one the receiver keeps refusing fails once the delay is over', async () => {
    const h = harness();
    const good = await receivers.start(answer(204));
    const bad = await receivers.start(answer(500, 'down'));
    // Loaded a minute in: the fixtures' events, made at the start, are not the scenario's.
    await advance(h, '1m');
    await h.http().put('/_emulator/scenario').send({
      name: 'deliveries', rules: [],
      expect: [{ name: 'created is delivered', delivered: { event: 'onboarding.created', within: '10m' } }],
    }).expect(200);
    const hook = await h.as(KEYS.owner).post('/v1/webhooks', { url: good.url(), events: ['onboarding.created'] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    await keyed(h, 'delivered-1').expect(201);
    await h.emulator.defaultWorkspace.scheduler.advanceBy(0);
    const first = byName(await report(h), 'created is delivered');
    expect(first.status, first.reason).toBe('passed');
    expect(first.details[0]!.reason).toBe('delivered at 2026-10-05T09:01:00.000Z, 0s after the event');

    await h.http().delete(`/v1/webhooks/${hook.body.id}`).set('Authorization', `Bearer ${KEYS.owner}`).expect(200);
    await h.as(KEYS.owner).post('/v1/webhooks', { url: bad.url(), events: ['onboarding.created'] }).expect(201);
    await keyed(h, 'delivered-2').expect(201);
    await h.emulator.defaultWorkspace.scheduler.advanceBy(0);
    const waiting = byName(await report(h), 'created is delivered');
    expect(waiting.status).toBe('pending');
    expect(waiting.reason).toMatch(/^1 of 2 event\(s\) pending: evt_\w+: due by 2026-10-05T09:11:00.000Z \(10m left\): whd_\w+ failed after 1 attempt\(s\), last answer 500$/);
    await advance(h, '11m');
    const late = byName(await report(h), 'created is delivered');
    expect(late.status).toBe('failed');
    expect(late.reason).toMatch(/^1 of 2 event\(s\) failed: evt_\w+: not delivered by 2026-10-05T09:11:00.000Z: whd_\w+ failed after 3 attempt\(s\), last answer 500$/);
  });

  it("counts from the loading, not the fixtures' onboardings already there; a reset counts as loading it again", async () => {
    const h = harness();
    await h.http().put('/_emulator/scenario').send(happy).expect(200);
    await createOnboarding(h);
    await advance(h, '2h');
    expect(await report(h)).toMatchObject({ failed: 1 }); // the keyless create
    const all = byName(await report(h), 'no keyless create');
    expect(all.details).toHaveLength(1);
    await h.http().post('/_emulator/reset').send({}).expect(200);
    const fresh = await report(h);
    expect(fresh).toMatchObject({ now: '2026-10-05T09:00:00.000Z', passed: 1, failed: 0, pending: 3 });
    expect((await h.http().get('/_emulator/scenario')).body.loaded_at).toBe('2026-10-05T09:00:00.000Z');
  });

  it('an onboarding that ended in another status fails at once, before its deadline', async () => {
    const h = harness();
    await h.http().put('/_emulator/scenario').send(happy).expect(200);
    const id = (await keyed(h, 'cancelled-1')).body.id as string;
    const cancel = await h.as(KEYS.owner).post(`/v1/onboardings/${id}/cancel`, {});
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const day = byName(await report(h), 'completed within a day');
    expect(day).toMatchObject({ status: 'failed', reason: `1 of 1 onboarding(s) failed: ${id}: it is cancelled and can no longer reach completed` });
  });

  it('reports nothing without a scenario', async () => {
    const h = harness();
    expect(await report(h)).toEqual({ scenario: null, now: '2026-10-05T09:00:00.000Z', final: false, passed: 0, failed: 0, pending: 0, expectations: [] });
  });
});
