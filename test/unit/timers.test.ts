import { describe, expect, it, vi } from 'vitest';
import { TimerQueue, type Timer } from '../../src/core/timers.js';
import { Workspace } from '../../src/core/workspace.js';
import { STORE_LAYOUT } from '../../src/resources/collections.js';
import { WORKSPACE_PARTS } from '../../src/workspace-parts.js';
import type { TimerHandlers } from '../../src/core/workspace.js';
import { parseDuration } from '../../src/core/durations.js';
import { until, within } from '../support/wait.js';

const START = Date.parse('2026-10-05T09:00:00Z');
const MIN = 60_000;

function frozenWorkspace(handlers: TimerHandlers) {
  return new Workspace({ id: 'ws_test', keySuffix: '', collections: STORE_LAYOUT, parts: WORKSPACE_PARTS, clock: { mode: 'frozen', start: START } }, handlers);
}

describe('TimerQueue', () => {
  it('orders by due time, then by creation order', () => {
    const q = new TimerQueue();
    q.schedule('c', 30);
    q.schedule('a', 10);
    q.schedule('b', 10);
    q.schedule('d', 5);
    const order: string[] = [];
    for (let t = q.takeDue(100); t; t = q.takeDue(100)) order.push(t.kind);
    expect(order).toEqual(['d', 'a', 'b', 'c']);
  });

  it('keeps order over many random timers', () => {
    const q = new TimerQueue();
    let x = 7;
    for (let i = 0; i < 2_000; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      q.schedule('t', x % 500, { i });
    }
    let last: Timer | undefined;
    for (let t = q.takeDue(1_000); t; t = q.takeDue(1_000)) {
      if (last) expect(last.due < t.due || (last.due === t.due && last.seq < t.seq)).toBe(true);
      last = t;
    }
    expect(q.size).toBe(0);
  });

  it('does not hand out a cancelled timer or one not yet due', () => {
    const q = new TimerQueue();
    const a = q.schedule('a', 10);
    q.schedule('b', 20);
    q.cancel(a.seq);
    expect(q.size).toBe(1);
    expect(q.takeDue(15)).toBeUndefined();
    expect(q.takeDue(20)?.kind).toBe('b');
  });

  it('places a timer scheduled with a reserved sequence where it was reserved, among timers due with it', () => {
    const q = new TimerQueue();
    const first = q.reserve();
    const second = q.reserve();
    q.schedule('made between', 10);
    // Scheduled in the opposite order of their reservations, they still fire in that order.
    q.schedule('second', 10, {}, second);
    q.schedule('first', 10, {}, first);
    expect([q.takeDue(10), q.takeDue(10), q.takeDue(10)].map((t) => t?.kind)).toEqual(['first', 'second', 'made between']);
    expect(q.schedule('after', 10).seq).toBeGreaterThan(second);
  });
});

