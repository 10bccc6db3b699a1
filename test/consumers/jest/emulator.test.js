const { createEmulator } = require('onboarding-emulator');

const em = createEmulator({ seed: 1, clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
const headers = { Authorization: 'Bearer hrs_test_acme_owner', 'Content-Type': 'application/json' };
let url;
beforeAll(async () => {
  ({ url } = await em.start(0)); // 127.0.0.1, a free port
});
afterAll(() => em.close());

test('lists onboardings, mails a new link and moves the clock', async () => {
  const list = await (await fetch(`${url}/v1/onboardings`, { headers })).json();
  expect(list.data.map((o) => o.id)).toContain('onb_demo_jansen');

  const link = await fetch(`${url}/v1/onboardings/onb_demo_jansen/hosted-link`, {
    method: 'POST', headers, body: JSON.stringify({ expires_in_hours: 24, send_invitation: true }),
  });
  expect(link.status).toBe(201);

  await em.clock.advance('90m');
  expect(await em.clock.now()).toBe('2026-10-05T10:30:00.000Z');

  const [mail] = await em.outbox({ onboarding_id: 'onb_demo_jansen' });
  expect(mail.kind).toBe('new_link');
  expect(mail.sent_at).toBe('2026-10-05T09:00:00.000Z');
});
