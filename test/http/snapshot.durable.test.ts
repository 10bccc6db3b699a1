import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Transport, TransportResult } from '../../src/delivery/transport.js';
import { createEmulator } from '../../src/in-process.js';
import { createBody, KEYS } from '../support/harness.js';
import { until } from '../support/wait.js';

/**
 * What the state file relies on: a snapshot taken while a webhook attempt runs stores it as due
 * again (the restore makes it), and a start on a file that was not closed (a kill) never hands
 * out an id the killed process may have handed out, while a clean stop continues the sequence.
 */
const START = '2026-10-05T09:00:00Z';
const auth = (r: request.Test) => r.set('Authorization', `Bearer ${KEYS.owner}`);

/** A transport whose answers wait until released. */
function heldTransport() {
  const waiting: ((r: TransportResult) => void)[] = [];
  const transport: Transport = { send: () => new Promise<TransportResult>((resolve) => waiting.push(resolve)) };
  return { transport, waiting, release: () => waiting.splice(0).forEach((r) => r({ ok: true, status: 200, error: null, durationMs: 1 })) };
}

describe('a snapshot with a webhook attempt in flight', () => {
  it('stores the attempt as due again at its own instant, and a restore makes it', async () => {
    const held = heldTransport();
    const emu = createEmulator({ seed: 'in-flight', clock: { mode: 'frozen', start: START }, webhooks: { transport: held.transport } });
    const hook = await auth(request(emu.app).post('/v1/webhooks')).send({ url: 'https://hooks.acme.test/x', events: ['onboarding.created'] });
    expect(hook.status).toBe(201);
    expect((await auth(request(emu.app).post('/v1/onboardings')).send(createBody())).status).toBe(201);
    await until(() => held.waiting.length > 0, 'the attempt to reach the transport');
    expect(held.waiting).toHaveLength(1); // the attempt runs and waits for its answer
    const ws = emu.emulator.defaultWorkspace;
    const live = ws.store.deliveries.values().find((d) => d.endpoint_id === hook.body.id)!;
    expect(live.status).toBe('in_progress');

    const snapshot = emu.emulator.snapshot(ws);
    const stored = snapshot.store.deliveries.find((d) => d.id === live.id)!;
    expect(stored).toMatchObject({ status: 'pending', attempts: 0 });
    expect(stored).not.toHaveProperty('resume');
    const timer = snapshot.timers.timers.find((t) => t.seq === stored.timer_seq)!;
    expect(timer).toMatchObject({ kind: 'webhook.attempt', due: Date.parse(START), payload: { delivery_id: live.id } });
    expect(timer.seq).toBeLessThan(snapshot.timers.next_seq);
    // The live state is not touched.
    expect(ws.store.deliveries.get(live.id)!.status).toBe('in_progress');

    const sent: string[] = [];
    const other = createEmulator({ webhooks: { transport: { send: async (req) => (sent.push(req.url), { ok: true, status: 200, error: null, durationMs: 1 }) } } });
    await other.restore(snapshot);
    await other.clock.advance('0s');
    expect(sent).toEqual(['https://hooks.acme.test/x']);
    expect(other.emulator.defaultWorkspace.store.deliveries.get(live.id)).toMatchObject({ status: 'succeeded', attempts: 1 });

    held.release();
    await ws.scheduler.settle();
    expect(ws.store.deliveries.get(live.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(ws.store.deliveries.get(live.id)).not.toHaveProperty('resume');
  });
});

describe('ids after a restart on the state file', () => {
  const options = (stateFile: string) => ({ stateFile, seed: 'restart', clock: { mode: 'frozen' as const, start: START } });
  const create = async (app: Parameters<typeof request>[0], reference: string) => {
    const res = await auth(request(app).post('/v1/onboardings')).send(createBody({ reference }));
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  it('after a kill, never repeat one the killed process handed out, even one whose write was lost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'state-ids-'));
    const file = join(dir, 'state.json');
    const first = createEmulator(options(file));
    await create(first.app, 'kept');
    // The file as a kill would leave it if the next write never happened.
    copyFileSync(file, join(dir, 'killed.json'));
    const lost = await create(first.app, 'lost');
    expect(JSON.parse(readFileSync(file, 'utf8')).state_file).toMatchObject({ open: true, restarts: 0 });

    const restarted = createEmulator(options(join(dir, 'killed.json')));
    const next = await create(restarted.app, 'after the kill');
    expect(next).not.toBe(lost);
    expect(JSON.parse(readFileSync(join(dir, 'killed.json'), 'utf8')).state_file).toMatchObject({ open: true, restarts: 1 });
    await restarted.close();
    await first.close();
  });

  it('after a clean close, continue the seeded sequence exactly as if the process had not stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'state-ids-'));
    const file = join(dir, 'state.json');
    const first = createEmulator(options(file));
    await create(first.app, 'one');
    await first.close();
    expect(JSON.parse(readFileSync(file, 'utf8')).state_file).toMatchObject({ open: false, restarts: 0 });
    const second = createEmulator(options(file));
    const afterRestart = await create(second.app, 'two');
    await second.close();

    const never = createEmulator(options(join(dir, 'never-stopped.json')));
    await create(never.app, 'one');
    expect(await create(never.app, 'two')).toBe(afterRestart);
    await never.close();
  });
});

describe('an answer and its write', () => {
  it('is a 500 state_not_written when the write fails, and the change reaches the file with the next write', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'state-fail-')), 'sub');
    const file = join(dir, 'state.json');
    const emu = createEmulator({ stateFile: file, clock: { mode: 'frozen', start: START } });
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'a file where the folder was'); // the write cannot make its temporary file
    const refused = await auth(request(emu.app).post('/v1/onboardings')).send(createBody({ reference: 'unwritten' }));
    expect(refused.status).toBe(500);
    expect(refused.body.error).toMatchObject({ type: 'api_error', code: 'state_not_written' });
    expect(refused.headers['request-id']).toBe(refused.body.error.request_id);

    rmSync(dir);
    mkdirSync(dir);
    const ok = await auth(request(emu.app).post('/v1/onboardings')).send(createBody({ reference: 'written' }));
    expect(ok.status).toBe(201);
    const stored = (JSON.parse(readFileSync(file, 'utf8')) as { store: { onboardings: { reference: string }[] } }).store.onboardings.map((o) => o.reference);
    expect(stored).toEqual(expect.arrayContaining(['unwritten', 'written']));
    // The journal records the answer that was sent, with its code: the writer says what it wrote.
    const journal = await request(emu.app).get('/_emulator/requests');
    expect(journal.body.data.map((e: { status: number; error_code: string | null }) => [e.status, e.error_code])).toEqual([[201, null], [500, 'state_not_written']]);
    await emu.close();
  });
});
