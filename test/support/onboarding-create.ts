import { expect } from 'vitest';
import { createBody, envelope, FROZEN_START, harness, KEYS } from './harness.js';

/**
 * Shared by the POST /v1/onboardings tests (test/http/onboardings.create.*.test.ts): bodies with
 * one part changed or left out, and the checks of a refusal (nothing written) and of a creation.
 */
export const HOUR = 60 * 60 * 1000;
export const START_MS = Date.parse(FROZEN_START);

export type Body = ReturnType<typeof createBody>;

/** createBody with a change inside employee / employment / options, keeping the rest. */
export function withEmployee(patch: Record<string, unknown>, drop: string[] = []): Body {
  const base = createBody();
  const employee: Record<string, unknown> = { ...base.employee, ...patch };
  for (const k of drop) delete employee[k];
  return { ...base, employee } as Body;
}

export function withEmployment(patch: Record<string, unknown>, drop: string[] = []): Body {
  const base = createBody();
  const employment: Record<string, unknown> = { ...base.employment, ...patch };
  for (const k of drop) delete employment[k];
  return { ...base, employment } as Body;
}

export function withOptions(options: Record<string, unknown>): Body {
  return createBody({ options });
}

export function without(field: keyof Body): Record<string, unknown> {
  const body: Record<string, unknown> = { ...createBody() };
  delete body[field];
  return body;
}

/** POSTs a body that must be refused; checks status, envelope, code, param and that nothing was written. */
export async function expectRefused(
  body: object,
  expected: { status?: number; code: string; param?: string; message?: RegExp },
  key: string = KEYS.owner,
) {
  const h = harness();
  const before = h.storeJson();
  const res = await h.as(key).post('/v1/onboardings', body);
  expect(res.status).toBe(expected.status ?? 422);
  const err = envelope(res);
  expect(err.code).toBe(expected.code);
  expect(err.type).toBe(expected.status === 403 ? 'permission_error' : 'invalid_request');
  if (expected.param !== undefined) expect(err.param).toBe(expected.param);
  if (expected.message) expect(err.message).toMatch(expected.message);
  expect(h.storeJson()).toBe(before);
  return err;
}

export async function expectCreated(body: object, key: string = KEYS.owner) {
  const h = harness();
  const res = await h.as(key).post('/v1/onboardings', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { h, res };
}
