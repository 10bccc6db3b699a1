import { ClockError } from './clock.js';
import { WallAlarm, type Timer } from './timers.js';
import type { Workspace } from './workspace.js';

/** What a timer of one kind does when it fires; it may report extra facts for the caller. */
export type TimerHandler = (ws: Workspace, timer: Timer) => Record<string, unknown> | void;
export type TimerHandlers = Readonly<Record<string, TimerHandler>>;

export interface Fired {
  kind: string;
  due_at: string;
  [fact: string]: unknown;
}

/**
 * Moves a workspace's clock. Advancing is event-driven: it jumps from timer to timer, running
 * each at its own instant (timers scheduled while advancing included), never ticking through
 * the minutes between, so 30 days with nothing due costs nothing.
 */
export class Scheduler {
  private readonly alarm = new WallAlarm();

  constructor(private readonly ws: Workspace, private readonly handlers: TimerHandlers) {}

  /** Runs every timer due by `targetMs`, then leaves the clock at `targetMs`. */
  advanceTo(targetMs: number): Fired[] {
    const { clock } = this.ws;
    // A realtime clock passes any instant read a moment ago; only a frozen clock can be asked to go back.
    if (targetMs < clock.nowMs() && clock.mode === 'frozen') throw new ClockError('the clock never moves backwards');
    const fired = this.runUntil(() => Math.max(targetMs, clock.nowMs()));
    clock.catchUp(targetMs);
    this.rearm();
    return fired;
  }

  advanceBy(ms: number): Fired[] {
    return this.advanceTo(this.ws.clock.nowMs() + ms);
  }

  /** Runs what is due now (a realtime clock moves by itself between requests). */
  runDue(): Fired[] {
    const fired = this.runUntil(() => this.ws.clock.nowMs());
    this.rearm();
    return fired;
  }

  /** Each timer runs with the clock at its due time (or later, if a realtime clock passed it). */
  private runUntil(limit: () => number): Fired[] {
    const { clock, timers } = this.ws;
    const fired: Fired[] = [];
    for (let timer = timers.takeDue(limit()); timer; timer = timers.takeDue(limit())) {
      clock.catchUp(timer.due);
      const facts = this.handlers[timer.kind]?.(this.ws, timer) ?? {};
      fired.push({ kind: timer.kind, due_at: new Date(timer.due).toISOString(), ...timer.payload, ...facts });
    }
    return fired;
  }

  schedule(kind: string, dueMs: number, payload: Record<string, unknown> = {}): Timer {
    const timer = this.ws.timers.schedule(kind, dueMs, payload);
    this.rearm();
    return timer;
  }

  /** In realtime mode, wake up for the next timer; a frozen clock waits to be advanced. */
  private rearm(): void {
    if (this.ws.clock.mode !== 'realtime') return;
    const next = this.ws.timers.peek();
    if (!next) return this.alarm.disarm();
    this.alarm.arm(next.due - this.ws.clock.nowMs(), () => this.runDue());
  }

  stop(): void {
    this.alarm.disarm();
  }
}
