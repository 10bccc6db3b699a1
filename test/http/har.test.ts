import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EMULATOR_VERSION } from '../../src/core/product.js';
import { createBody, FROZEN_START, harness, KEYS } from '../support/harness.js';
import { harProblems, header, type HarDoc } from '../support/har.js';
import { closedPort } from '../support/net.js';
import { useReceivers } from '../support/receiver.js';
import { advanceClock, register, settle } from '../support/webhooks.js';

/**
 * The HAR exports over HTTP, from real traffic: an onboarding created, refusals, a webhook
 * delivered to a receiver on 127.0.0.1 and attempts to an address where nothing listens; each
 * document checked against the HAR 1.2 schema (har-schema) and against what really happened.
 */
const receivers = useReceivers();

async function traffic() {
  const h = harness();
  const receiver = await receivers.start();
  const good = await register(h, { url: receiver.url('/hook') });
  const dead = await register(h, { url: `http://127.0.0.1:${await closedPort()}/hook` });
  const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'har-1');
  expect(created.status).toBe(201);
  await advanceClock(h, 90_000);
  expect((await h.as(KEYS.owner).get(`/v1/onboardings/${created.body.id}?expand=none`)).status).toBeGreaterThanOrEqual(200);
  expect((await h.as(KEYS.owner).post('/v1/onboardings', {})).status).toBe(422);
  expect((await h.as('hrs_test_unknown_key_123').get('/v1/onboardings')).status).toBe(401);
  expect((await h.as(KEYS.owner).get('/v1/onboardings/onb_missing')).status).toBe(404);
  await settle(h);
  return { h, receiver, good, dead, created: created.body as { id: string } };
}

