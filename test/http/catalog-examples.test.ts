import { describe, expect, it } from 'vitest';
import { sandboxCatalog, type CatalogEntry, type CatalogRequest } from '../../src/control/catalog.js';
import { OLDER_NAMES, type EventType } from '../../src/resources/events/events.model.js';
import { envelope, harness, KEYS, type Harness } from '../support/harness.js';

/**
 * Generated from the catalogue: every entry's example is played against a fresh default
 * workspace over HTTP, and what the entry says it gives is checked: the status reached, the
 * events its last request fired, the refusal, the payroll error code.
 */
const catalog = sandboxCatalog();

function send(h: Harness, r: CatalogRequest, id: string | undefined) {
  const path = r.path.replace('{id}', () => {
    if (id === undefined) throw new Error(`${r.path}: no onboarding created yet`);
    return id;
  });
  const base = r.method === 'POST' ? h.http().post(path) : h.http().patch(path);
  const authed = r.auth === 'test_key' ? base.set('Authorization', `Bearer ${KEYS.owner}`) : base;
  return r.body === undefined ? authed : authed.send(r.body);
}

async function eventTypes(h: Harness, id: string): Promise<EventType[]> {
  const res = await h.http().get(`/_emulator/events?onboarding_id=${id}&limit=1000`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as { type: EventType }[]).map((e) => e.type).reverse();
}

/** Whether `wanted` occurs in `seen` in this order, other events between allowed. */
const inOrder = (seen: EventType[], wanted: EventType[]) => {
  let at = 0;
  for (const type of seen) if (type === wanted[at]) at++;
  return at === wanted.length;
};

/** The events as sent: each followed by its older name where it has one. */
const withOlderNames = (events: EventType[]) => events.flatMap((t) => (OLDER_NAMES[t] ? [t, OLDER_NAMES[t]!] : [t]));

async function play(e: CatalogEntry) {
  const h = harness();
  let id: string | undefined;
  let before: EventType[] = [];
  for (const [i, r] of e.example.entries()) {
    const last = i === e.example.length - 1;
    if (last && id !== undefined) before = await eventTypes(h, id);
    const res = await send(h, r, id);
    if (last && e.expect.error) {
      expect(res.status, JSON.stringify(res.body)).toBe(e.expect.error.status);
      expect(envelope(res).code).toBe(e.expect.error.code);
      return;
    }
    expect(res.status, `${r.method} ${r.path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    id ??= (res.body.id ?? res.body.onboarding?.id) as string;
  }
  expect(id).toBeDefined();
  const inspected = await h.http().get(`/_emulator/onboardings/${id!}`);
  expect(inspected.status).toBe(200);
  const onboarding = inspected.body.onboarding as { status: string; payroll: { error_code: string | null } | null };
  if (e.expect.status) expect(onboarding.status).toBe(e.expect.status);
  if (e.expect.payroll_error_code) expect(onboarding.payroll?.error_code).toBe(e.expect.payroll_error_code);
  if (e.expect.events) {
    const fired = (await eventTypes(h, id!)).slice(before.length);
    if (e.section === 'control_action' || e.section === 'transition') expect(fired).toEqual(withOlderNames(e.expect.events));
    else expect(inOrder(fired, e.expect.events), `fired: ${fired.join(', ')}`).toBe(true);
  }
}

describe('every example of the sandbox catalogue gives what its entry says', () => {
  it.each(catalog.entries.map((e) => [`${e.section} ${e.name}`, e] as const))('%s', async (_name, e) => {
    await play(e);
  });
});
