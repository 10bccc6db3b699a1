import { describe, expect, it } from 'vitest';
import { createBody, harness, KEYS } from '../support/harness.js';
import { closedPort } from '../support/net.js';
import { deliveries, register, settle } from '../support/webhooks.js';

/**
 * From inside a container 127.0.0.1 is the container itself: a webhook to a loopback address
 * then fails with a refused connection that says so and points to the relay, in the delivery's
 * last_error and in the attempt the inspector shows. Detection is forced through
 * `webhooks.inContainer`, the flag the emulator otherwise sets from what container engines leave.
 */
async function refusedAttempt(inContainer: boolean, host: string) {
  const h = harness({ webhooks: { inContainer } });
  const hook = await register(h, { url: `http://${host}:${await closedPort()}/hooks`, events: ['onboarding.created'] });
  expect((await h.as(KEYS.owner).post('/v1/onboardings', createBody())).status).toBe(201);
  await settle(h);
  const [delivery] = (await deliveries(h, hook.id)).data;
  // What the inspector reads and shows for each attempt.
  const inspected = await h.http().get('/_emulator/webhooks');
  expect(inspected.status).toBe(200);
  const shown = (inspected.body.data as { id: string; deliveries: { attempt_log: { error: string | null }[] }[] }[]).find((w) => w.id === hook.id)!;
  return { lastError: delivery!.last_error, attemptError: shown.deliveries[0]!.attempt_log[0]!.error };
}

describe('a refused connection to loopback from inside a container', () => {
  it.each(['127.0.0.1', 'localhost'])('to %s: the error says the address is the container itself and names the relay', async (host) => {
    const { lastError, attemptError } = await refusedAttempt(true, host);
    expect(lastError).toMatch(new RegExp(`^connection refused: ${host} is this container itself, not the machine it runs on; .*onboarding-emulator listen.*docs/relay\\.md`));
    expect(attemptError).toBe(lastError);
  });

  it('outside a container it stays a bare refused connection', async () => {
    const { lastError, attemptError } = await refusedAttempt(false, '127.0.0.1');
    expect(lastError).toBe('connection refused');
    expect(attemptError).toBe('connection refused');
  });
});
