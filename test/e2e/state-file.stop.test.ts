import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBody, KEYS } from '../support/harness.js';
import { receiver, serve } from '../support/serve.js';
import { until } from '../support/wait.js';

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

/**
 * An address at `target`, then an onboarding: its first attempt starts at once, and once it is
 * over (the receiver refuses it) the retry waits a minute on the frozen clock.
 */
async function addressAndEvent(url: string, target: string): Promise<void> {
  expect((await fetch(`${url}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: target, events: ['onboarding.created'] }) })).status).toBe(201);
  expect((await fetch(`${url}/v1/onboardings`, { method: 'POST', headers, body: JSON.stringify(createBody({ reference: 'stop' })) })).status).toBe(201);
  expect((await fetch(`${url}/_emulator/wait?for=settled`)).status).toBe(200);
}

/** Moves the frozen clock; one of a minute fires the retry, and waits for its attempt: the receiver seeing it shows the advance is at the server. */
const advance = (url: string, by = '1s') => fetch(`${url}/_emulator/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ by }) });

/** Resolves once the server takes no new connection: its stop has begun. */
const stopBegun = (url: string) => until(() => fetch(`${url}/_emulator/health`).then(() => false, () => true), 'the port to close', 5_000);

describe('serve: SIGTERM with work in flight', () => {
  it('answers an advance that waits on a slow receiver, writes the state file, exits 0', async () => {
    // The first attempt is refused; the retry is held until the stop has begun (a receiver as slow as the test needs).
    const held: ServerResponse[] = [];
    let refused = false;
    const slow = await receiver((_body, _req, res) => {
      if (!refused) {
        refused = true;
        res.writeHead(500).end();
      } else held.push(res);
    });
    try {
      const file = join(mkdtempSync(join(tmpdir(), 'state-stop-')), 'state.json');
      const s = await serve(['--state-file', file, ...FROZEN], children);
      await addressAndEvent(s.url, `${slow.url}/slow`);
      const answer = advance(s.url, '1m');
      await until(() => held.length === 1, 'the retry at the receiver');
      s.child.kill('SIGTERM');
      // A new connection after the stop began is refused: the port is closed, while the advance is still waiting.
      await stopBegun(s.url);
      held[0]!.writeHead(200).end();
      const res = await answer;
      expect(res.status).toBe(200);
      expect(await s.exited).toBe(0);
      expect(deliveriesIn(file)).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 2 })]);
    } finally {
      await slow.close();
    }
  });

  it('cuts an attempt that outlasts --drain-timeout-ms, stores it as due again, and the restart makes it', async () => {
    // The first attempt is refused; the retry hangs past the drain deadline; after the restart, attempts succeed.
    const held: ServerResponse[] = [];
    let refused = false;
    let hanging = true;
    let delivered = 0;
    const hang = await receiver((_body, _req, res) => {
      if (!refused) {
        refused = true;
        res.writeHead(500).end();
      } else if (hanging) held.push(res);
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
      const answer = advance(s.url, '1m').then((r) => r.status, () => 'cut');
      await until(() => held.length === 1, 'the retry at the receiver');
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      expect(await answer).toBe('cut'); // the advance was still waiting on the attempt at the deadline
      const stored = deliveriesIn(file);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ status: 'failed', attempts: 1 }); // the refused first attempt; the cut one is not counted
      expect(stored[0]!.timer_seq).not.toBeNull();

      hanging = false;
      const again = await serve(args, children);
      const res = await advance(again.url);
      expect(res.status).toBe(200);
      expect(delivered).toBe(1);
      const after = (await (await fetch(`${again.url}/_emulator/snapshot`)).json()) as { store: { deliveries: Delivery[] } };
      expect(ours(after.store.deliveries)).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 2 })]);
    } finally {
      for (const res of held) res.destroy();
      await hang.close();
    }
  });
});
