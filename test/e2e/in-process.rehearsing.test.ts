// The TypeScript of docs/rehearsing-failures.md, its blocks joined in order, word for word (test/e2e/in-process.test.ts checks).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createEmulator, verifySignature, type CreatedOnboarding } from 'onboarding-emulator';

const em = createEmulator({ seed: 1, clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
const KEY = 'hrs_test_acme_owner';
let url: string;
let webhook: { id: string; secret: string };

// Your receiver, cut down to what matters here: it refuses a bad signature with 400 and does
// the work for each event id once, however often the message comes.
const arrived: string[] = []; // every event id, in the order the messages came
const processed: string[] = []; // the event ids it acted on
const receiver = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  if (!verifySignature(raw, String(req.headers['service-signature'] ?? ''), webhook.secret)) {
    res.writeHead(400).end();
    return;
  }
  const event = JSON.parse(raw.toString('utf8')) as { id: string };
  arrived.push(event.id);
  if (!processed.includes(event.id)) processed.push(event.id); // in production: a unique key on the event id
  res.writeHead(204).end();
});

const call = (path: string, body?: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });

/** A webhook message now: the test message of the address (a `ping` event). */
const ping = async () => (await (await call(`/v1/webhooks/${webhook.id}/test`, {})).json()) as { event_id: string; delivery_id: string };

interface LoggedDelivery {
  id: string;
  event_id: string;
  status: string;
  created_at: string;
  injected?: { kind: string; duplicate_of?: string; released_by?: string | null };
  attempt_log: { status_code: number | null; error: string | null; injected?: { kind: string; received_status_code?: number | null } }[];
}
/** The delivery log of the address, newest first, with what each injected fault did. */
const deliveryLog = async () =>
  ((await (await fetch(`${url}/_emulator/webhooks/${webhook.id}/deliveries?limit=100`)).json()) as { data: LoggedDelivery[] }).data;

beforeAll(async () => {
  ({ url } = await em.start(0));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  webhook = (await (await call('/v1/webhooks', { url: `http://127.0.0.1:${port}/hooks` })).json()) as typeof webhook;
});
afterAll(async () => {
  await em.close();
  receiver.close();
});
beforeEach(async () => {
  await em.faults.clear();
  await em.deliveryFaults.clear();
  await em.requests.clear();
  arrived.length = 0;
  processed.length = 0;
});
const newHire = (reference: string) => ({
  reference,
  employee: { first_name: 'Lotte', last_name: 'de Boer', email: 'lotte@example.test' },
  employment: { position: 'Cashier', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam',
    template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1400 },
});

