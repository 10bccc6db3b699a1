// The README's in-process example, verbatim (test/e2e/in-process.test.ts checks): the package imported by its name, as a partner would.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmulator, type CreatedOnboarding } from 'onboarding-emulator';

const em = createEmulator({ seed: 1, clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
let url: string;
beforeAll(async () => {
  ({ url } = await em.start(0)); // 127.0.0.1, a free port
});
afterAll(() => em.close());

const call = (key: string, path: string, body?: unknown) =>
  fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

it('invites, moves the clock, isolates a workspace and injects a fault', async () => {
  const res = await call('hrs_test_acme_owner', '/v1/onboardings', {
    employee: { first_name: 'Lotte', last_name: 'de Boer', email: 'lotte@example.test' },
    employment: { position: 'Cashier', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam',
      template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1400 },
    options: { send_invitation: true },
  });
  const onboarding = (await res.json()) as CreatedOnboarding;
  const [mail] = await em.outbox({ onboarding_id: onboarding.id }); // link and one-time code
  expect(mail?.kind).toBe('invitation');

  await em.clock.advance('90m'); // or seconds, or 'PT90M'; due timers fire on the way
  expect(await em.clock.now()).toBe('2026-10-05T10:30:00.000Z');

  const ws = await em.workspace.create(); // { id, keys, clock, handle }
  const key = ws.keys.find((k) => k.key.startsWith('hrs_test_acme_owner_'))!.key;
  expect((await call(key, '/v1/organization')).status).toBe(200);
  await ws.handle.clock.advance('1d'); // the default workspace's clock stays put

  await em.faults.add({ kind: 'error', method: 'GET', path: '/v1/organization' });
  expect((await call('hrs_test_acme_owner', '/v1/organization')).status).toBe(500); // once
  await em.faults.clear();
  await em.workspace.reset(); // back to the fixtures, clock and random sequence
});
