import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBody, KEYS } from '../support/harness.js';
import { receiver, serve, type Served } from '../support/serve.js';
import { within } from '../support/wait.js';

/**
 * `--state-file` under kill -9: concurrent clients write (create, PATCH metadata, hosted-link
 * renewal, webhook create and delete) while deliveries flow to a live receiver, the process is
 * killed at a random moment (once a random number of writes was answered in the round), restarted on the same file, and every write that was answered 2xx
 * must be there. Ids are watched across all rounds (answers, the receiver's messages, the
 * restored store): no id may name two different objects, also after a seeded restart.
 */
const ROUNDS = 10;
const WRITERS = 10;
const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

const headers = { Authorization: `Bearer ${KEYS.owner}`, 'Content-Type': 'application/json' };

interface Onboarding {
  reference: string;
  metadata: string;
  /** A write in flight at the kill: it may or may not have reached the file. */
  maybeMetadata?: string;
  token: string;
  maybeToken?: string;
}

interface Webhook {
  tag: string;
  deleted: boolean;
  maybeDeleted?: boolean;
}

interface Snapshot {
  store: {
    onboardings: { id: string; reference: string | null; metadata: Record<string, string>; hosted_link: { token: string } | null }[];
    webhooks: { id: string; url: string }[];
    events: { id: string; type: string }[];
  };
}

/** Everything acknowledged so far, and what every id seen so far names. */
class Ledger {
  readonly onboardings = new Map<string, Onboarding>();
  readonly webhooks = new Map<string, Webhook>();
  private readonly names = new Map<string, string>();
  acknowledged = 0;
  private readonly targets: { count: number; reached: () => void }[] = [];
  /** Acknowledged states looked for after the restarts, and those not found. */
  checked = 0;
  missing: string[] = [];
  conflicts: string[] = [];
  /** Answers other than the expected 2xx while the process ran: none may happen. */
  refusals: string[] = [];

  /** Records that `id` names `what`; a second, different name is a reused id. */
  name(id: string, what: string): void {
    const before = this.names.get(id);
    if (before === undefined) this.names.set(id, what);
    else if (before !== what) this.conflicts.push(`${id} named ${before} and then ${what}`);
  }

  get ids(): number {
    return this.names.size;
  }

  /** Counts a 2xx answer. */
  acknowledge(): void {
    this.acknowledged++;
    for (const t of this.targets.filter((t) => this.acknowledged >= t.count)) {
      this.targets.splice(this.targets.indexOf(t), 1);
      t.reached();
    }
  }

  /** Resolves as soon as `count` writes in all were acknowledged. */
  reached(count: number): Promise<void> {
    return new Promise((resolve) => (this.acknowledged >= count ? resolve() : this.targets.push({ count, reached: resolve })));
  }
}

const tokenOf = (hostedUrl: string) => hostedUrl.split('/').pop()!;

