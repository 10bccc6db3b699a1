import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createBody, harness, KEYS, type Harness } from '../support/harness.js';

/**
 * Mails a scenario step sends (the contract mail) have no request to take a base URL from:
 * they use --public-url, else the base of the onboarding's earlier mail, else the default.
 */
const HAPPY = fileURLToPath(new URL('../../scenarios/happy-path.yaml', import.meta.url));

async function contractMailAfterJourney(h: Harness, invite: boolean, host?: string) {
  const req = h.as(KEYS.owner).post('/v1/onboardings', createBody({ options: { send_invitation: invite } }));
  const created = await (host ? req.set('Host', host) : req);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const advanced = await h.http().post('/_emulator/clock/advance').send({ by: '1d' });
  expect(advanced.status).toBe(200);
  const outbox = await h.http().get('/_emulator/outbox');
  const mails = (outbox.body.data as { onboarding_id: string; kind: string; link: string | null }[]).filter((m) => m.onboarding_id === created.body.id);
  const contract = mails.find((m) => m.kind === 'contract');
  expect(contract, JSON.stringify(mails)).toBeDefined();
  return { created: created.body as { id: string; hosted_url: string }, contract: contract!, token: created.body.hosted_url.split('/hosted/')[1] as string };
}

describe('links in mails sent by scenario steps', () => {
  it('use the public URL of the emulator, path prefix included, like the answers do', async () => {
    const h = harness({ scenario: HAPPY, publicUrl: 'https://onboarding.proxy.test/emulator/' });
    const { created, contract, token } = await contractMailAfterJourney(h, false);
    expect(created.hosted_url).toBe(`https://onboarding.proxy.test/emulator/hosted/${token}`);
    expect(contract.link).toBe(`https://onboarding.proxy.test/emulator/hosted/${token}`);
  });

  it('without a public URL, take the base of the invitation of the onboarding (the Host it was made with)', async () => {
    const h = harness({ scenario: HAPPY }, { allowedHosts: 'emulator.internal' });
    const { created, contract, token } = await contractMailAfterJourney(h, true, 'emulator.internal:4999');
    expect(created.hosted_url).toBe(`http://emulator.internal:4999/hosted/${token}`);
    expect(contract.link).toBe(`http://emulator.internal:4999/hosted/${token}`);
  });

  it('with neither, use the default address', async () => {
    const h = harness({ scenario: HAPPY }, { allowedHosts: 'emulator.internal' });
    const { contract, token } = await contractMailAfterJourney(h, false, 'emulator.internal:4999');
    expect(contract.link).toBe(`http://127.0.0.1:4010/hosted/${token}`);
  });

  it('an app option still wins over the public URL of the emulator', async () => {
    const h = harness({ publicUrl: 'https://from-emulator.test' }, { publicUrl: 'https://from-app.test' });
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect(res.body.hosted_url).toMatch(/^https:\/\/from-app\.test\/hosted\//);
  });
});
