import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startRelay, verifySignature, type RelayHandle } from '../../src/index.js';
import { EVENT_TYPES } from '../../src/resources/events/events.model.js';
import { answer, useReceivers } from '../support/receiver.js';
import { until } from '../support/wait.js';
import { docker, removeContainers, start, waitForStatus } from './docker.js';

/**
 * `onboarding-emulator trigger` inside the built image, for every event type: the CLI the image
 * ships run with `docker exec` against the emulator in the same container, each event in GET
 * /v1/events (ping aside: it is no event of the API) and at a receiver on the host, through a
 * relay, signed with the address's secret on the frozen workspace clock.
 */
const OWNER = 'hrs_test_acme_owner';
const HEADERS = { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' };
const START = '2026-10-05T09:00:00.000Z';
const START_S = Date.parse(START) / 1000;
const receivers = useReceivers();
const relays: RelayHandle[] = [];

afterEach(async () => {
  for (const r of relays.splice(0)) await r.close();
});
afterAll(removeContainers);

interface Triggered {
  event_id: string;
  event_type: string;
  onboarding_id: string | null;
  deliveries: number;
}

describe('trigger in the image', () => {
  it('makes every event type happen, listed by the API and delivered signed', async () => {
    const c = await start({ args: ['--clock', 'frozen', '--start-time', START, '--signature-clock', 'emulated'] });
    await waitForStatus(`${c.base}/_emulator/health`);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${c.base}${path}`, { method, headers: HEADERS, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      return (await res.json()) as Record<string, unknown>;
    };
    const receiver = await receivers.start(answer(200));
    relays.push(await startRelay({ url: c.base, key: OWNER, forwardTo: receiver.url('/hooks') }));
    // The container cannot reach this address; the relay delivers its messages to the host.
    const hook = (await call('POST', '/v1/webhooks', { url: 'http://host.invalid/hooks' })) as { secret: string };

    for (const type of EVENT_TYPES) {
      const ran = await docker(['exec', c.id, 'node', 'dist/cli/main.js', 'trigger', type, '--json'], 30_000);
      expect(ran.code, `${type}: ${ran.stderr}`).toBe(0);
      const made = JSON.parse(ran.stdout) as Triggered;
      expect(made).toMatchObject({ event_type: type, deliveries: 1 });
      if (type !== 'ping') {
        const page = (await call('GET', `/v1/events?type=${type}&limit=100`)).data as { id: string; type: string; data: { onboarding_id: string } }[];
        expect(page.find((e) => e.id === made.event_id), type).toMatchObject({ type, data: { onboarding_id: made.onboarding_id } });
      }
      await until(() => receiver.requests.some((q) => q.headers['service-event-id'] === made.event_id), `${type} at the receiver`, 15_000);
      const got = receiver.requests.find((q) => q.headers['service-event-id'] === made.event_id)!;
      expect(got.headers['service-event-type']).toBe(type);
      expect(verifySignature(got.body, String(got.headers['service-signature']), hook.secret, { now: START_S, toleranceSeconds: 60 }), type).toBe(true);
    }

    // An unknown type: the emulator's 422 naming the accepted types, exit 1.
    const unknown = await docker(['exec', c.id, 'node', 'dist/cli/main.js', 'trigger', 'onboarding.exploded']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('error 422 parameter_invalid');
    for (const type of EVENT_TYPES) expect(unknown.stderr).toContain(type);
  });
});
