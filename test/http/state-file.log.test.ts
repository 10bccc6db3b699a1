import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { Collection } from '../../src/core/store.js';
import { Emulator } from '../../src/emulator.js';
import { createApp } from '../../src/http/app.js';
import { createEmulator } from '../../src/in-process.js';
import { logPathOf, openStateFile, type StateFile, type StateFileOptions } from '../../src/persistence/state-file.js';
import type { Transport } from '../../src/delivery/transport.js';
import { createBody, KEYS } from '../support/harness.js';
import { until } from '../support/wait.js';

/**
 * The state file's change log (src/persistence/change-log.ts): a write appends what changed to
 * `PATH.log`, a start applies the log to the document, a torn last record is ignored, the
 * document is rewritten with the log folded in (compaction) without changing the state, files
 * written before the log still load, and every file is its owner's only (0600).
 */
const START = '2026-10-05T09:00:00Z';
const tempDir = () => mkdtempSync(join(tmpdir(), 'state-log-'));
/** Webhook attempts answered at once, so deliveries change state while the workload runs. */
const transport: Transport = { send: async () => ({ ok: true, status: 200, error: null, durationMs: 1 }) };

/** An emulator on a state file whose answers wait for its writes, as `serve --state-file` does. */
function open(path: string, options: Partial<StateFileOptions> = {}) {
  const emulator = new Emulator({ clock: { mode: 'frozen', start: START }, webhooks: { transport } });
  const state = openStateFile(emulator, { path, compactAfterIdleMs: 3_600_000, ...options });
  const app = createApp(emulator, { commit: () => state.commit() });
  const snapshot = async () => (await request(app).get('/_emulator/snapshot')).text;
  return { emulator, state, app, snapshot };
}

const auth = (r: request.Test) => r.set('Authorization', `Bearer ${KEYS.owner}`);

/** Creates, changes and deletes records of several collections, timers, the journal, the clock and faults. */
async function workload(app: ReturnType<typeof open>['app'], round: number): Promise<void> {
  const hook = await auth(request(app).post('/v1/webhooks')).send({ url: `https://hooks.acme.test/${round}`, events: ['onboarding.created', 'onboarding.cancelled'] });
  expect(hook.status).toBe(201);
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await auth(request(app).post('/v1/onboardings')).send(createBody({ reference: `r${round}-${i}`, metadata: { i: String(i) } }));
    expect(res.status).toBe(201);
    ids.push(res.body.id as string);
  }
  expect((await auth(request(app).patch(`/v1/onboardings/${ids[0]}`)).send({ metadata: { v: 'patched' } })).status).toBe(200);
  expect((await auth(request(app).post(`/v1/onboardings/${ids[1]}/hosted-link`)).send({})).status).toBe(201);
  expect((await auth(request(app).post(`/v1/onboardings/${ids[2]}/cancel`)).send({})).status).toBeLessThan(300);
  expect((await request(app).post('/_emulator/clock/advance').send({ by: '1h' })).status).toBe(200);
  expect((await request(app).post('/_emulator/faults').send({ kind: 'rate_limit', count: 2, method: 'GET', path: '/v1/onboardings', retry_after_seconds: 2 })).status).toBe(201);
  expect((await auth(request(app).delete(`/v1/webhooks/${hook.body.id}`))).status).toBe(200);
  await auth(request(app).get('/v1/onboardings')); // a fault plays: the journal and the fault list change
}

const modeOf = (file: string) => statSync(file).mode & 0o777;
const documentLog = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { state_file: { log: string } }).state_file.log;

/** The files as a kill -9 would leave them now, copied beside them under another name. */
function killedCopy(file: string, name: string): string {
  const copy = join(tempDir(), name);
  copyFileSync(file, copy);
  copyFileSync(logPathOf(file), logPathOf(copy));
  return copy;
}

