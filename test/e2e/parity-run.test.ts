import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, WELL_KNOWN_KEYS, type InProcessEmulator } from '../../src/index.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { readCorpus, SHIPPED_CORPUS } from '../../src/parity/corpus.js';
import { operationsOf } from '../../src/parity/coverage.js';
import { parityCtrf, parityJunit, paritySummary, runParity, type ParityReport } from '../../src/parity/parity.js';

/**
 * The shipped corpus replayed against the emulator: nothing drifts whatever the seed; and
 * through a proxy that changes one thing in the answers, that one thing is reported as drift at
 * its JSON path, and nothing else is.
 */
const started: InProcessEmulator[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
  for (const em of started.splice(0)) await em.close();
});

const flows = readCorpus(SHIPPED_CORPUS);
const operations = operationsOf(buildOpenApi());

async function emulator(seed: string): Promise<string> {
  const em = createEmulator({ seed });
  started.push(em);
  return (await em.start(0, '127.0.0.1')).url;
}

const replay = (url: string): Promise<ParityReport> => runParity(flows, { url, keys: WELL_KNOWN_KEYS }, operations);

interface Mutation {
  /** Which answers it changes: method and path (query left out). */
  when: RegExp;
  /** Every matching answer, not only the first. */
  every?: boolean;
  change(answer: { status: number; body: Record<string, unknown> }): void;
}

