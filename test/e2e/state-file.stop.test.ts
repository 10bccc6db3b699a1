import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBody, KEYS } from '../support/harness.js';
import { receiver, serve } from '../support/serve.js';

/**
 * SIGTERM on `serve --state-file` with work in flight: the server stops taking connections,
 * the requests in flight are answered, the state file is written and the process exits 0.
 * Webhook attempts still running at the drain deadline are cut and stored as due again.
 */
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

const headers = { Authorization: `Bearer ${KEYS.owner}`, 'Content-Type': 'application/json' };
const FROZEN = ['--clock', 'frozen', '--start-time', '2026-10-05T09:00:00Z', '--log-level', 'warn'];

interface Delivery {
  id: string;
  status: string;
  attempts: number;
  timer_seq: number | null;
  body: string;
}
/** The deliveries of the onboarding made here (the fixtures may hold others). */
const ours = (deliveries: Delivery[]) => deliveries.filter((d) => d.body.includes('"reference":"stop"'));
const deliveriesIn = (file: string) => ours((JSON.parse(readFileSync(file, 'utf8')) as { store: { deliveries: Delivery[] } }).store.deliveries);

/** An address at `target`, then an onboarding: its first attempt starts at once and the advance waits for it. */
async function addressAndEvent(url: string, target: string): Promise<void> {
  expect((await fetch(`${url}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: target, events: ['onboarding.created'] }) })).status).toBe(201);
  expect((await fetch(`${url}/v1/onboardings`, { method: 'POST', headers, body: JSON.stringify(createBody({ reference: 'stop' })) })).status).toBe(201);
}

const advance = (url: string) => fetch(`${url}/_emulator/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"by":"1s"}' });

describe('serve: SIGTERM with work in flight', () => {
  it('answers an advance that waits on a slow receiver, writes the state file, exits 0', async () => {
    let got = 0;
    const slow = await receiver((_body, _req, res) => {
      got++;
      setTimeout(() => res.writeHead(200).end(), 2_000);
    });
    try {
      const file = join(mkdtempSync(join(tmpdir(), 'state-stop-')), 'state.json');
      const s = await serve(['--state-file', file, ...FROZEN], children);
      await addressAndEvent(s.url, `${slow.url}/slow`);
      const answer = advance(s.url);
      const until = Date.now() + 5_000;
      while (got === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(got).toBe(1);
      // The create started the attempt; give the advance time to reach the server, where it waits for that attempt.
      await new Promise((r) => setTimeout(r, 300));
      s.child.kill('SIGTERM');
      const res = await answer;
      expect(res.status).toBe(200);
      expect(await s.exited).toBe(0);
      expect(deliveriesIn(file)).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 1 })]);
      // A new connection after the stop began is refused: the port is closed.
      await expect(fetch(`${s.url}/_emulator/health`)).rejects.toThrow();
    } finally {
      await slow.close();
    }
  });

  it('cuts an attempt that outlasts --drain-timeout-ms, stores it as due again, and the restart makes it', async () => {
    const held: ServerResponse[] = [];
    let hanging = true;
    let delivered = 0;
    const hang = await receiver((_body, _req, res) => {
      if (hanging) held.push(res);
      else {
        delivered++;
        res.writeHead(200).end();
      }
    });
    try {
      const file = join(mkdtempSync(join(tmpdir(), 'state-stop-')), 'state.json');
      const args = ['--state-file', file, ...FROZEN];
      const s = await serve([...args, '--drain-timeout-ms', '300'], children);
      await addressAndEvent(s.url, `${hang.url}/hang`);
      const answer = advance(s.url).then((r) => r.status, () => 'cut');
      const until = Date.now() + 5_000;
      while (held.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(held).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 100));
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      expect(await answer).toBe('cut'); // the advance was still waiting on the attempt at the deadline
      const stored = deliveriesIn(file);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ status: 'pending', attempts: 0 });
      expect(stored[0]!.timer_seq).not.toBeNull();

      hanging = false;
      const again = await serve(args, children);
      const res = await advance(again.url);
      expect(res.status).toBe(200);
      expect(delivered).toBe(1);
      const after = (await (await fetch(`${again.url}/_emulator/snapshot`)).json()) as { store: { deliveries: Delivery[] } };
      expect(ours(after.store.deliveries)).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 1 })]);
    } finally {
      for (const res of held) res.destroy();
      await hang.close();
    }
  });
});
