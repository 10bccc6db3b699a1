import { afterEach, describe, expect, it } from 'vitest';
import { ApiError as HttpApiError, httpControl } from '../../src/client/http.js';
import { ApiError, createEmulator, type InProcessEmulator } from '../../src/index.js';
import { EVENT_TYPES } from '../../src/resources/events/events.model.js';

/** em.trigger(): the trigger in process, on a workspace handle, and through the HTTP client, with the same refusals. */
const started: InProcessEmulator[] = [];
afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});

describe('em.trigger', () => {
  it('makes the event in process and over HTTP, and refuses an unknown type the same way on both', async () => {
    const em = createEmulator({ clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
    started.push(em);
    const { url } = await em.start(0);

    const made = await em.trigger('onboarding.approval_given');
    expect(made).toMatchObject({ object: 'triggered_event', event_type: 'onboarding.approval_given', organization_id: 'org_acme', onboarding_created: true });
    const listed = (await (await fetch(`${url}/v1/events?type=onboarding.approval_given`, { headers: { Authorization: 'Bearer hrs_test_acme_owner' } })).json()) as { data: { id: string }[] };
    expect(listed.data.map((e) => e.id)).toContain(made.event_id);

    // Further on the same onboarding, from the HTTP client.
    const remote = await httpControl({ url }).trigger('onboarding.cancelled', made.onboarding_id!);
    expect(remote).toMatchObject({ onboarding_id: made.onboarding_id, onboarding_created: false, events: [{ type: 'onboarding.cancelled' }] });

    // A workspace's handle acts there.
    const other = await em.workspace.create();
    const there = await other.handle.trigger('onboarding.created');
    expect((await fetch(`${url}/_emulator/onboardings/${there.onboarding_id}`)).status).toBe(404);
    expect((await fetch(`${url}/_emulator/workspaces/${other.id}/onboardings/${there.onboarding_id}`)).status).toBe(200);

    const local = await em.trigger('onboarding.exploded' as never).catch((e: unknown) => e);
    expect(local).toBeInstanceOf(ApiError);
    expect(local).toMatchObject({ status: 422, code: 'parameter_invalid', param: 'event_type' });
    const overHttp = await httpControl({ url }).trigger('onboarding.exploded' as never).catch((e: unknown) => e);
    expect(overHttp).toBeInstanceOf(HttpApiError);
    expect(overHttp).toMatchObject({ status: 422, code: 'parameter_invalid', message: (local as ApiError).message });
    for (const type of EVENT_TYPES) expect((local as ApiError).message).toContain(type);
  });
});
