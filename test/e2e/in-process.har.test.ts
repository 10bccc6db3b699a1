import { afterEach, describe, expect, it } from 'vitest';
import { httpControl } from '../../src/client/http.js';
import { createEmulator, type InProcessEmulator } from '../../src/index.js';
import { harProblems, header } from '../support/har.js';
import { closedPort } from '../support/net.js';
import { useReceivers } from '../support/receiver.js';

/** requests.har() and deliveries.har(): the same HAR documents in process and over the HTTP client, and valid HAR 1.2. */
const OWNER = 'hrs_test_acme_owner';
const started: InProcessEmulator[] = [];
const receivers = useReceivers();

afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});

async function withTraffic() {
  const em = createEmulator({ seed: 1, clock: { mode: 'frozen', start: '2026-10-05T09:00:00.000Z' } });
  started.push(em);
  const { url } = await em.start(0);
  const receiver = await receivers.start();
  const headers = { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' };
  const post = (path: string, body: unknown) => fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  expect((await post('/v1/webhooks', { url: receiver.url('/hook') })).status).toBe(201);
  expect((await post('/v1/webhooks', { url: `http://127.0.0.1:${await closedPort()}/down` })).status).toBe(201);
  const created = await post('/v1/onboardings', {
    employee: { first_name: 'Lotte', last_name: 'de Boer', email: 'lotte@example.test' },
    employment: { position: 'Cashier', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1450 },
  });
  expect(created.status).toBe(201);
  expect((await post('/v1/onboardings', { reference: 'x' })).status).toBe(422);
  await receiver.waitFor(1);
  return { em, url, receiver };
}

describe('the HAR exports through the control interface', () => {
  it('in process and over HTTP alike', async () => {
    const { em, url, receiver } = await withTraffic();
    const local = await em.requests.har();
    expect(harProblems(local)).toEqual([]);
    expect(local.log.entries.map((e) => e.response.status)).toEqual([201, 201, 201, 422]);
    expect(local.log.entries[0]!.request.url).toBe(`${url}/v1/webhooks`);
    expect(await httpControl({ url }).requests.har()).toEqual(local);
    expect((await em.requests.har({ status: 422 })).log.entries.map((e) => e._error_code)).toEqual(['parameter_missing']);
    // The list is still the list.
    expect((await em.requests.find({ limit: 1 })).data[0]!.status).toBe(422);

    const attempts = await em.deliveries.har();
    expect(harProblems(attempts)).toEqual([]);
    expect(await httpControl({ url }).deliveries.har()).toEqual(attempts);
    const ok = attempts.log.entries.filter((e) => e.request.url === receiver.url('/hook'));
    expect(ok.map((e) => e._event_type)).toEqual(receiver.requests.map((r) => r.headers['service-event-type']));
    expect(ok.map((e) => header(e.request.headers, 'Service-Signature'))).toEqual(receiver.requests.map((r) => r.headers['service-signature']));
    const down = attempts.log.entries.filter((e) => e.request.url.endsWith('/down'));
    expect(down.length).toBeGreaterThan(0);
    expect(down.every((e) => e.response.status === 0 && typeof e.response._error === 'string')).toBe(true);
    expect((await em.deliveries.list()).total).toBe(ok.length + down.length);
  });
});
