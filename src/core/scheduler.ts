import { ClockError } from './clock.js';
import type { Clock } from './clock.js';
import { WallAlarm, type Timer, type TimerQueue } from './timers.js';
import { inSpan, NO_TRACER, tracer, within, type Span } from './tracing.js';

/** Facts a timer reports when it fired (a delivery's outcome, say). */
export type Facts = Record<string, unknown>;

/**
 * What a timer of one kind does when it fires. Most handlers are synchronous; a webhook
 * attempt returns a promise, which the scheduler waits for before the clock moves past it.
 */
export type TimerHandler<W> = (ws: W, timer: Timer) => Facts | void | Promise<Facts | void>;
export type TimerHandlers<W> = Readonly<Record<string, TimerHandler<W>>>;

/**
 * What a scheduler moves: a workspace, read through its current clock and timer queue at each
 * call (a restore replaces both), and told after each timer that it may have changed.
 * Generic, so the scheduler needs no import of the workspace.
 */
export interface SchedulerHost {
  readonly clock: Clock;
  readonly timers: TimerQueue;
  readonly activity: { notify(): void };
}

export interface Fired {
  kind: string;
  due_at: string;
  [fact: string]: unknown;
}

/** A timer as the clock reports it, in `fired` and as the next one: kind, due time, then its payload. */
export function describeTimer(timer: Timer): Fired {
  return { kind: timer.kind, due_at: new Date(timer.due).toISOString(), ...timer.payload };
}

/**
 * Moves a workspace's clock. Advancing is event-driven: it jumps from timer to timer, running
 * each at its own instant (timers scheduled while advancing included), never ticking through
 * the minutes between, so 30 days with nothing due costs nothing. Timers due at the same
 * instant start together; their asynchronous work (HTTP deliveries) finishes before the clock
 * moves on, so a retry they schedule lands at its exact instant.
 */
export class Scheduler<W extends SchedulerHost> {
  private readonly alarm = new WallAlarm();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly ws: W, private readonly handlers: TimerHandlers<W>) {}

  /**
   * Runs every timer due by `targetMs`, waits for their work, then leaves the clock at `targetMs`.
   * With tracing on, in a span of its own: the events its timers emit join its trace.
   */
  advanceTo(targetMs: number): Promise<Fired[]> {
    const { clock } = this.ws;
    if (!tracer().enabled) return this.advance(targetMs, NO_TRACER.start(''));
    const attributes = { 'emulator.clock.from': clock.iso(), 'emulator.clock.to': new Date(targetMs).toISOString(), 'emulator.clock.mode': clock.mode };
    return inSpan('clock.advance', { attributes }, async (span) => {
      const fired = await this.advance(targetMs, span);
      span.set({ 'emulator.timers.fired': fired.length });
      return fired;
    });
  }

  /** `span`: the advance's, current while each batch of timers starts (their steps and events join it). */
  private async advance(targetMs: number, span: Span): Promise<Fired[]> {
    const { clock } = this.ws;
    // A realtime clock passes any instant read a moment ago; only a frozen clock can be asked to go back.
    if (targetMs < clock.nowMs() && clock.mode === 'frozen') throw new ClockError('the clock never moves backwards');
    const fired: Fired[] = [];
    for (;;) {
      await this.settle();
      const batch = this.takeInstant(Math.max(targetMs, clock.nowMs()));
      if (!batch.length) break;
      fired.push(...within(span, () => this.start(batch)));
    }
    clock.catchUp(targetMs);
    this.rearm();
    return fired;
  }

  advanceBy(ms: number): Promise<Fired[]> {
    return this.advanceTo(this.ws.clock.nowMs() + ms);
  }

  /**
   * Starts what is due now without waiting for it (a request must not wait for deliveries):
   * called before and after every request, and by the realtime alarm.
   */
  runDue(): Fired[] {
    const fired: Fired[] = [];
    for (let batch = this.takeInstant(this.ws.clock.nowMs()); batch.length; batch = this.takeInstant(this.ws.clock.nowMs())) {
      fired.push(...this.start(batch));
    }
    this.rearm();
    return fired;
  }

  /** Timer work still running (a webhook attempt waiting for its receiver). */
  get running(): number {
    return this.inFlight.size;
  }

  /** Waits until all asynchronous timer work in flight has finished. */
  async settle(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  schedule(kind: string, dueMs: number, payload: Record<string, unknown> = {}, seq?: number): Timer {
    const timer = this.ws.timers.schedule(kind, dueMs, payload, seq);
    this.rearm();
    return timer;
  }

  stop(): void {
    this.alarm.disarm();
  }

  /** Every timer due at the earliest instant not after `limit`. */
  private takeInstant(limit: number): Timer[] {
    const first = this.ws.timers.takeDue(limit);
    if (!first) return [];
    const batch = [first];
    for (let next = this.ws.timers.takeDue(first.due); next; next = this.ws.timers.takeDue(first.due)) batch.push(next);
    return batch;
  }

  /** Runs a batch with the clock at its instant (or later, if a realtime clock passed it). */
  private start(batch: Timer[]): Fired[] {
    this.ws.clock.catchUp(batch[0]!.due);
    return batch.map((timer) => {
      const entry = describeTimer(timer);
      let result: ReturnType<TimerHandler<W>> | undefined;
      try {
        result = this.handlers[timer.kind]?.(this.ws, timer);
      } catch (err) {
        // One timer that cannot run is reported where it fired; it must not fail the request
        // (or the alarm) that ran it, nor leave the rest of its batch unrun.
        this.ws.activity.notify();
        return Object.assign(entry, { error: err instanceof Error ? err.message : String(err) });
      }
      if (result instanceof Promise) {
        const work = result.then(
          (facts) => void Object.assign(entry, facts ?? {}),
          (err: unknown) => void Object.assign(entry, { error: err instanceof Error ? err.message : String(err) }),
        );
        this.inFlight.add(work);
        // Its outcome (a delivery's) is a change of its own, made long after the timer fired.
        void work.finally(() => {
          this.inFlight.delete(work);
          this.ws.activity.notify();
        });
      } else if (result) {
        Object.assign(entry, result);
      }
      this.ws.activity.notify();
      return entry;
    });
  }

  /** In realtime mode, wake up for the next timer; a frozen clock waits to be advanced. */
  private rearm(): void {
    if (this.ws.clock.mode !== 'realtime') return;
    const next = this.ws.timers.peek();
    if (!next) return this.alarm.disarm();
    this.alarm.arm(next.due - this.ws.clock.nowMs(), () => this.runDue());
  }
}