describe('the state file change log', () => {
  it('logs what the outbox gained, not the whole outbox, and a start restores it', async () => {
    const file = join(tempDir(), 'state.json');
    const first = open(file);
    const invite = (i: number) => auth(request(first.app).post('/v1/onboardings')).send(createBody({ reference: `invited-${i}`, options: { send_invitation: true } }));
    for (let i = 0; i < 4; i++) expect((await invite(i)).status).toBe(201);
    await first.state.commit();
    const records = readFileSync(logPathOf(file), 'utf8').trim().split('\n').map((l) => JSON.parse(l.split('\t')[0]!) as { append?: Record<string, unknown[]>; parts?: Record<string, unknown> });
    // Each write carries the invitation it sent, never the outbox whole.
    const appended = records.flatMap((r) => r.append?.outbox ?? []);
    expect(appended).toHaveLength(4);
    expect(records.filter((r) => r.append?.outbox).every((r) => r.append!.outbox!.length === 1)).toBe(true);
    expect(records.some((r) => r.parts && 'outbox' in r.parts)).toBe(false);
    const before = await first.snapshot();
    const again = open(killedCopy(file, 'killed.json'));
    expect(await again.snapshot()).toBe(before);
    expect((await request(again.app).get('/_emulator/outbox')).body.data).toHaveLength(4);
  });

  it('logs the remembered Idempotency-Key responses by key, not whole, and a start restores them in order', async () => {
    const file = join(tempDir(), 'state.json');
    const first = open(file);
    const keyed = (key: string, reference: string) => auth(request(first.app).post('/v1/onboardings')).set('Idempotency-Key', key).send(createBody({ reference }));
    for (let i = 0; i < 5; i++) expect((await keyed(`k${i}`, `keyed-${i}`)).status).toBe(201);
    await first.state.commit();
    const records = readFileSync(logPathOf(file), 'utf8').trim().split('\n').map((l) => JSON.parse(l.split('\t')[0]!) as { idempotency?: { put: { key: string }[] }; parts?: Record<string, unknown> });
    // Each write holds the one response it remembered, never all of them.
    expect(records.flatMap((r) => r.idempotency?.put.map((p) => p.key) ?? [])).toEqual(['k0', 'k1', 'k2', 'k3', 'k4']);
    expect(records.some((r) => r.parts && 'idempotency' in r.parts)).toBe(false);
    // A replay answers from the restored record, and the snapshot is the same text.
    const replayed = await keyed('k2', 'keyed-2');
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    const before = await first.snapshot();
    const again = open(killedCopy(file, 'killed.json'));
    expect(await again.snapshot()).toBe(before);
    const afterRestart = await auth(request(again.app).post('/v1/onboardings')).set('Idempotency-Key', 'k3').send(createBody({ reference: 'keyed-3' }));
    expect(afterRestart.headers['idempotent-replayed']).toBe('true');
    // Past the 24-hour window a key is taken afresh: its old record goes, the new one comes last.
    expect((await request(again.app).post('/_emulator/clock/advance').send({ by: '25h' })).status).toBe(200);
    const retaken = await auth(request(again.app).post('/v1/onboardings')).set('Idempotency-Key', 'k0').send(createBody({ reference: 'keyed-0-again' }));
    expect(retaken.status).toBe(201);
    expect(retaken.headers['idempotent-replayed']).toBeUndefined();
    await again.state.commit();
    const third = open(killedCopy(again.state.path, 'killed-again.json'));
    expect(await third.snapshot()).toBe(await again.snapshot());
    const keys = (JSON.parse(await third.snapshot()) as { idempotency: { key: string }[] }).idempotency.map((r) => r.key);
    expect(keys[keys.length - 1]).toBe('k0');
  });

  it('appends each write to the log, and a start on document and log restores the state a full snapshot held, byte for byte', async () => {
    const file = join(tempDir(), 'state.json');
    const first = open(file);
    const written = documentLog(file);
    for (let round = 0; round < 3; round++) await workload(first.app, round);
    await first.state.commit();
    // The document was not rewritten: everything since the start is in the log.
    expect(documentLog(file)).toBe(written);
    expect(statSync(logPathOf(file)).size).toBeGreaterThan(0);
    expect(readFileSync(file, 'utf8')).not.toContain('r2-5');
    const before = await first.snapshot();

    const again = open(killedCopy(file, 'killed.json'));
    expect(again.state.start).toBe('restored');
    expect(await again.snapshot()).toBe(before);
    // The start wrote the document whole, with the log folded in, and emptied the log.
    expect(readFileSync(again.state.path, 'utf8')).toContain('r2-5');
    expect(statSync(again.state.logPath).size).toBe(0);
    await again.state.close();
    await first.state.close();
  });

  it('ignores a torn last record; refuses a damaged one unless repaired', async () => {
    const file = join(tempDir(), 'state.json');
    const first = open(file);
    await workload(first.app, 0);
    await first.state.commit();
    const kept = await first.snapshot();
    const whole = killedCopy(file, 'whole.json');
    await workload(first.app, 1);
    await first.state.commit();
    const log = readFileSync(logPathOf(file), 'utf8');
    const added = log.slice(readFileSync(logPathOf(whole), 'utf8').length);
    expect(added.split('\n').length).toBeGreaterThan(2);

    // A kill during the next write: the first records reached the disk, the next one in part.
    const torn = killedCopy(whole, 'torn.json');
    appendFileSync(logPathOf(torn), added.slice(0, Math.floor(added.length / 2)));
    const fromTorn = open(torn);
    expect(fromTorn.state.start).toBe('restored');
    expect(await fromTorn.snapshot()).not.toBe(kept); // the whole records before the torn one applied
    expect((await fromTorn.snapshot()).includes('r1-')).toBe(true);
    await fromTorn.state.close();

    // A whole record whose text does not match its checksum is damage, not a kill: refused, unless repaired.
    const damaged = killedCopy(whole, 'damaged.json');
    const [head, ...rest] = added.split('\n');
    appendFileSync(logPathOf(damaged), [head!.replace('"n":', '"n" :'), ...rest].join('\n'));
    expect(() => open(damaged)).toThrow('is damaged at byte');
    const fromDamaged = open(damaged, { repair: true });
    expect(await fromDamaged.snapshot()).toBe(kept);
    await fromDamaged.state.close();

    // Only the torn half of a first record: the document alone.
    const half = killedCopy(whole, 'half.json');
    appendFileSync(logPathOf(half), added.slice(0, 20));
    const fromHalf = open(half);
    expect(await fromHalf.snapshot()).toBe(kept);
    await fromHalf.state.close();
    await first.state.close();
  });

  it('ignores a log that names another document (a kill between the document and the emptied log)', async () => {
    const file = join(tempDir(), 'state.json');
    const first = open(file);
    await workload(first.app, 0);
    await first.state.commit();
    const oldLog = readFileSync(logPathOf(file), 'utf8');
    await first.state.close(); // the document written whole: it holds everything
    const closed = await first.snapshot();
    writeFileSync(logPathOf(file), oldLog); // the old log left as it was
    const again = open(file);
    expect(await again.snapshot()).toBe(closed); // not applied twice
    await again.state.close();
  });

  it('compacts once writes pause and once the log outgrows the document, keeping the state', async () => {
    const file = join(tempDir(), 'state.json');
    const idle = open(file, { compactAfterIdleMs: 20 });
    const written = documentLog(file);
    await workload(idle.app, 0);
    await idle.state.commit();
    await until(() => statSync(logPathOf(file)).size === 0, 'the log folded into the document');
    expect(documentLog(file)).not.toBe(written);
    const compacted = await idle.snapshot();
    expect(readFileSync(file, 'utf8')).toContain('r0-5');
    const again = open(killedCopy(file, 'idle.json'));
    expect(await again.snapshot()).toBe(compacted);
    await again.state.close();
    await idle.state.close();

    // No pause: the log is folded in once it holds more than the document.
    const busyFile = join(tempDir(), 'busy.json');
    const busy = open(busyFile, { compactLogBytes: 0 }); // the document's own size is the bound
    const documentBytes = statSync(busyFile).size;
    let rewrites = 0;
    let log = documentLog(busyFile);
    for (let round = 0; round < 40 && rewrites < 2; round++) {
      await workload(busy.app, round);
      await busy.state.commit();
      expect(statSync(logPathOf(busyFile)).size).toBeLessThan(2 * Math.max(documentBytes, statSync(busyFile).size) + 1024 * 1024);
      if (documentLog(busyFile) !== log) (rewrites++, (log = documentLog(busyFile)));
    }
    expect(rewrites).toBeGreaterThan(0);
    const before = await busy.snapshot();
    const fromBusy = open(killedCopy(busyFile, 'busy-killed.json'));
    expect(await fromBusy.snapshot()).toBe(before);
    await fromBusy.state.close();
    await busy.state.close();
  }, 60_000);

  it('loads a file written before the log (one snapshot document) and ignores a log beside it', async () => {
    const maker = createEmulator({ clock: { mode: 'frozen', start: START } });
    await auth(request(maker.app).post('/v1/onboardings')).send(createBody({ reference: 'old-format' }));
    const document = await maker.snapshot();
    const file = join(tempDir(), 'old.json');
    writeFileSync(file, JSON.stringify({ ...document, state_file: { start_scenario: null, open: false, restarts: 0 } }, null, 2));
    writeFileSync(logPathOf(file), 'not a record\n');
    const loaded = open(file);
    expect(loaded.state.start).toBe('restored');
    expect(JSON.parse(await loaded.snapshot())).toEqual(document);
    await loaded.state.close();
    expect(readFileSync(file, 'utf8')).toContain('old-format');
  });

  it('writes every file readable by its owner only (0600): the document, the log, after appends and after compaction', async () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    writeFileSync(join(dir, '.state.json.log.tmp'), 'left over', { mode: 0o644 });
    const s = open(file, { compactAfterIdleMs: 20 });
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(logPathOf(file))).toBe(0o600);
    await workload(s.app, 0);
    await s.state.commit();
    expect(statSync(logPathOf(file)).size).toBeGreaterThan(0);
    expect(modeOf(logPathOf(file))).toBe(0o600);
    await until(() => statSync(logPathOf(file)).size === 0, 'the compaction');
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(logPathOf(file))).toBe(0o600);
    await s.state.close();
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(logPathOf(file))).toBe(0o600);
    expect(existsSync(join(dir, '.state.json.log.tmp'))).toBe(false);
  });

  it('a reset and a restore are written whole, and what follows them goes to the log again', async () => {
    const file = join(tempDir(), 'state.json');
    const s: { state: StateFile } & ReturnType<typeof open> = open(file);
    await workload(s.app, 0);
    const taken = await s.snapshot();
    expect((await request(s.app).post('/_emulator/reset')).status).toBeLessThan(300);
    const afterReset = documentLog(file);
    expect(readFileSync(file, 'utf8')).not.toContain('r0-5');
    expect((await request(s.app).put('/_emulator/snapshot').set('Content-Type', 'application/json').send(taken)).status).toBe(200);
    expect(documentLog(file)).not.toBe(afterReset);
    expect(readFileSync(file, 'utf8')).toContain('r0-5');
    await workload(s.app, 1);
    await s.state.commit();
    expect(statSync(logPathOf(file)).size).toBeGreaterThan(0);
    const before = await s.snapshot();
    const again = open(killedCopy(file, 'after-restore.json'));
    expect(await again.snapshot()).toBe(before);
    await again.state.close();
    await s.state.close();
  });
});

describe('Collection change tracking', () => {
  it('puts and deletes replayed on the saved records give the records now, in their order', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const c = new Collection<{ id: string; v: number }>((r) => r.id);
    for (let i = 0; i < 20; i++) c.put({ id: `a${i}`, v: 0 });
    c.trackChanges();
    let saved = new Map(c.values().map((r) => [r.id, r]));
    for (let step = 0; step < 5_000; step++) {
      const id = `a${Math.floor(random() * 30)}`;
      if (random() < 0.35) c.delete(id);
      else c.put({ id, v: step });
      if (random() < 0.1) {
        const changes = c.takeChanges()!;
        for (const d of changes.deleted) saved.delete(d);
        for (const r of changes.put) saved.set(r.id, r);
        expect([...saved.values()]).toEqual(c.values());
        saved = new Map(saved);
      }
    }
  });
});
