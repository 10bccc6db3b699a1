import { expect } from 'vitest';
import { createBody, KEYS, type Harness } from './harness.js';

/**
 * Helpers to drive an onboarding through its life cycle over HTTP: create it, play sandbox
 * steps, read its events. Shared by the approvals, contract and sandbox tests.
 */

export async function createOnboarding(h: Harness, key: string = KEYS.owner, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await h.as(key).post('/v1/onboardings', createBody(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: string }).id;
}

/** The fields of an Onboarding the tests look at; the rest stays unknown. */
export interface OnboardingJson {
  status: string;
  waiting_on: string[];
  data_version: number;
  approvals: { required: string[]; given: { role: string; valid: boolean; data_version: number }[] };
  [field: string]: unknown;
}

export interface Advanced {
  step: string;
  onboarding: OnboardingJson;
}

/** One sandbox step; fails the test unless it is answered with 200. */
export async function advance(h: Harness, id: string, key: string = KEYS.owner): Promise<Advanced> {
  const res = await h.as(key).post(`/v1/sandbox/onboardings/${id}/advance`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Advanced;
}

/** Several sandbox steps; returns the step names played. */
export async function advanceTimes(h: Harness, id: string, times: number, key: string = KEYS.owner): Promise<string[]> {
  const steps: string[] = [];
  for (let i = 0; i < times; i++) steps.push((await advance(h, id, key)).step);
  return steps;
}

/** Created, opened and submitted: in_review with data_version 2, identity not yet confirmed. */
export async function inReview(h: Harness, key: string = KEYS.owner, overrides: Record<string, unknown> = {}): Promise<string> {
  const id = await createOnboarding(h, key, overrides);
  expect(await advanceTimes(h, id, 2, key)).toEqual(['employee_opened', 'employee_submitted']);
  return id;
}

export interface EventJson {
  id: string;
  type: string;
  organization_id: string;
  data: Record<string, unknown>;
}

/** Events of one onboarding, oldest first, as GET /v1/events lists them. */
export async function eventsOf(h: Harness, id: string, key: string = KEYS.owner): Promise<EventJson[]> {
  const res = await h.as(key).get('/v1/events?limit=100');
  expect(res.status).toBe(200);
  expect(res.body.has_more).toBe(false);
  return (res.body.data as EventJson[]).filter((e) => e.data.onboarding_id === id);
}

export async function eventTypes(h: Harness, id: string, key: string = KEYS.owner): Promise<string[]> {
  return (await eventsOf(h, id, key)).map((e) => e.type);
}

export async function readOnboarding(h: Harness, id: string, key: string = KEYS.owner): Promise<OnboardingJson> {
  const res = await h.as(key).get(`/v1/onboardings/${id}`);
  expect(res.status).toBe(200);
  return res.body as OnboardingJson;
}