/** A proxy to `target` applying one mutation to the JSON answers it names. */
async function mutating(target: string, mutation: Mutation): Promise<string> {
  let applied = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // A target that drops the connection (a request whose client stopped waiting) is dropped on here too.
      (async () => {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length' && k !== 'connection')) as Record<string, string>;
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const upstream = await fetch(new URL(req.url!, target), { method: req.method!, headers, ...(body ? { body } : {}) });
        const answer = { status: upstream.status, body: JSON.parse((await upstream.text()) || 'null') as Record<string, unknown> };
        if (mutation.when.test(`${req.method} ${req.url!.split('?')[0]}`) && (mutation.every || !applied)) {
          applied = true;
          mutation.change(answer);
        }
        const passed = Object.fromEntries(['content-type', 'service-version', 'request-id', 'idempotent-replayed', 'location', 'retry-after'].flatMap((h) => { const v = upstream.headers.get(h); return v === null ? [] : [[h, v]]; }));
        res.writeHead(answer.status, passed);
        res.end(JSON.stringify(answer.body));
      })().catch(() => res.destroy());
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** Every drift of a report as `flow step path`. */
const drifts = (report: ParityReport): string[] =>
  report.flows.flatMap((f) => f.steps.flatMap((s) => (s.verdict.kind === 'drift' ? s.verdict.drifts.map((d) => `${f.flow} ${s.name.split(' ')[0]} ${d.path}`) : [])));

const ONBOARDING = /^GET \/v1\/onboardings\/onb_[A-Za-z0-9]+$/;
const EVENTS = /^GET \/v1\/events$/;
const events = (a: { body: Record<string, unknown> }) => a.body.data as { type: string; data: Record<string, unknown> }[];
/** The first event of a type swapped with the event of the same onboarding just before it. */
function swapBefore(list: { type: string; data: Record<string, unknown> }[], type: string): void {
  const i = list.findIndex((e) => e.type === type);
  if (i < 0) return;
  const j = list.slice(0, i).findLastIndex((e) => e.data.onboarding_id === list[i]!.data.onboarding_id);
  if (j >= 0) [list[j], list[i]] = [list[i]!, list[j]!];
}

const MUTATIONS: [string, Mutation, string[]][] = [
  ['a field renamed', { when: ONBOARDING, change: (a) => { a.body.ref = a.body.reference; delete a.body.reference; } }, ['onboarding-life-cycle 4 $.reference', 'onboarding-life-cycle 4 $.ref']],
  ['a type changed', { when: ONBOARDING, change: (a) => { a.body.data_version = String(a.body.data_version); } }, ['onboarding-life-cycle 4 $.data_version']],
  ['a new required field', { when: ONBOARDING, change: (a) => { a.body.cost_centre = 'required'; } }, ['onboarding-life-cycle 4 $.cost_centre']],
  ['200 turned 201', { when: /^PATCH /, change: (a) => { a.status = 201; } }, ['onboarding-life-cycle 5 status']],
  ['a missing event', { when: EVENTS, every: true, change: (a) => { const d = events(a); const i = d.findIndex((e) => e.type === 'onboarding.terms_changed'); if (i >= 0) d.splice(i, 1); } }, ['terms-changed events events[*].type']],
  ['events reordered', { when: EVENTS, every: true, change: (a) => swapBefore(events(a), 'onboarding.terms_changed') }, ['terms-changed events events[*].type']],
  ['an error code changed', { when: /^POST \/v1\/onboardings\/onb_[A-Za-z0-9]+\/cancel$/, every: true, change: (a) => { if (a.status === 409) (a.body.error as Record<string, unknown>).code = 'already_cancelled'; } }, ['cancel 3 $.error.code']],
  ['an extra webhook field', { when: EVENTS, every: true, change: (a) => { for (const e of events(a)) (e.data as Record<string, unknown>).channel = 'api'; } }, []],
  ['an endpoint removed', { when: /^GET \/v1\/organization$/, change: (a) => { a.status = 404; a.body = { error: { type: 'not_found', code: 'route_not_found', message: 'No such route.' } }; } }, ['onboarding-life-cycle 1 status']],
  ['an enum value changed', { when: ONBOARDING, change: (a) => { a.body.status = 'waiting_for_employee'; } }, ['onboarding-life-cycle 4 $.status']],
];

describe('parity run', () => {
  it('replays the shipped corpus against the emulator with two seeds: nothing drifts, every step checked', async () => {
    for (const seed of ['parity-a', 'parity-b']) {
      const report = await replay(await emulator(seed));
      expect(drifts(report), seed).toEqual([]);
      expect(report.counts.unchecked, seed).toBe(0);
      expect(report.counts.match).toBe(report.counts.steps);
      expect(report.ok).toBe(true);
    }
  }, 60_000);

  it('against a target that is no emulator: set-up steps and what follows them could not be checked, the rest is held to the recording', async () => {
    const notEmulator: Mutation = { when: /^GET \/_emulator\/health$/, every: true, change: (a) => { a.status = 404; } };
    const report = await replay(await mutating(await emulator('parity-n'), notEmulator));
    expect(drifts(report)).toEqual([]);
    const flow = (name: string) => report.flows.find((f) => f.flow === name)!;
    // The webhooks flow starts with a set-up: every step after it, unchecked, with the reason.
    const webhooks = flow('webhooks').steps;
    expect(webhooks.every((s) => s.verdict.kind === 'unchecked')).toBe(true);
    expect(webhooks[0]!.verdict).toMatchObject({ why: expect.stringContaining('control API') as unknown });
    expect(webhooks[1]!.verdict).toMatchObject({ why: expect.stringContaining('follows set-up step 1') as unknown });
    // A flow on /v1 alone is checked whole.
    expect(flow('cancel').steps.every((s) => s.verdict.kind === 'match')).toBe(true);
    expect(report.ok).toBe(true);
  }, 30_000);

  it('shows no key or secret in a report, even where the drift is a secret', async () => {
    const secrets: string[] = [];
    const leak: Mutation = { when: /^POST \/v1\/webhooks$/, every: true, change: (a) => { if (typeof a.body.secret === 'string') { secrets.push(a.body.secret); a.body.secret_copy = a.body.secret; a.body.key = WELL_KNOWN_KEYS.owner; } } };
    const report = await replay(await mutating(await emulator('parity-s'), leak));
    expect(drifts(report)).toContain('webhooks 2 $.secret_copy');
    expect(secrets.length).toBeGreaterThan(0);
    for (const text of [JSON.stringify(report), paritySummary(report), parityJunit(report), JSON.stringify(parityCtrf(report))]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toContain(WELL_KNOWN_KEYS.owner);
    }
  }, 30_000);

  it.each(MUTATIONS)('reports %s as drift at its path, and nothing else', async (_, mutation, expected) => {
    const report = await replay(await mutating(await emulator('parity-m'), mutation));
    const found = drifts(report);
    if (expected.length) expect(found).toEqual(expected);
    else {
      // An added field in every event: each event of each flow reports it at its own path, and a list of events by its items' shape.
      expect(found.length).toBeGreaterThan(0);
      expect(found.filter((d) => !/ events events\[\d+\]\.data\.channel$| \$\.data\[\d+\]\.data\.channel$/.test(d))).toEqual([]);
      expect(found).toContain('terms-changed events events[0].data.channel');
    }
    expect(report.ok).toBe(false);
  }, 30_000);
});
