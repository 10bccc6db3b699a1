import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { createBody, KEYS, type Harness } from './harness.js';
import { approve, sendContract, verifyIdentity } from '../../src/resources/onboardings/onboardings.lifecycle.js';

/**
 * Shared by the tests of the employee's pages behind hosted_url (test/http/hosted-flow.*.test.ts):
 * an onboarding created and signed in with its one-time code, the data form, the review done
 * directly on the life cycle up to the contract sent.
 */

export const ID_JPG = readFileSync(new URL('../../fixtures/documents/identity-document.jpg', import.meta.url));
export const GOOD = {
  street: 'Damrak', house_number: '12A', postcode: '1012ab', city: 'Amsterdam',
  birth_date: '1990-04-23', iban: 'NL91 ABNA 0417 1643 00', bsn: '111222333',
};

export const pathOf = (url: string) => new URL(url).pathname;
export const ws = (h: Harness) => h.emulator.defaultWorkspace;
export const outbox = (h: Harness, id: string) => ws(h).outbox.filter((m) => m.onboarding_id === id);
export const eventTypes = (h: Harness, id: string) => ws(h).store.events.values().filter((e) => e.data.onboarding_id === id).map((e) => e.type);

export async function created(h: Harness, overrides: Record<string, unknown> = {}) {
  const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as string, path: pathOf(res.body.hosted_url as string), url: res.body.hosted_url as string };
}

/** The review after the form: identity check and one approval per role by Acme's users (four-eyes), then the contract is sent. */
export function contractSent(h: Harness, id: string) {
  const users = { manager: 'usr_acme_mark', payroll_reviewer: 'usr_acme_paula', owner: 'usr_acme_olivia' } as const;
  let r = verifyIdentity(ws(h), ws(h).store.onboardings.get(id)!);
  for (const role of r.required_roles) r = approve(ws(h), r, ws(h).store.users.get(users[role])!, role, r.data_version);
  return sendContract(ws(h), r);
}

export const lastCode = (h: Harness, id: string) => outbox(h, id).filter((m) => m.kind === 'one_time_code').at(-1)!.code!;

/** Opened, code confirmed: the session cookie. */
export async function signedIn(h: Harness, overrides: Record<string, unknown> = {}) {
  const o = await created(h, overrides);
  expect((await h.http().get(o.path)).status).toBe(200);
  const res = await h.http().post(`${o.path}/code`).type('form').send({ code: lastCode(h, o.id) });
  expect(res.status, res.text).toBe(303);
  const cookie = res.headers['set-cookie']![0]!.split(';')[0]!;
  return { ...o, cookie, confirm: res };
}

export function details(h: Harness, s: { path: string; cookie: string }, fields: Record<string, string> = GOOD, file: Buffer | null = ID_JPG, name = 'passport.jpg') {
  let req = h.http().post(`${s.path}/details`).set('Cookie', s.cookie);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return file ? req.attach('identity_document', file, name) : req.field('street', fields.street ?? '');
}