/** Your client's create: one Idempotency-Key per onboarding, the same on every try. */
async function createOnboarding(body: unknown, idempotencyKey: string, timeoutMs = 10_000): Promise<CreatedOnboarding> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await call('/v1/onboardings', body, { 'Idempotency-Key': idempotencyKey }, AbortSignal.timeout(timeoutMs));
      if (res.status === 201) return (await res.json()) as CreatedOnboarding;
      if (res.status !== 429 && res.status < 500) throw new Error(`refused: ${res.status}`);
    } catch (err) {
      // No answer (a reset connection, a timeout): the request may or may not have run.
      if (!(err instanceof TypeError) && !(err instanceof DOMException)) throw err;
    }
    if (attempt === 3) throw new Error('no answer after 3 tries');
  }
}
it('1: a retried create with its Idempotency-Key is replayed, not created twice', async () => {
  await em.faults.add({ kind: 'drop_response_after_commit', method: 'POST', path: '/v1/onboardings' });
  const onboarding = await createOnboarding(newHire('EMP-1001'), 'create-EMP-1001');

  const { data } = await em.requests.find({ method: 'POST', path: '/v1/onboardings' });
  expect(data.map((r) => [r.answered, r.replayed])).toEqual([[true, true], [false, false]]); // newest first
  expect(await em.requests.verify({ method: 'POST', path: '/v1/onboardings', has_idempotency_key: false }, { exactly: 0 })).toMatchObject({ ok: true });
  expect(await em.requests.verify({ onboarding_id: onboarding.id, method: 'POST' }, { exactly: 2 })).toMatchObject({ ok: true });
  const list = (await (await call('/v1/onboardings?reference=EMP-1001')).json()) as { data: unknown[] };
  expect(list.data).toHaveLength(1);
});
it('2: a connection reset before the request ran: nothing stored, the retry creates it', async () => {
  await em.faults.add({ kind: 'reset_before_commit', method: 'POST', path: '/v1/onboardings' });
  const onboarding = await createOnboarding(newHire('EMP-1002'), 'create-EMP-1002');

  const { data } = await em.requests.find({ method: 'POST', path: '/v1/onboardings' });
  expect(data).toHaveLength(1); // the reset request never ran, so it is not in the journal
  expect(data[0]).toMatchObject({ status: 201, replayed: false, onboarding_ids: [onboarding.id] });
});
it('3: a slow answer: time out, retry with the same key, get the replay', async () => {
  await em.faults.add({ kind: 'slow_response', method: 'POST', path: '/v1/onboardings', first_byte_ms: 2000 });
  const onboarding = await createOnboarding(newHire('EMP-1003'), 'create-EMP-1003', 500);

  // The timed-out try ran (the onboarding was stored before its slow answer began) and is
  // journaled as not answered; the retry is the replay.
  const { data } = await em.requests.find({ method: 'POST', path: '/v1/onboardings', onboarding_id: onboarding.id });
  expect(data.map((r) => [r.answered, r.replayed]).sort()).toEqual([[false, false], [true, true]]);
});
it('4: a message that arrives twice is processed once', async () => {
  await em.deliveryFaults.add({ kind: 'duplicate' }); // the copy 60 s later on the workspace clock
  const { event_id } = await ping();
  await em.clock.advance('1m');

  expect(arrived).toEqual([event_id, event_id]);
  expect(processed).toEqual([event_id]);
  const [copy, original] = await deliveryLog();
  expect([copy!.event_id, original!.event_id]).toEqual([event_id, event_id]);
  expect(copy!.injected).toMatchObject({ kind: 'duplicate', duplicate_of: original!.id });
});
it('5: an older message after a newer one', async () => {
  await em.deliveryFaults.add({ kind: 'reorder' });
  const older = await ping(); // held back ...
  const newer = await ping(); // ... until this one was tried
  await em.clock.advance(0);

  expect(arrived).toEqual([newer.event_id, older.event_id]);
  const held = (await deliveryLog()).find((d) => d.id === older.delivery_id);
  expect(held?.injected).toMatchObject({ kind: 'reorder', released_by: newer.delivery_id });
});
it('6: a late message, fast-forwarded', async () => {
  await em.deliveryFaults.add({ kind: 'delay', delay_ms: 10 * 60_000 });
  const { event_id } = await ping();
  await em.clock.advance('9m');
  expect(arrived).toEqual([]);
  await em.clock.advance('1m');
  expect(arrived).toEqual([event_id]);
});
it('7: a lost acknowledgement: the same message a minute later, processed once', async () => {
  await em.deliveryFaults.add({ kind: 'drop_ack' });
  const { event_id } = await ping();
  await em.clock.advance(0);
  const [delivery] = await deliveryLog();
  expect(delivery!.attempt_log[0]).toMatchObject({ status_code: null, injected: { kind: 'drop_ack', received_status_code: 204 } });

  await em.clock.advance('1m');
  expect(arrived).toEqual([event_id, event_id]);
  expect(processed).toEqual([event_id]);
});
it('8: a bad signature and a stale timestamp are refused; the clean retries are taken', async () => {
  await em.deliveryFaults.add({ kind: 'corrupt_signature' });
  await em.deliveryFaults.add({ kind: 'stale_timestamp' });
  const bad = await ping();
  const stale = await ping();
  await em.clock.advance(0);
  expect(processed).toEqual([]);

  await em.clock.advance('1m');
  expect(processed.sort()).toEqual([bad.event_id, stale.event_id].sort());
  for (const d of (await deliveryLog()).filter((d) => d.id === bad.delivery_id || d.id === stale.delivery_id)) {
    expect(d.status).toBe('succeeded');
    expect(d.attempt_log.map((a) => [a.status_code, a.injected?.kind ?? null])).toEqual([[400, d.injected!.kind], [204, null]]);
  }
});
it('9: the happy path with every fault of flaky-webhooks', async () => {
  const since = await em.clock.now();
  await em.scenario.load('flaky-webhooks');
  const onboarding = await createOnboarding(newHire('EMP-1009'), 'create-EMP-1009');
  await em.clock.advance('1d');

  const log = (await deliveryLog()).filter((d) => d.created_at >= since);
  expect(log.every((d) => d.status === 'succeeded')).toBe(true);
  expect(new Set(log.map((d) => d.injected?.kind).filter(Boolean))).toEqual(
    new Set(['duplicate', 'reorder', 'drop_ack', 'corrupt_signature', 'stale_timestamp', 'delay']),
  );
  expect(processed.sort()).toEqual([...new Set(log.map((d) => d.event_id))].sort()); // each event once
  const status = ((await (await call(`/v1/onboardings/${onboarding.id}`)).json()) as { status: string }).status;
  expect(status).toBe('completed');
  await em.scenario.clear();
});
