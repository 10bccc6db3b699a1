import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/wait.js';
import { EVENT_TYPES } from '../../src/resources/events/events.model.js';
import { KEYS } from '../support/harness.js';
import { answer, useReceivers, type Receiver } from '../support/receiver.js';
import { run, serve } from '../support/serve.js';
import { expectSignedBy, message } from '../support/webhooks.js';

/** `onboarding-emulator trigger` against a built server: its line, its JSON, the signed delivery, and its exit codes. */
const children: ChildProcess[] = [];
const receivers = useReceivers();
const cli = (args: string[]) => run([...args, '--url', url], children, { EMULATOR_URL: '', EMULATOR_KEY: '' });
let url = '';

beforeAll(async () => {
  url = (await serve(['--log-level', 'warn', '--clock', 'frozen', '--start-time', '2026-10-05T09:00:00Z'], children)).url;
});

afterAll(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** The receiver's request carrying this event, waited for up to 5 s (the answer may come before the attempt ends). */
async function deliveredTo(receiver: Receiver, eventId: string) {
  const carrying = () => receiver.requests.find((r) => r.headers['service-event-id'] === eventId);
  await until(() => carrying() !== undefined, `the delivery of ${eventId}`);
  return carrying();
}

describe('onboarding-emulator trigger', () => {
  it('makes the event, prints its id, type and onboarding, and the receiver gets it signed', async () => {
    const receiver = await receivers.start(answer(200));
    const res = await fetch(`${url}/v1/webhooks`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEYS.owner}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: receiver.url() }),
    });
    expect(res.status).toBe(201);
    const { secret } = (await res.json()) as { secret: string };

    const line = await cli(['trigger', 'onboarding.completed']);
    expect(line.code, line.stderr).toBe(0);
    expect(line.stdout).toMatch(/^onboarding\.completed evt_\w+ {2}onboarding onb_\w+ \(new\) {2}1 delivery\n$/);

    const json = await cli(['trigger', 'contract.signed', '--org', 'org_acme', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const made = JSON.parse(json.stdout) as { event_id: string; event_type: string; onboarding_id: string; organization_id: string };
    expect(made).toMatchObject({ event_type: 'contract.signed', organization_id: 'org_acme', onboarding_id: expect.stringMatching(/^onb_/) });
    const got = await deliveredTo(receiver, made.event_id);
    expect(got, 'the older-name event delivered').toBeDefined();
    expect(message(got!)).toMatchObject({ type: 'contract.signed', data: { onboarding_id: made.onboarding_id } });
    expectSignedBy(got!, [secret]);

    // On that onboarding, further along: contract.signed was its last step, so payroll is next.
    const on = await cli(['trigger', 'integration.sync_failed', '--onboarding', made.onboarding_id]);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toContain(`onboarding ${made.onboarding_id}  `);
    expect(on.stdout).not.toContain('(new)');
  });

  it('exits 1 with the error line for a refusal (the accepted types for an unknown one), 2 for usage', async () => {
    const unknown = await cli(['trigger', 'onboarding.exploded']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error 422 parameter_invalid: /);
    for (const type of EVENT_TYPES) expect(unknown.stderr).toContain(type);

    const fixed = await cli(['trigger', 'onboarding.created', '--onboarding', 'onb_demo_jansen']);
    expect(fixed.code).toBe(1);
    expect(fixed.stderr).toMatch(/^error 409 invalid_transition: onboarding\.created happens when an onboarding is created/);

    const missing = await cli(['trigger', 'ping', '--workspace', 'ws_nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('error 404 workspace_not_found');

    expect((await cli(['trigger'])).code).toBe(2);
    expect((await cli(['trigger', 'ping', '--nope'])).code).toBe(2);
  });
});
