import { afterEach, describe, expect, it } from 'vitest';
import { httpControl } from '../../src/client/http.js';
import { createEmulator, type InProcessEmulator } from '../../src/index.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { runCollection } from '../support/newman.js';
import { useReceivers } from '../support/receiver.js';

/**
 * The Postman collection GET /_emulator/postman makes from the OpenAPI document, run by newman
 * against a fresh workspace of a real server on 127.0.0.1: no failure, every /v1 operation sent
 * and answered with its documented status, the webhooks it registers delivered to a receiver.
 */
const started: InProcessEmulator[] = [];
const receivers = useReceivers();

afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});

/** Each /v1 operation of the document and the status it documents for success. */
function documented(): Map<string, { method: string; path: string; status: number }> {
  const doc = buildOpenApi() as { paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };
  const out = new Map<string, { method: string; path: string; status: number }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/v1/')) continue;
    for (const [method, op] of Object.entries(item)) {
      out.set(op.operationId, { method: method.toUpperCase(), path, status: Math.min(...Object.keys(op.responses).map(Number).filter((s) => s >= 200 && s < 300)) });
    }
  }
  return out;
}

describe('the Postman collection', () => {
  it('runs green with newman against a fresh workspace: every operation answered with its documented status', async () => {
    const em = createEmulator({ clock: { mode: 'frozen', start: '2026-10-05T09:00:00.000Z' } });
    started.push(em);
    const { url } = await em.start(0);
    const receiver = await receivers.start();
    const { handle, id } = await em.workspace.create();

    const collection = await handle.postman.collection();
    // The same over HTTP, for the workspace named in the path.
    expect(await httpControl({ url }, id).postman.collection()).toEqual(collection);
    const keys = collection.variable.filter((v) => v.key.endsWith('Key'));
    expect(keys.length).toBeGreaterThan(0);
    const workspaceKeys = (await handle.keys()).map((k) => k.key);
    for (const k of keys) expect(workspaceKeys).toContain(k.value);
    expect(collection.variable.find((v) => v.key === 'baseUrl')?.value).toBe(url);

    const summary = await runCollection(collection, { webhookUrl: receiver.url('/hook') });
    expect(summary.run.failures.map((f) => `${f.source?.name ?? ''}: ${f.error.test ?? ''} ${f.error.message}`)).toEqual([]);
    expect(summary.run.stats.assertions.failed).toBe(0);

    const ops = documented();
    const sent = summary.run.executions.map((e) => ({ id: e.item.id.split(' ')[0]!, code: e.response?.code }));
    // Every operation of the document was sent, and each answer is the status it documents.
    expect(new Set(sent.map((s) => s.id))).toEqual(new Set(ops.keys()));
    for (const s of sent) expect(s.code, s.id).toBe(ops.get(s.id)!.status);
    // The run is bounded: the repeating sandbox steps stop well before their limit.
    expect(sent.length).toBeLessThan(ops.size + 20);

    // The address the run registered got real, signed messages.
    expect(receiver.requests.length).toBeGreaterThan(0);
    expect(receiver.requests.every((r) => typeof r.headers['service-signature'] === 'string')).toBe(true);
  });
});
