import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { verifySignature } from 'onboarding-emulator';
import { OnboardingEmulatorContainer } from 'onboarding-emulator/testcontainers';

// The emulator's image (ONBOARDING_EMULATOR_IMAGE, else this package version's), started once for the file.
let emulator;
beforeAll(async () => {
  emulator = await new OnboardingEmulatorContainer().withSeed('tc').start();
}, 120_000);
afterAll(() => emulator?.stop());

test('well-known keys and the default workspace', async () => {
  expect(emulator.keys.owner).toBe('hrs_test_acme_owner');
  const res = await fetch(`${emulator.baseUrl}/v1/onboardings/onb_demo_jansen`, { headers: { Authorization: `Bearer ${emulator.keys.owner}` } });
  expect(res.status).toBe(200);
  expect((await emulator.control.keys()).map((k) => k.key)).toContain('hrs_test_acme_owner');
});

test('a workspace per test: its own keys and clock, removed afterwards', async () => {
  const ws = await emulator.workspace({ clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
  const headers = { Authorization: `Bearer ${ws.key('owner')}` };
  expect(ws.key('owner')).not.toBe('hrs_test_acme_owner');
  expect((await fetch(`${emulator.baseUrl}/v1/onboardings/onb_demo_jansen`, { headers })).status).toBe(200);
  await ws.control.clock.advance('90m');
  expect(await ws.control.clock.now()).toBe('2026-10-05T10:30:00.000Z');
  await ws.delete();
  expect((await fetch(`${emulator.baseUrl}/v1/onboardings/onb_demo_jansen`, { headers })).status).toBe(401);
});

test('webhooks reach a receiver in this process through the relay', async () => {
  const received = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver = `http://127.0.0.1:${server.address().port}`;
  const ws = await emulator.workspace();
  const relay = await ws.relay({ urlPrefix: `${receiver}/` });
  try {
    const headers = { Authorization: `Bearer ${ws.key('owner')}`, 'Content-Type': 'application/json' };
    const hook = await (await fetch(`${emulator.baseUrl}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: `${receiver}/webhooks` }) })).json();
    expect((await fetch(`${emulator.baseUrl}/v1/webhooks/${hook.id}/test`, { method: 'POST', headers, body: '{}' })).status).toBe(200);
    for (let i = 0; i < 200 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(received).toHaveLength(1);
    expect(received[0].path).toBe('/webhooks');
    expect(verifySignature(received[0].body, received[0].headers['service-signature'], hook.secret)).toBe(true);
  } finally {
    await relay.close();
    await ws.delete();
    server.close();
  }
});
