import { expect } from 'vitest';
import request from 'supertest';
import { Emulator, type EmulatorOptions } from '../../src/emulator.js';
import { createApp, type AppOptions } from '../../src/http/app.js';
import { snapshotStore } from '../../src/core/store.js';

/** Well-known keys of fixtures/default.json, by short name (owner, manager, ...). */
export { WELL_KNOWN_KEYS as KEYS } from '../../src/fixtures/well-known-keys.js';

export const FROZEN_START = '2026-10-05T09:00:00.000Z';

/** A harness as the tests pass it around. */
export type Harness = ReturnType<typeof harness>;

/**
 * A fresh emulator and app per test, on a frozen clock unless told otherwise, and outside a
 * container whatever the machine running the tests is (a refused connection to 127.0.0.1 reads
 * the same in CI's containers as on a laptop) unless `webhooks.inContainer` says otherwise.
 */
export function harness(options: EmulatorOptions = {}, appOptions: AppOptions = {}) {
  const emulator = new Emulator({ clock: { mode: 'frozen', start: FROZEN_START }, ...options, webhooks: { inContainer: false, ...options.webhooks } });
  const app = createApp(emulator, appOptions);
  const as = (key: string) => ({
    get: (path: string) => request(app).get(path).set('Authorization', `Bearer ${key}`),
    post: (path: string, body?: object) => {
      const r = request(app).post(path).set('Authorization', `Bearer ${key}`);
      return body === undefined ? r : r.send(body);
    },
    patch: (path: string, body: object) => request(app).patch(path).set('Authorization', `Bearer ${key}`).send(body),
  });
  /** A partner key acting for one employer (Service-Organization on every request). */
  const asPartnerFor = (key: string, organization: string) => ({
    get: (path: string) => as(key).get(path).set('Service-Organization', organization),
    post: (path: string, body?: object) => as(key).post(path, body).set('Service-Organization', organization),
    patch: (path: string, body: object) => as(key).patch(path, body).set('Service-Organization', organization),
  });
  return {
    emulator,
    app,
    http: () => request(app),
    as,
    asPartnerFor,
    /** The whole default-workspace store as JSON, to prove a refusal wrote nothing. */
    storeJson: () => JSON.stringify(snapshotStore(emulator.defaultWorkspace.store)),
  };
}

/** A valid POST /v1/onboardings body for org_acme; override any part. */
export function createBody(overrides: Record<string, unknown> = {}) {
  return {
    reference: 'test-ref',
    metadata: { team: 'blue' },
    employee: { first_name: 'Lotte', last_name: 'de Boer', email: 'lotte@example.test' },
    employment: {
      position: 'Cashier',
      start_date: '2026-12-01',
      location_id: 'loc_acme_amsterdam',
      template_id: 'tpl_acme_standard',
      hours_per_week: 24,
      hourly_wage_cents: 1400,
    },
    ...overrides,
  };
}

/** Asserts the spec's error envelope and returns the error object. */
export function envelope(res: { status: number; body: unknown; headers: Record<string, string> }) {
  const body = res.body as { error?: Record<string, unknown> };
  if (!body?.error) throw new Error(`not an error envelope (status ${res.status}): ${JSON.stringify(res.body)}`);
  const e = body.error;
  if (typeof e.type !== 'string' || typeof e.code !== 'string' || typeof e.message !== 'string' || typeof e.request_id !== 'string') {
    throw new Error(`incomplete envelope: ${JSON.stringify(e)}`);
  }
  if (res.headers['request-id'] !== e.request_id) throw new Error('Request-Id header differs from request_id');
  return e as { type: string; code: string; message: string; request_id: string; param?: string; details?: { path: string; message: string; hint?: string }[] };
}

/** Asserts the spec's error envelope with this status, type and code. */
export function expectError(res: { status: number; body: unknown; headers: Record<string, string> }, status: number, type: string, code: string, param?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const err = envelope(res);
  expect(err.type).toBe(type);
  expect(err.code).toBe(code);
  if (param !== undefined) expect(err.param).toBe(param);
  return err;
}
