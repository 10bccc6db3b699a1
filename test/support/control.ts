import { expect } from 'vitest';
import { envelope, KEYS, type Harness } from './harness.js';

/**
 * Helpers that drive onboardings through the control API's actions (employee, dashboard,
 * payroll), with no sandbox and no approval keys involved.
 */

export interface Onboarding {
  id: string;
  status: string;
  waiting_on: string[];
  returned: boolean;
  data_version: number;
  source: string;
  employee: { email?: string };
  employment: Record<string, unknown>;
  approvals: { required: string[]; given: { role: string; valid: boolean; data_version: number }[] };
  payroll: { status: string; connector: string | null; error_code: string | null } | null;
  hosted_link: { status: string; expires_at: string; activated: boolean } | null;
  contract: { status: string };
}

export interface Mail {
  to: string;
  kind: string;
  link: string | null;
  code: string | null;
  onboarding_id: string;
  sent_at: string;
}

export interface Event {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** The users of org_acme in fixtures/default.json, one per role. */
export const USERS = { manager: 'usr_acme_mark', payroll_reviewer: 'usr_acme_paula', owner: 'usr_acme_olivia', dual: 'usr_acme_dana' } as const;

export { createOnboarding } from './sandbox-steps.js';

/** POST /_emulator/onboardings/{id}/{action}, unchecked. */
export function act(h: Harness, id: string, action: string, body?: object) {
  const req = h.http().post(`/_emulator/onboardings/${id}/${action}`);
  return body === undefined ? req : req.send(body);
}

/** An action that must succeed; returns the onboarding after it. */
export async function must(h: Harness, id: string, action: string, body?: object): Promise<Onboarding> {
  const res = await act(h, id, action, body);
  expect(res.status, `${action}: ${JSON.stringify(res.body)}`).toBe(200);
  return (res.body as { onboarding: Onboarding }).onboarding;
}

export async function refused(h: Harness, id: string, action: string, body: object | undefined, status: number, code: string) {
  const res = await act(h, id, action, body);
  expect(res.status, `${action}: ${JSON.stringify(res.body)}`).toBe(status);
  expect(envelope(res).code).toBe(code);
  return envelope(res);
}

export async function toReview(h: Harness, id: string): Promise<Onboarding> {
  await must(h, id, 'employee/open');
  return must(h, id, 'employee/submit');
}

/** Identity confirmed and every role of tpl_acme_standard approved: contract_ready. */
export async function approveAll(h: Harness, id: string): Promise<Onboarding> {
  await must(h, id, 'verify-identity', { user_id: USERS.manager });
  await must(h, id, 'approve', { role: 'manager', user_id: USERS.manager });
  await must(h, id, 'approve', { role: 'payroll_reviewer', user_id: USERS.payroll_reviewer });
  return must(h, id, 'approve', { role: 'owner', user_id: USERS.owner });
}

/** From creation to processing (both signatures in). */
export async function toProcessing(h: Harness, id: string): Promise<Onboarding> {
  await toReview(h, id);
  await approveAll(h, id);
  await must(h, id, 'send-contract');
  await must(h, id, 'employee/sign');
  return must(h, id, 'employer-sign');
}

export async function events(h: Harness, id: string, key: string = KEYS.owner): Promise<Event[]> {
  const res = await h.as(key).get('/v1/events?limit=100');
  expect(res.status).toBe(200);
  return (res.body.data as Event[]).filter((e) => e.data.onboarding_id === id);
}

export const types = async (h: Harness, id: string, key?: string) => (await events(h, id, key)).map((e) => e.type);

/** Event types created after the first `skip` events of the onboarding. */
export const typesAfter = async (h: Harness, id: string, skip: number) => (await types(h, id)).slice(skip);

export async function outbox(h: Harness, query = ''): Promise<Mail[]> {
  const res = await h.http().get(`/_emulator/outbox${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Mail[];
}
