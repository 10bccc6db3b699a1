import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/in-process.js';
import { StateFileError } from '../../src/persistence/state-file.js';
import { createBody, KEYS } from '../support/harness.js';
import { run, serve as serveIn, type Served } from '../support/serve.js';
import { until } from '../support/wait.js';

/**
 * `--state-file` (docs/configuration.md, Persisting state): the default workspace kept in a JSON file across
 * restarts, written atomically and durably (a temporary file flushed and renamed over the old
 * one), refused loudly and left untouched when it cannot be read, overwritten only on
 * --reset-state.
 */
const children: ChildProcess[] = [];
const serve = (args: string[], env: Record<string, string> = {}) => serveIn(['--log-level', 'warn', ...args], children, env);
/** Runs `serve` expecting it to stop by itself; resolves with its exit code and output. */
const serveFails = (args: string[]) => run(['serve', '--port', '0', '--log-level', 'warn', ...args], children);

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

const tempDir = () => mkdtempSync(join(tmpdir(), 'state-file-'));
const auth = { Authorization: `Bearer ${KEYS.owner}`, 'Content-Type': 'application/json' };

async function createOnboarding(url: string, reference = 'persisted'): Promise<string> {
  const res = await fetch(`${url}/v1/onboardings`, { method: 'POST', headers: auth, body: JSON.stringify(createBody({ reference })) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const statusOf = async (url: string, id: string) => (await fetch(`${url}/v1/onboardings/${id}`, { headers: auth })).status;


describe('serve --state-file', () => {
  it('creates a missing file, writes changes, and after SIGTERM and a restart the onboarding is there', async () => {
    const file = join(tempDir(), 'nested', 'state.json');
    const first = await serve(['--state-file', file]);
    expect(first.ready).toMatchObject({ state_file: file, state: 'created' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'onboarding-emulator-snapshot', version: 1 });
    const id = await createOnboarding(first.url);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain(id);

    const second = await serve(['--state-file', file]);
    expect(second.ready).toMatchObject({ state: 'restored' });
    expect(await statusOf(second.url, id)).toBe(200);
  });

  it('keeps the clock: a frozen clock advanced before the stop reads the same after the restart, whatever --start-time says', async () => {
    const file = join(tempDir(), 'state.json');
    const args = ['--state-file', file, '--clock', 'frozen', '--start-time', '2026-10-05T09:00:00Z'];
    const first = await serve(args);
    const moved = await fetch(`${first.url}/_emulator/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"by":"1d"}' });
    expect(moved.status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const second = await serve(args);
    const clock = (await (await fetch(`${second.url}/_emulator/clock`)).json()) as { now: string };
    expect(clock.now).toBe('2026-10-06T09:00:00.000Z');
  });

  it('takes the file from EMULATOR_STATE_FILE', async () => {
    const file = join(tempDir(), 'env.json');
    const started = await serve([], { EMULATOR_STATE_FILE: file });
    expect(started.ready).toMatchObject({ state_file: file });
    expect(existsSync(file)).toBe(true);
  });

  it('after kill -9 the file is whole JSON holding what was written, and the emulator starts on it', async () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    const started = await serve(['--state-file', file]);
    const id = await createOnboarding(started.url);
    await until(() => readFileSync(file, 'utf8').includes(id), 'the onboarding in the file');
    // More writes in flight while the process dies: it is killed once the first of them is answered.
    const late = Array.from({ length: 5 }, (_, i) => createOnboarding(started.url, `late-${i}`));
    for (const write of late) void write.catch(() => undefined);
    const answered = await Promise.race(late);
    started.child.kill('SIGKILL');
    await started.exited;
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { store: { onboardings: { id: string }[] } };
    expect(saved.store.onboardings.map((o) => o.id)).toContain(id);
    // The answered one was in the change log beside the file, at the latest.
    const again = await serve(['--state-file', file]);
    expect(await statusOf(again.url, id)).toBe(200);
    expect(await statusOf(again.url, answered)).toBe(200);
  });

  it.each([
    ['not JSON', '{"format": "onboarding-emulator-snapshot", "vers', 'is not valid JSON'],
    ['empty', '', 'is not valid JSON'],
    ['not a snapshot', '{"hello": "world"}', 'format: must be "onboarding-emulator-snapshot"'],
    ['another version', '{"format": "onboarding-emulator-snapshot", "version": 99}', 'has version 99'],
    ['JSON null', 'null', 'must be a JSON object'],
  ])('refuses a file that is %s: exit 1, a message naming the file, the file untouched', async (_what, content, problem) => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    writeFileSync(file, content);
    const { code, out } = await serveFails(['--state-file', file]);
    expect(code).toBe(1);
    expect(out).toContain(`state file ${file}`);
    expect(out).toContain(problem);
    expect(out).toContain('--reset-state');
    expect(out).not.toContain('listening');
    expect(readFileSync(file, 'utf8')).toBe(content);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('refuses a file it cannot read (a directory), naming it', async () => {
    const dir = tempDir();
    const { code, out } = await serveFails(['--state-file', dir]);
    expect(code).toBe(1);
    expect(out).toContain(`state file ${dir} cannot be read`);
  });

  it('--reset-state starts from the fixtures on a corrupt file and overwrites it', async () => {
    const file = join(tempDir(), 'state.json');
    writeFileSync(file, '{ broken');
    const started = await serve(['--state-file', file, '--reset-state']);
    expect(started.ready).toMatchObject({ state: 'reset' });
    expect(await statusOf(started.url, 'onb_demo_jansen')).toBe(200);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'onboarding-emulator-snapshot' });
  });

  it('--reset-state drops what the file held', async () => {
    const file = join(tempDir(), 'state.json');
    const first = await serve(['--state-file', file]);
    const id = await createOnboarding(first.url);
    first.child.kill('SIGTERM');
    await first.exited;
    const second = await serve(['--state-file', file, '--reset-state']);
    expect(await statusOf(second.url, id)).toBe(404);
    await until(() => !readFileSync(file, 'utf8').includes(id), 'the file overwritten');
  });

  it('refuses a change log damaged before its end on one line naming the byte; --state-file-repair starts, keeps what precedes it and warns', async () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    const first = await serve(['--state-file', file]);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await createOnboarding(first.url, `acked-${i}`));
    first.child.kill('SIGKILL');
    await first.exited;
    const log = readFileSync(`${file}.log`);
    const lines = log.toString('utf8').split('\n');
    const offset = Buffer.byteLength(lines.slice(0, 2).join('\n')) + 1; // the third line
    log[offset + 30] = log[offset + 30]! ^ 0x01;
    writeFileSync(`${file}.log`, log);
    const document = readFileSync(file);

    const refused = await serveFails(['--state-file', file]);
    expect(refused.code).toBe(1);
    const said = refused.out.split('\n').filter(Boolean);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`${file}.log is damaged at byte ${offset} (line 3 of ${lines.length - 1})`);
    expect(readFileSync(file)).toEqual(document);
    expect(readFileSync(`${file}.log`)).toEqual(log);

    const repaired = await serve(['--state-file', file, '--state-file-repair']);
    expect(repaired.lines().find((l) => l.includes('was damaged at byte'))).toContain(`kept the 2 records before it, dropped ${lines.length - 3}`);
    expect(readFileSync(`${file}.log.damaged`)).toEqual(log);
    expect(await statusOf(repaired.url, ids[0]!)).toBe(200);
  });

  it('--state-file-repair without --state-file is a usage mistake', async () => {
    const { code, out } = await serveFails(['--state-file-repair']);
    expect(code).toBe(2);
    expect(out).toContain('--state-file-repair needs --state-file');
  });

  it('--reset-state without --state-file is a usage mistake', async () => {
    const { code, out } = await serveFails(['--reset-state']);
    expect(code).toBe(2);
    expect(out).toContain('--reset-state needs --state-file');
  });
});

describe('serve --state-file with --scenario', () => {
  const advance = async (url: string, by: string) => {
    const res = await fetch(`${url}/_emulator/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ by }) });
    expect(res.status).toBe(200);
  };
  const scenarioOf = async (url: string) => ((await (await fetch(`${url}/_emulator/scenario`)).json()) as { source: string | null }).source;
  const plannedOf = async (url: string) => ((await (await fetch(`${url}/_emulator/scenario`)).json()) as { planned: { onboarding_id: string; step: string; due_at: string }[] }).planned;
  const read = async (url: string, id: string) => ((await (await fetch(`${url}/v1/onboardings/${id}`, { headers: auth })).json()) as { status: string }).status;
  const restart = async (s: Served, args: string[]) => {
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    return serve(args);
  };

  it('the same scenario plays on where it was; another one given at start replaces the stored one; none given keeps it', async () => {
    const file = join(tempDir(), 'state.json');
    const base = ['--state-file', file, '--clock', 'frozen', '--start-time', '2026-10-05T09:00:00Z'];
    const slow = [...base, '--scenario', 'scenarios/slow-employer-signature.yaml'];
    let s = await serve(slow);
    const id = await createOnboarding(s.url);
    await advance(s.url, '1d');
    expect(await read(s.url, id)).toBe('awaiting_employer_signature'); // the employer signs 5 days after the employee
    const planned = await plannedOf(s.url);
    expect(planned).toContainEqual(expect.objectContaining({ onboarding_id: id, step: 'employer_signed' }));

    // Same command line: nothing replanned, the stored step waits for its own instant.
    s = await restart(s, slow);
    expect(s.ready).toMatchObject({ state: 'restored' });
    expect(s.ready.state_scenario).toBeUndefined();
    expect(await scenarioOf(s.url)).toBe('slow-employer-signature.yaml');
    expect(await plannedOf(s.url)).toEqual(planned);

    // No --scenario: the stored one plays on.
    s = await restart(s, base);
    expect(s.ready.state_scenario).toBeUndefined();
    expect(await scenarioOf(s.url)).toBe('slow-employer-signature.yaml');
    expect(await plannedOf(s.url)).toEqual(planned);

    // Another scenario: it replaces the stored one and plans from now (the employer signs within the hour).
    const happy = [...base, '--scenario', 'scenarios/happy-path.yaml'];
    s = await restart(s, happy);
    expect(s.ready).toMatchObject({ state: 'restored', state_scenario: 'replaced by --scenario' });
    expect(await scenarioOf(s.url)).toBe('happy-path.yaml');
    await advance(s.url, '2h');
    expect(await read(s.url, id)).toBe('completed');

    // A scenario removed through the API stays removed when the same command line starts again.
    const removed = await fetch(`${s.url}/_emulator/scenario`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    s = await restart(s, happy);
    expect(s.ready.state_scenario).toBeUndefined();
    expect(await scenarioOf(s.url)).toBeNull();
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { scenario: unknown; state_file: { start_scenario: string } }).scenario).toBeNull();
  });

  it('a state file written without --scenario takes one given at a later start', async () => {
    const file = join(tempDir(), 'state.json');
    const base = ['--state-file', file, '--clock', 'frozen'];
    let s = await serve(base);
    expect(await scenarioOf(s.url)).toBeNull();
    s = await restart(s, [...base, '--scenario', 'scenarios/happy-path.yaml']);
    expect(s.ready).toMatchObject({ state: 'restored', state_scenario: 'replaced by --scenario' });
    expect(await scenarioOf(s.url)).toBe('happy-path.yaml');
  });
});