describe('Scheduler', () => {
  it('runs each timer at its own instant, including timers scheduled while advancing', async () => {
    const seen: string[] = [];
    const ws = frozenWorkspace({
      tick: (w, t) => {
        seen.push(`${t.payload.n}@${w.now()}`);
        if (Number(t.payload.n) < 3) w.scheduler.schedule('tick', w.clock.nowMs() + 10 * MIN, { n: Number(t.payload.n) + 1 });
      },
    });
    ws.scheduler.schedule('tick', START + 5 * MIN, { n: 1 });
    const fired = await ws.scheduler.advanceBy(60 * MIN);
    expect(seen).toEqual(['1@2026-10-05T09:05:00.000Z', '2@2026-10-05T09:15:00.000Z', '3@2026-10-05T09:25:00.000Z']);
    expect(fired.map((f) => f.due_at)).toEqual(['2026-10-05T09:05:00.000Z', '2026-10-05T09:15:00.000Z', '2026-10-05T09:25:00.000Z']);
    expect(ws.now()).toBe('2026-10-05T10:00:00.000Z');
  });

  it('leaves timers beyond the target waiting, and runs a timer due exactly at the target', async () => {
    const ws = frozenWorkspace({});
    ws.scheduler.schedule('x', START + 90 * MIN);
    ws.scheduler.schedule('y', START + 91 * MIN);
    expect((await ws.scheduler.advanceBy(90 * MIN)).map((f) => f.kind)).toEqual(['x']);
    expect(ws.timers.size).toBe(1);
  });

  it('with 0 runs only what is due now, and never moves backwards', async () => {
    const ws = frozenWorkspace({});
    ws.scheduler.schedule('now', START);
    expect((await ws.scheduler.advanceBy(0)).map((f) => f.kind)).toEqual(['now']);
    await expect(ws.scheduler.advanceTo(START - 1)).rejects.toThrow(/backwards/);
  });

  it('a timer whose handler throws is reported in fired with its error; the rest of the batch and the clock go on', async () => {
    const seen: string[] = [];
    const ws = frozenWorkspace({
      boom: () => {
        throw new RangeError('Invalid time value');
      },
      ok: (_w, t) => void seen.push(String(t.payload.n)),
    });
    ws.scheduler.schedule('ok', START + MIN, { n: 1 });
    ws.scheduler.schedule('boom', START + MIN);
    ws.scheduler.schedule('ok', START + MIN, { n: 2 });
    ws.scheduler.schedule('ok', START + 2 * MIN, { n: 3 });
    const fired = await ws.scheduler.advanceBy(5 * MIN);
    expect(fired.map((f) => [f.kind, f.error])).toEqual([['ok', undefined], ['boom', 'Invalid time value'], ['ok', undefined], ['ok', undefined]]);
    expect(seen).toEqual(['1', '2', '3']);
    expect(ws.now()).toBe('2026-10-05T09:05:00.000Z');
    // The same when the timer runs as part of a request (runDue): no throw.
    ws.scheduler.schedule('boom', ws.clock.nowMs());
    expect(ws.scheduler.runDue()).toMatchObject([{ kind: 'boom', error: 'Invalid time value' }]);
  });

  it('keeps a due time no Date can hold at the last instant a Date holds, so it can be described and never fires', async () => {
    const ws = frozenWorkspace({});
    ws.scheduler.schedule('far', 1e300);
    ws.scheduler.schedule('nan', Number.NaN);
    expect(ws.timers.entries().timers.map((t) => t.due)).toEqual([8.64e15, 8.64e15]);
    expect(await ws.scheduler.advanceBy(100 * 365 * 24 * 60 * MIN)).toEqual([]);
  });

  it('fires timers by itself in realtime mode when their time comes', () => {
    // The wall clock and its timers faked: the realtime clock reads Date.now(), its alarm is a setTimeout.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    try {
      const seen: number[] = [];
      const ws = new Workspace({ id: 'ws_rt', keySuffix: '', collections: STORE_LAYOUT, parts: WORKSPACE_PARTS }, { ping: () => void seen.push(1) });
      ws.scheduler.schedule('ping', ws.clock.nowMs() + 30);
      vi.advanceTimersByTime(29);
      expect(seen).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(seen).toEqual([1]);
      ws.scheduler.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('parseDuration', () => {
  it.each([
    [0, 0], [60, 60_000], [1.5, 1_500], ['90', 90_000], ['90m', 90 * MIN], ['1h30m', 90 * MIN], ['2d', 2 * 86_400_000],
    ['45s', 45_000], ['500ms', 500], ['1w', 7 * 86_400_000], ['PT90M', 90 * MIN], ['PT1H30M', 90 * MIN], ['P30D', 30 * 86_400_000],
    ['P1DT12H', 36 * 3_600_000], ['PT0.5S', 500], ['337h', 337 * 3_600_000],
  ])('reads %j as %d ms', (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });

  it.each([[-1], [''], ['abc'], ['P'], ['PT'], ['10 parsecs'], ['1h junk'], [null], [{}], [Number.NaN]])('refuses %j', (input) => {
    expect(parseDuration(input)).toBeNull();
  });
});

describe('a realtime clock that moves between two reads', () => {
  // Regression: the wall clock advanced between computing "now" and checking it, and the
  // scheduler refused to "move backwards": a GET answered 500 under load.
  it('runs due timers on every request without refusing', async () => {
    let wall = START;
    const wallNow = () => (wall += 1); // every read is a millisecond later
    const seen: string[] = [];
    const ws = new Workspace({ id: 'ws_rt2', keySuffix: '', collections: STORE_LAYOUT, parts: WORKSPACE_PARTS, clock: { mode: 'realtime', wallNow } }, { t: (_w, timer) => void seen.push(String(timer.payload.n)) });
    ws.scheduler.schedule('t', wall + 5, { n: 1 });
    ws.scheduler.schedule('t', wall + 6, { n: 2 });
    for (let i = 0; i < 20; i++) expect(() => ws.scheduler.runDue()).not.toThrow();
    expect(seen).toEqual(['1', '2']);
    await expect(ws.scheduler.advanceBy(1_000)).resolves.toBeDefined();
    ws.scheduler.stop();
  });
});

describe('asynchronous timer work', () => {
  it('finishes before the clock moves past it, so the timers it schedules run at their own instants', async () => {
    const log: string[] = [];
    // Each run is a delivery still waiting for its receiver until the test lets it finish.
    const running: { startedAt: string; finish: () => void }[] = [];
    const ws = frozenWorkspace({
      slow: async (w, t) => {
        await new Promise<void>((finish) => running.push({ startedAt: w.now(), finish }));
        log.push(`${t.payload.n}@${w.now()}`);
        if (Number(t.payload.n) < 3) w.scheduler.schedule('slow', t.due + MIN, { n: Number(t.payload.n) + 1 });
        return { outcome: 'done' };
      },
    });
    ws.scheduler.schedule('slow', START, { n: 1 });
    const advancing = ws.scheduler.advanceBy(10 * MIN);
    for (let i = 0; i < 3; i++) {
      await until(() => running.length > i, `run ${i + 1} to start`, 2_000);
      // The advance waits on the run: the clock stays at the instant it started.
      expect(ws.now()).toBe(running[i]!.startedAt);
      running[i]!.finish();
    }
    const fired = await advancing;
    expect(log).toEqual(['1@2026-10-05T09:00:00.000Z', '2@2026-10-05T09:01:00.000Z', '3@2026-10-05T09:02:00.000Z']);
    expect(fired.map((f) => f.outcome)).toEqual(['done', 'done', 'done']);
  });

  it('starts timers due at one instant together', async () => {
    let running = 0;
    let peak = 0;
    // No run finishes before all five have started: run one after another, the first would wait forever.
    let allStarted!: () => void;
    const together = new Promise<void>((resolve) => (allStarted = resolve));
    const ws = frozenWorkspace({
      slow: async () => {
        peak = Math.max(peak, ++running);
        if (running === 5) allStarted();
        await together;
        running--;
      },
    });
    for (let i = 0; i < 5; i++) ws.scheduler.schedule('slow', START + MIN);
    await within(ws.scheduler.advanceBy(MIN), 2_000, 'the five runs, started together');
    expect(peak).toBe(5);
  });
});
