import { performance } from 'node:perf_hooks';
/**
 * The workspace clock. Domain code asks this for "now"; it is the only place (with the
 * timer queue) that reads the wall clock, so a test can freeze or fast-forward time.
 */
export type ClockMode = 'realtime' | 'frozen';

export interface ClockOptions {
  mode?: ClockMode | undefined;
  /** Emulated time at creation; defaults to the wall time. */
  start?: Date | string | number | undefined;
  /** Wall-clock source; injectable so the clock itself can be tested. */
  wallNow?: (() => number) | undefined;
}

export class ClockError extends Error {}

const YEAR_MS = 365.25 * 86_400_000;

/**
 * The instants a workspace clock can show, and the longest single advance. The end leaves a
 * century below year 10000, so every date the API writes (a link expiring after now, a step
 * planned up to 100 years ahead) stays a four-digit ISO year, and every timer due time a valid
 * Date. A move outside is refused before anything changes.
 */
export const CLOCK_LIMITS = {
  min: Date.UTC(2000, 0, 1),
  max: Date.UTC(9899, 11, 31, 23, 59, 59, 999),
  maxAdvanceMs: 100 * YEAR_MS,
} as const;

const CLOCK_RANGE_TEXT = '2000-01-01T00:00:00.000Z to 9899-12-31T23:59:59.999Z';

/** An instant as ISO 8601 where Date can write it, else as the number it is. */
function describeInstant(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

/** Why an instant cannot be a workspace's now, or null when it can. */
export function instantOutOfRange(ms: number): string | null {
  if (!Number.isFinite(ms)) return 'not a valid instant';
  if (ms < CLOCK_LIMITS.min || ms > CLOCK_LIMITS.max) return `the clock stays within ${CLOCK_RANGE_TEXT}`;
  return null;
}

export class Clock {
  readonly mode: ClockMode;
  private readonly wallNow: () => number;
  /** realtime: emulated = wall + offset. frozen: emulated = offset. */
  private offsetMs: number;

  constructor(options: ClockOptions = {}) {
    this.mode = options.mode ?? 'realtime';
    this.wallNow = options.wallNow ?? (() => Date.now());
    const wall = this.wallNow();
    const start = options.start === undefined ? wall : toMs(options.start);
    const problem = instantOutOfRange(start);
    if (problem) throw new ClockError(`start ${describeInstant(start)}: ${problem}`);
    this.offsetMs = this.mode === 'frozen' ? start : start - wall;
  }

  nowMs(): number {
    return this.mode === 'frozen' ? this.offsetMs : this.wallNow() + this.offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  iso(): string {
    return this.now().toISOString();
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new ClockError('the clock only moves forward');
    const problem = instantOutOfRange(this.nowMs() + ms);
    if (problem) throw new ClockError(problem);
    this.offsetMs += ms;
  }

  /**
   * Moves forward to an instant if it is still ahead, else stays. For running timers: a realtime
   * clock may already have passed a due time between two reads of the wall clock.
   */
  catchUp(instant: number): void {
    const ahead = instant - this.nowMs();
    if (ahead > 0) this.offsetMs += ahead;
  }

  /** Jumps to an instant; never backwards, so timers and expiries stay consistent. */
  set(instant: Date | string | number): void {
    this.advance(toMs(instant) - this.nowMs());
  }
}

function toMs(value: Date | string | number): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new ClockError(`not a valid instant: ${String(value)}`);
  return ms;
}

/** Wall-clock seconds, for what needs real time: the `t` of a webhook signature. */
export function wallClockSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Wall-clock milliseconds, for what happens outside any workspace's clock (a receiver check's messages). */
export function wallClockMs(): number {
  return Date.now();
}

/** A monotonic reading in milliseconds, to measure how long something real took (never an instant). */
export function monotonicMs(): number {
  return performance.now();
}