describe('createEmulator({ stateFile })', () => {
  it('writes requests through app, control helpers and close(), and a new emulator restores them', async () => {
    const file = join(tempDir(), 'state.json');
    const emu = createEmulator({ stateFile: file, clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
    const res = await request(emu.app).post('/v1/onboardings').set('Authorization', `Bearer ${KEYS.owner}`).send(createBody());
    expect(res.status).toBe(201);
    await until(() => readFileSync(file, 'utf8').includes(res.body.id), 'the request written');
    await emu.clock.advance('2h');
    await emu.close();
    expect(JSON.parse(readFileSync(file, 'utf8')).clock.now).toBe('2026-10-05T11:00:00.000Z');

    const again = createEmulator({ stateFile: file });
    expect((await request(again.app).get(`/v1/onboardings/${res.body.id}`).set('Authorization', `Bearer ${KEYS.owner}`)).status).toBe(200);
    expect(await again.clock.now()).toBe('2026-10-05T11:00:00.000Z');
    await again.close();
  });

  it('keeps the file readable by its owner only (0600), at start and after each write, whatever mode a leftover temporary file had', async () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    // A temporary file left by a killed process, readable by everyone.
    writeFileSync(join(dir, '.state.json.tmp'), 'left over', { mode: 0o644 });
    const emu = createEmulator({ stateFile: file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const res = await request(emu.app).post('/v1/onboardings').set('Authorization', `Bearer ${KEYS.owner}`).send(createBody());
    await until(() => readFileSync(file, 'utf8').includes(res.body.id), 'the request written');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await emu.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('writes what a started server served, and timers that fire', async () => {
    const file = join(tempDir(), 'state.json');
    const emu = createEmulator({ stateFile: file, clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
    const { url } = await emu.start();
    const id = await createOnboarding(url);
    await until(() => readFileSync(file, 'utf8').includes(id), 'the request written');
    // A timer firing outside any request (scheduled here directly) is written too.
    const ws = emu.emulator.defaultWorkspace;
    const event = ws.store.events.values().at(-1)!;
    ws.scheduler.schedule('event.purge', ws.clock.nowMs(), { event_id: event.id });
    ws.scheduler.runDue();
    const stored = () => (JSON.parse(readFileSync(file, 'utf8')) as { store: { events: { id: string }[] } }).store.events.map((e) => e.id);
    expect(stored()).toContain(event.id);
    await until(() => !stored().includes(event.id), 'the purge written');
    await emu.close();
  });

  it('writes what the restore itself changed: a timer due in the file fires at start and the file follows', async () => {
    const file = join(tempDir(), 'state.json');
    const maker = createEmulator({ clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
    const snapshot = await maker.snapshot();
    const event = snapshot.store.events[0]!;
    snapshot.timers.timers.push({ seq: snapshot.timers.next_seq, due: Date.parse(snapshot.clock.now), kind: 'event.purge', payload: { event_id: event.id } });
    snapshot.timers.next_seq += 1;
    writeFileSync(file, JSON.stringify(snapshot));
    const emu = createEmulator({ stateFile: file });
    expect(emu.emulator.defaultWorkspace.store.events.has(event.id)).toBe(false);
    const stored = () => (JSON.parse(readFileSync(file, 'utf8')) as { store: { events: { id: string }[] } }).store.events.map((e) => e.id);
    await until(() => !stored().includes(event.id), 'the purge at start written');
    await emu.close();
  });

  it('throws a StateFileError naming a bad file, and leaves it as it was', () => {
    const file = join(tempDir(), 'state.json');
    writeFileSync(file, '[1, 2');
    expect(() => createEmulator({ stateFile: file })).toThrow(StateFileError);
    expect(() => createEmulator({ stateFile: file })).toThrow(`state file ${file} is not valid JSON`);
    expect(readFileSync(file, 'utf8')).toBe('[1, 2');
    const fresh = createEmulator({ stateFile: file, resetState: true });
    expect(fresh.emulator.defaultWorkspace.store.onboardings.size).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe('onboarding-emulator-snapshot');
  });
});