async function call(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** One client: writes in a loop until the process dies under it; each 2xx answer goes to the ledger. */
async function writer(url: string, ledger: Ledger, round: number, w: number, hookUrl: string): Promise<void> {
  const mine: string[] = [];
  let hook: string | null = null;
  for (let i = 0; ; i++) {
    const tag = `r${round}w${w}i${i}`;
    const pick = Math.random();
    try {
      if (pick < 0.35 || mine.length === 0) {
        const res = await call(url, 'POST', '/v1/onboardings', createBody({ reference: tag, metadata: { v: tag } }));
        if (res.status !== 201) throw new Error(`create answered ${res.status}`);
        const id = String(res.body.id);
        const token = tokenOf(String(res.body.hosted_url));
        ledger.name(id, `onboarding ${tag}`);
        ledger.name(token, `link of ${id}`);
        ledger.onboardings.set(id, { reference: tag, metadata: tag, token });
        ledger.acknowledge();
        mine.push(id);
      } else if (pick < 0.6) {
        const id = mine[Math.floor(Math.random() * mine.length)]!;
        const o = ledger.onboardings.get(id)!;
        o.maybeMetadata = tag;
        const res = await call(url, 'PATCH', `/v1/onboardings/${id}`, { metadata: { v: tag } });
        if (res.status !== 200) throw new Error(`PATCH answered ${res.status}`);
        Object.assign(o, { metadata: tag, maybeMetadata: undefined });
        ledger.acknowledge();
      } else if (pick < 0.8) {
        const id = mine[Math.floor(Math.random() * mine.length)]!;
        const o = ledger.onboardings.get(id)!;
        o.maybeToken = '(a link made in flight)';
        const res = await call(url, 'POST', `/v1/onboardings/${id}/hosted-link`, {});
        if (res.status !== 201) throw new Error(`hosted-link answered ${res.status}`);
        const token = tokenOf(String(res.body.hosted_url));
        ledger.name(token, `link of ${id}`);
        Object.assign(o, { token, maybeToken: undefined });
        ledger.acknowledge();
      } else if (hook === null) {
        const res = await call(url, 'POST', '/v1/webhooks', { url: `${hookUrl}/${tag}`, events: ['onboarding.cancelled'] });
        if (res.status !== 201) throw new Error(`webhook create answered ${res.status}: ${JSON.stringify(res.body)}`);
        hook = String(res.body.id);
        ledger.name(hook, `webhook ${tag}`);
        ledger.webhooks.set(hook, { tag, deleted: false });
        ledger.acknowledge();
      } else {
        const h = ledger.webhooks.get(hook)!;
        h.maybeDeleted = true;
        const res = await call(url, 'DELETE', `/v1/webhooks/${hook}`);
        if (res.status !== 200) throw new Error(`webhook delete answered ${res.status}`);
        Object.assign(h, { deleted: true, maybeDeleted: undefined });
        ledger.acknowledge();
        hook = null;
      }
    } catch (err) {
      // The process died under the request (or it answered an error): not acknowledged.
      if (err instanceof Error && /answered/.test(err.message)) ledger.refusals.push(err.message);
      return;
    }
  }
}

const OURS = /^r\d+w\d+i\d+$/;

/** Checks the restarted emulator against the ledger; a write in flight at the kill may have landed or not. */
async function check(s: Served, ledger: Ledger): Promise<void> {
  const res = await fetch(`${s.url}/_emulator/snapshot`);
  expect(res.status).toBe(200);
  const snap = (await res.json()) as Snapshot;
  for (const o of snap.store.onboardings) {
    if (o.reference && OURS.test(o.reference)) ledger.name(o.id, `onboarding ${o.reference}`);
    if (o.hosted_link) ledger.name(o.hosted_link.token, `link of ${o.id}`);
  }
  for (const w of snap.store.webhooks) {
    const tag = w.url.split('/').pop()!;
    if (OURS.test(tag)) ledger.name(w.id, `webhook ${tag}`);
  }
  const onboardings = new Map(snap.store.onboardings.map((o) => [o.id, o]));
  const hooks = new Set(snap.store.webhooks.map((w) => w.id));
  const miss = (what: string) => ledger.missing.push(what);
  for (const [id, expected] of ledger.onboardings) {
    ledger.checked += 3;
    const o = onboardings.get(id);
    if (!o) {
      miss(`onboarding ${id} (${expected.reference})`);
      ledger.onboardings.delete(id);
      continue;
    }
    if (o.reference !== expected.reference) miss(`reference of ${id}: ${o.reference}, acknowledged ${expected.reference}`);
    const metadata = o.metadata.v!;
    if (metadata !== expected.metadata && metadata !== expected.maybeMetadata) miss(`metadata of ${id}: ${metadata}, acknowledged ${expected.metadata}`);
    const token = o.hosted_link?.token ?? '';
    if (token !== expected.token && expected.maybeToken === undefined) miss(`hosted link of ${id}`);
    Object.assign(expected, { metadata, token, maybeMetadata: undefined, maybeToken: undefined });
  }
  for (const [id, expected] of ledger.webhooks) {
    ledger.checked++;
    const present = hooks.has(id);
    if (expected.maybeDeleted === undefined && present === expected.deleted) miss(`webhook ${id} (${expected.tag}) ${expected.deleted ? 'deleted' : 'made'}`);
    Object.assign(expected, { deleted: !present, maybeDeleted: undefined });
  }
}

describe('serve --state-file, killed with SIGKILL at random moments', () => {
  it(`keeps every acknowledged write and never reuses an id over ${ROUNDS} kills`, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'state-kill-')), 'state.json');
    const ledger = new Ledger();
    let messages = 0;
    const live = await receiver((body, _req, res) => {
      const m = JSON.parse(body) as { id: string; type: string; data: { onboarding_id: string; reference: string | null } };
      messages++;
      ledger.name(m.id, `event ${m.type} of ${m.data.onboarding_id}`);
      if (m.data.reference && OURS.test(m.data.reference)) ledger.name(m.data.onboarding_id, `onboarding ${m.data.reference}`);
      res.writeHead(200).end();
    });
    const args = ['--state-file', file, '--seed', 'kill-test', '--log-level', 'warn'];
    try {
      let s = await serve(args, children);
      let rounds = 0;
      // One address that takes every event, so deliveries run all the time.
      const all = await call(s.url, 'POST', '/v1/webhooks', { url: `${live.url}/all` });
      expect(all.status).toBe(201);
      const alive = String(all.body.id);
      for (let round = 1; round <= ROUNDS; round++) {
        // The kill comes after a random number of answered writes, from one per writer to twelve: the writes then in flight are at random stages.
        const target = ledger.acknowledged + WRITERS + Math.floor(Math.random() * 11 * WRITERS);
        const writers = Array.from({ length: WRITERS }, (_, w) => writer(s.url, ledger, round, w, live.url));
        // Writers that all stopped early (a refusal) end the wait too: the checks below report why.
        await within(Promise.race([ledger.reached(target), Promise.all(writers)]), 20_000, `${target - ledger.acknowledged} more acknowledged writes`);
        s.child.kill('SIGKILL');
        await s.exited;
        await Promise.all(writers);
        s = await serve(args, children);
        await check(s, ledger);
        rounds = round;
        if (ledger.missing.length || ledger.conflicts.length || ledger.refusals.length) break;
        // Addresses left by the last round would pile up towards the limit of 20: deleted (acknowledged deletes too).
        const listed = await call(s.url, 'GET', '/v1/webhooks?limit=100');
        for (const w of listed.body.data as { id: string }[]) {
          if (w.id === alive) continue;
          expect((await call(s.url, 'DELETE', `/v1/webhooks/${w.id}`)).status).toBe(200);
          const known = ledger.webhooks.get(w.id);
          if (known) known.deleted = true;
        }
      }
      s.child.kill('SIGTERM');
      await s.exited;
      console.log(
        `kill test: ${rounds} rounds, ${ledger.acknowledged} writes acknowledged, ${ledger.checked} acknowledged states checked, ` +
          `${ledger.checked - ledger.missing.length} found, ${ledger.missing.length} lost, ${ledger.ids} ids checked, ` +
          `${ledger.conflicts.length} reused, ${messages} webhook messages received`,
      );
      expect(ledger.missing.slice(0, 5)).toEqual([]);
      expect(ledger.conflicts.slice(0, 5)).toEqual([]);
      expect(ledger.refusals.slice(0, 5)).toEqual([]);
      expect(rounds).toBe(ROUNDS);
      expect(ledger.acknowledged).toBeGreaterThan(ROUNDS * WRITERS);
    } finally {
      await live.close();
    }
  }, 90_000);
});
