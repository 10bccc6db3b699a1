import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import { FROZEN_START, KEYS, type Harness } from './harness.js';
import { type Receiver, type ReceivedRequest } from './receiver.js';

/**
 * Shared by the webhook delivery tests (test/http/webhooks.*.test.ts): the message and delivery
 * shapes, an independent HMAC check of the signature, and short calls on the webhooks API.
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const START_MS = Date.parse(FROZEN_START);
export const START_S = START_MS / 1000;
/** Minutes after each failed attempt (spec: Delivery). */
export const RETRY_MINUTES = [1, 5, 30, 120, 360, 720, 1440];
export const iso = (ms: number) => new Date(ms).toISOString();

// --- helpers -------------------------------------------------------------------------------

export interface Message {
  id: string;
  type: string;
  created_at: string;
  organization_id: string;
  api_version: string;
  data: Record<string, unknown>;
}

export interface Delivery {
  id: string;
  object: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  next_attempt_at: string | null;
}

/** The independent computation: hex HMAC-SHA256 keyed with the secret over `${t}.` + the raw bytes. */
export function hmacHex(secret: string, t: string, raw: Buffer): string {
  return createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${t}.`, 'utf8'), raw])).digest('hex');
}

/** Parses `t=<unix>,v1=<hex>[,v1=<hex>]` strictly. */
export function signatureOf(req: ReceivedRequest): { t: string; v1: string[] } {
  const header = req.headers['service-signature'];
  expect(typeof header, 'Service-Signature header').toBe('string');
  expect(header).toMatch(/^t=\d+(,v1=[0-9a-f]{64})+$/);
  const parts = (header as string).split(',');
  return { t: parts[0]!.slice(2), v1: parts.slice(1).map((p) => p.slice(3)) };
}

/** Asserts the header carries exactly one v1 per secret, in this order, each over the raw body. */
export function expectSignedBy(req: ReceivedRequest, secrets: string[]): number {
  const { t, v1 } = signatureOf(req);
  expect(v1).toEqual(secrets.map((s) => hmacHex(s, t, req.body)));
  return Number(t);
}

export const message = (req: ReceivedRequest) => JSON.parse(req.body.toString('utf8')) as Message;

export async function register(h: Harness, body: object, key: string = KEYS.owner) {
  const res = await h.as(key).post('/v1/webhooks', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string; api_version: string };
}

/** Runs what is due now and waits for attempts in flight. */
export const settle = (h: Harness) => h.emulator.defaultWorkspace.scheduler.advanceBy(0);
export const advanceClock = (h: Harness, ms: number) => h.emulator.defaultWorkspace.scheduler.advanceBy(ms);

export async function ping(h: Harness, webhookId: string, key: string = KEYS.owner) {
  const res = await h.as(key).post(`/v1/webhooks/${webhookId}/test`, {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { object: string; webhook_id: string; event_id: string; delivery_id: string; status: string };
}

export async function deliveries(h: Harness, webhookId: string, query = '', key: string = KEYS.owner) {
  const res = await h.as(key).get(`/v1/webhooks/${webhookId}/deliveries${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { object: string; data: Delivery[]; has_more: boolean; next_cursor: string | null };
}

export async function delivery(h: Harness, webhookId: string, deliveryId: string): Promise<Delivery> {
  const found = (await deliveries(h, webhookId, '?limit=100')).data.find((d) => d.id === deliveryId);
  expect(found, `delivery ${deliveryId}`).toBeDefined();
  return found!;
}

export async function webhook(h: Harness, id: string, key: string = KEYS.owner) {
  const res = await h.as(key).get(`/v1/webhooks/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { status: string; previous_secret_expires_at: string | null; recent_deliveries: Delivery[] };
}

export const types = (r: Receiver, path = '/hook') => r.to(path).map((q) => message(q).type);
