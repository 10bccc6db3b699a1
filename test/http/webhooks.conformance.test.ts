import { describe, expect, it } from 'vitest';
import { harness } from '../support/harness.js';
import { answer, expectConforming, useReceivers } from '../support/receiver.js';
import { message, ping, register, settle } from '../support/webhooks.js';

/**
 * The shared test receivers hold every webhook message they get to its webhook in /openapi.json
 * and fail the test at its end on a mismatch: a message the emulator sends passes, a wrong one
 * sent to the same receiver is caught and named.
 */
const receivers = useReceivers();

const send = (url: string, headers: Record<string, string>, body: string) => fetch(url, { method: 'POST', headers, body });

describe('the test receivers check every webhook message against /openapi.json', () => {
  it('take what the emulator sends, and catch a message whose body breaks its schema', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    const { id } = await register(h, { url: r.url() });
    await ping(h, id);
    await settle(h);
    const [sent] = await r.waitFor(1);
    expect(message(sent!).type).toBe('ping');
    expect(r.mismatches).toEqual([]);

    // The emulator's own message, its data changed to another type's: a ping carries only a message.
    const wrong = { ...message(sent!), data: { onboarding_id: 'onb_x' } };
    const headers = { 'Content-Type': 'application/json', 'User-Agent': 'Service-Webhooks/1', 'Service-Event-Id': wrong.id, 'Service-Event-Type': 'ping', 'Service-Signature': String(sent!.headers['service-signature']) };
    expect((await send(r.url(), headers, JSON.stringify(wrong))).status).toBe(200);
    // A header that does not match the body is caught too.
    expect((await send(r.url(), { ...headers, 'Service-Event-Type': 'onboarding.created' }, sent!.body.toString('utf8'))).status).toBe(200);
    expect(r.mismatches).toHaveLength(2);
    expect(r.mismatches[0]).toMatch(/^ping: \/data must have required property 'message'/);
    expect(r.mismatches[1]).toMatch(/^onboarding\.created: .*\/type must be equal to constant/);
    // What the hook after every test runs: it fails on them.
    expect(() => expectConforming([r])).toThrow(/do not match their webhook/);
    // Seen and asserted here; left in place, they would fail this test at its end as they would any other.
    r.mismatches.length = 0;
  });
});
