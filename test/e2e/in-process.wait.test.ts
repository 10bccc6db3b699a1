import { afterEach, describe, expect, it } from 'vitest';
import { ApiError as HttpApiError, httpControl } from '../../src/client/http.js';
import { ApiError, createEmulator, type InProcessEmulator } from '../../src/index.js';

const started: InProcessEmulator[] = [];
afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});

const OWNER = { Authorization: 'Bearer hrs_test_acme_owner', 'Content-Type': 'application/json' };

describe('em.waitFor: the wait in process and through the HTTP client', () => {
  it('resolves when the condition holds, with the same answer as over HTTP', async () => {
    const em = createEmulator({ clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
    started.push(em);
    const { url } = await em.start(0);

    const pending = em.waitFor({ for: 'status', onboarding_id: 'onb_demo_jansen', status: 'cancelled', timeout_ms: 5_000 });
    expect((await fetch(`${url}/_emulator/onboardings/onb_demo_jansen/cancel`, { method: 'POST' })).status).toBe(200);
    const met = await pending;
    expect(met).toMatchObject({ object: 'wait', for: 'status', count: 1, clock: '2026-10-05T09:00:00.000Z' });
    expect(met.data).toEqual([expect.objectContaining({ id: 'onb_demo_jansen', status: 'cancelled' })]);

    // body_includes as the object itself in process; as JSON text over HTTP.
    const request = em.waitFor({ for: 'request', method: 'POST', body_includes: { reference: 'from-test' } });
    await fetch(`${url}/v1/onboardings`, {
      method: 'POST', headers: OWNER,
      body: JSON.stringify({ reference: 'from-test', employee: { first_name: 'A', last_name: 'B', email: 'a@example.test' }, employment: { position: 'Cashier', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1400 } }),
    });
    expect((await request).count).toBe(1);

    const remote = await httpControl({ url }).waitFor({ for: 'request', method: 'POST', body_includes: JSON.stringify({ reference: 'from-test' }), status: 201 });
    expect(remote.data).toEqual((await request).data);
    // The object form, as in process, is sent as its JSON text.
    const asObject = await httpControl({ url }).waitFor({ for: 'request', method: 'POST', body_includes: { reference: 'from-test' } });
    expect(asObject.data).toEqual((await request).data);
  });

  it('rejects with wait_timeout and the nearest candidates, in process and over HTTP alike', async () => {
    const em = createEmulator({ clock: { mode: 'frozen' } });
    started.push(em);
    const { url } = await em.start(0);
    const query = { for: 'event', type: 'onboarding.completed', onboarding_id: 'onb_demo_jansen', timeout_ms: 50 } as const;
    const local = await em.waitFor(query).then(() => null, (err: unknown) => err);
    expect(local).toBeInstanceOf(ApiError);
    expect(local).toMatchObject({ code: 'wait_timeout', status: 409, param: 'for' });
    expect((local as ApiError).details?.[0]?.message).toMatch(/^onboarding\.created for onb_demo_jansen .*; differs in type$/);

    const remote = await httpControl({ url }).waitFor(query).then(() => null, (err: unknown) => err);
    expect(remote).toBeInstanceOf(HttpApiError);
    expect(remote).toMatchObject({ status: 409, code: 'wait_timeout' });
    expect((remote as HttpApiError).details).toEqual((local as ApiError).details);

    // A mistake is refused before waiting, as over HTTP.
    await expect(em.waitFor({ for: 'settled', type: 'ping' })).rejects.toMatchObject({ code: 'parameter_unknown' });
  });
});
