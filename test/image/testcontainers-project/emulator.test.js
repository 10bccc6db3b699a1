import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { verifySignature } from 'onboarding-emulator';
import { OnboardingEmulatorContainer } from 'onboarding-emulator/testcontainers';

// A local onboarding-emulator:<version> or :latest, else this version's registry image; ONBOARDING_EMULATOR_IMAGE names another.
let emulator;
beforeAll(async () => {
  emulator = await new OnboardingEmulatorContainer().withSeed('tc').start();
}, 120_000);
afterAll(() => emulator?.stop());

test('a workspace per test: its own keys and clock, removed afterwards', async () => {
  const ws = await emulator.workspace({ clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
  const headers = { Authorization: `Bearer ${ws.key('owner')}` };
  expect((await fetch(`${emulator.baseUrl}/v1/onboardings/onb_demo_jansen`, { headers })).status).toBe(200);
  await ws.control.clock.advance('90m');
  expect(await ws.control.clock.now()).toBe('2026-10-05T10:30:00.000Z');
  await ws.delete();
  expect((await fetch(`${emulator.baseUrl}/v1/onboardings/onb_demo_jansen`, { headers })).status).toBe(401);
});

test('webhooks reach a server of this test process through the relay', async () => {
  const received = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ body, signature: req.headers['service-signature'] });
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver = `http://127.0.0.1:${server.address().port}`;
  const ws = await emulator.workspace();
  // The container cannot reach this process; the relay takes the messages of these addresses.
  const relay = await ws.relay({ urlPrefix: `${receiver}/` });
  try {
    const headers = { Authorization: `Bearer ${ws.key('owner')}`, 'Content-Type': 'application/json' };
    const hook = await (await fetch(`${emulator.baseUrl}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: `${receiver}/webhooks` }) })).json();
    await fetch(`${emulator.baseUrl}/v1/webhooks/${hook.id}/test`, { method: 'POST', headers, body: '{}' });
    // No sleep: the emulator answers once the relay reported the receiver's 2xx.
    const met = await ws.waitFor({ for: 'delivery', address: hook.id, status: 'succeeded', timeout_ms: 10_000 });
    expect(met.data).toHaveLength(1);
    expect(received).toHaveLength(1);
    expect(verifySignature(received[0].body, received[0].signature, hook.secret)).toBe(true);
  } finally {
    await relay.close();
    await ws.delete();
    server.close();
  }
});