describe('GET /_emulator/requests?format=har', () => {
  it('is a valid HAR 1.2 of the journal, oldest first, on the workspace clock, with the key masked and each answer', async () => {
    const { h, created } = await traffic();
    const res = await h.http().get('/_emulator/requests?format=har');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const doc = res.body as HarDoc;
    expect(harProblems(doc)).toEqual([]);
    expect(doc.log.creator).toEqual({ name: 'onboarding-emulator', version: EMULATOR_VERSION });
    // The unknown key reached no workspace: it is not in this journal.
    const lines = doc.log.entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status}`);
    expect(lines).toEqual(['POST /v1/webhooks 201', 'POST /v1/webhooks 201', 'POST /v1/onboardings 201', `GET /v1/onboardings/${created.id} 200`, 'POST /v1/onboardings 422', 'GET /v1/onboardings/onb_missing 404']);

    const [, , create, read, refused, missing] = doc.log.entries;
    // The frozen clock, then 90 s later after it was advanced: the workspace's time, not the wall clock.
    expect(create!.startedDateTime).toBe(FROZEN_START);
    expect(read!.startedDateTime).toBe(new Date(Date.parse(FROZEN_START) + 90_000).toISOString());
    expect(read!.request.queryString).toEqual([{ name: 'expand', value: 'none' }]);
    expect(read!.request.url).toMatch(/\?expand=none$/);
    expect(header(create!.request.headers, 'Authorization')).toBe('Bearer hrs_test_…_owner');
    expect(JSON.stringify(doc)).not.toContain(KEYS.owner);
    expect(header(create!.request.headers, 'Idempotency-Key')).toBe('har-1');
    expect(JSON.parse(create!.request.postData!.text)).toEqual(createBody());
    expect(create!.response.content.mimeType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(create!.response.content.text!)).toMatchObject({ id: created.id, object: 'onboarding' });
    expect(refused!._error_code).toBe('parameter_missing');
    expect(JSON.parse(refused!.response.content.text!)).toMatchObject({ error: { code: 'parameter_missing' } });
    expect(missing!.request.postData).toBeUndefined();
    expect(missing!._error_code).toBe('resource_not_found');
  });

  it('takes the list\'s filters, and a limit keeps the newest', async () => {
    const { h } = await traffic();
    const errors = (await h.http().get('/_emulator/requests?format=har&status=422')).body as HarDoc;
    expect(errors.log.entries.map((e) => e.response.status)).toEqual([422]);
    const newest = (await h.http().get('/_emulator/requests?format=har&limit=2')).body as HarDoc;
    expect(newest.log.entries.map((e) => e.response.status)).toEqual([422, 404]);
    // The request that named no workspace, emulator-wide: valid too, with no answer text kept.
    const unmatched = (await h.http().get('/_emulator/requests?format=har&unmatched=true')).body as HarDoc;
    expect(harProblems(unmatched)).toEqual([]);
    expect(unmatched.log.entries.map((e) => e.response.status)).toEqual([401]);
    expect(JSON.stringify(unmatched)).not.toContain('hrs_test_unknown_key_123');
    expect((await h.http().get('/_emulator/requests?format=xml')).status).toBe(422);
  });
});

describe('GET /_emulator/deliveries?format=har', () => {
  it('is a valid HAR 1.2 of every attempt: the signed POST as sent, the answer, and status 0 with _error for a failed connection', async () => {
    const { h, receiver, good, dead } = await traffic();
    const res = await h.http().get('/_emulator/deliveries?format=har');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const doc = res.body as HarDoc;
    expect(harProblems(doc)).toEqual([]);
    expect(doc.log.creator.name).toBe('onboarding-emulator');

    const delivered = doc.log.entries.filter((e) => e._endpoint_id === good.id);
    expect(delivered).toHaveLength(receiver.requests.length);
    expect(delivered.length).toBeGreaterThan(0);
    for (const [i, e] of delivered.entries()) {
      const got = receiver.requests[i]!;
      expect(e.request.method).toBe('POST');
      expect(e.request.url).toBe(receiver.url('/hook'));
      expect(e.request.postData!.text).toBe(got.body.toString('utf8'));
      expect(header(e.request.headers, 'Service-Signature')).toBe(got.headers['service-signature']);
      // The signature in the archive verifies over the archived body with the address's secret.
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)/.exec(header(e.request.headers, 'Service-Signature')!)!;
      expect(createHmac('sha256', good.secret).update(`${t}.${e.request.postData!.text}`).digest('hex')).toBe(v1);
      expect(e.response.status).toBe(200);
      expect(e.response._error).toBeUndefined();
      expect(e._attempt).toBe(1);
    }
    expect(delivered[0]!.startedDateTime).toBe(FROZEN_START);

    const failed = doc.log.entries.filter((e) => e._endpoint_id === dead.id);
    // The first attempt at once, its retry a minute later (the clock was moved on 90 s).
    expect(failed.map((e) => e._attempt)).toEqual([1, 2]);
    expect(failed.map((e) => e.startedDateTime)).toEqual([FROZEN_START, new Date(Date.parse(FROZEN_START) + 60_000).toISOString()]);
    for (const e of failed) {
      expect(e.response.status).toBe(0);
      expect(e.response._error).toMatch(/refused|ECONNREFUSED/i);
      expect(header(e.request.headers, 'Service-Signature')).toMatch(/^t=\d+,v1=/);
    }

    const one = (await h.http().get(`/_emulator/deliveries?format=har&endpoint_id=${dead.id}`)).body as HarDoc;
    expect(one.log.entries.map((e) => e._endpoint_id)).toEqual([dead.id, dead.id]);
    const list = await h.http().get('/_emulator/deliveries');
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.data[0].attempt_log[0]).not.toHaveProperty('headers');
  });
});

describe('GET /_emulator/deliveries?format=har after the address is gone', () => {
  it('keeps the URL each attempt was sent to when the address is deleted, and through a snapshot', async () => {
    const h = harness();
    const receiver = await receivers.start();
    const hook = await register(h, { url: receiver.url('/gone') });
    expect((await h.as(KEYS.owner).post('/v1/onboardings', createBody())).status).toBe(201);
    await settle(h);
    expect(receiver.requests.length).toBeGreaterThan(0);
    expect((await h.http().delete(`/v1/webhooks/${hook.id}`).set('Authorization', `Bearer ${KEYS.owner}`)).status).toBe(200);
    expect((await h.as(KEYS.owner).get(`/v1/webhooks/${hook.id}`)).status).toBe(404);

    const har = async () => ((await h.http().get('/_emulator/deliveries?format=har')).body as HarDoc).log.entries.filter((e) => e._endpoint_id === hook.id);
    const entries = await har();
    expect(entries).toHaveLength(receiver.requests.length);
    expect(entries.map((e) => e.request.url)).toEqual(entries.map(() => receiver.url('/gone')));
    expect(harProblems((await h.http().get('/_emulator/deliveries?format=har')).body as HarDoc)).toEqual([]);
    const list = await h.http().get(`/_emulator/deliveries?endpoint_id=${hook.id}`);
    expect(list.body.data[0].attempt_log[0]).toMatchObject({ url: receiver.url('/gone') });

    // A snapshot keeps it too: the state file and a restore name the same URL.
    const snapshot = await h.http().get('/_emulator/snapshot');
    expect((await h.http().put('/_emulator/snapshot').send(snapshot.body)).status).toBe(200);
    expect((await har()).map((e) => e.request.url)).toEqual(entries.map(() => receiver.url('/gone')));
  });
});

describe('what a snapshot keeps of the exports', () => {
  it('neither the answers\' texts nor the headers an attempt sent: a restored workspace still exports valid HAR, without them', async () => {
    const { h } = await traffic();
    const snapshot = await h.http().get('/_emulator/snapshot');
    expect(snapshot.status).toBe(200);
    // The signature's time is the wall clock's: kept out, so equal workspaces give equal snapshots.
    expect(JSON.stringify(snapshot.body)).not.toContain('Service-Signature');
    expect((await h.http().put('/_emulator/snapshot').send(snapshot.body)).status).toBe(200);

    const requests = (await h.http().get('/_emulator/requests?format=har')).body as HarDoc;
    expect(harProblems(requests)).toEqual([]);
    expect(requests.log.entries.length).toBe(6);
    expect(requests.log.entries.every((e) => e.response.content.text === undefined && e.response.content.size === -1)).toBe(true);
    const attempts = (await h.http().get('/_emulator/deliveries?format=har')).body as HarDoc;
    expect(harProblems(attempts)).toEqual([]);
    expect(attempts.log.entries.length).toBeGreaterThan(0);
    expect(attempts.log.entries.every((e) => e.request.headers.length === 0 && e.request.postData!.text.length > 0)).toBe(true);
  });
});
