import { describe, expect, it } from 'vitest';
import { AUTO_DISABLE_AFTER, MAX_ATTEMPTS, RETRY_MINUTES, retryDelayMs } from '../../src/delivery/schedule.js';

const MIN = 60_000;

describe('retry schedule', () => {
  it('holds the spec figures', () => {
    expect(RETRY_MINUTES).toEqual([1, 5, 30, 120, 360, 720, 1440]);
    expect(MAX_ATTEMPTS).toBe(8);
    expect(AUTO_DISABLE_AFTER).toBe(10);
    expect(Object.isFrozen(RETRY_MINUTES)).toBe(true);
  });

  it.each([
    [1, 1 * MIN],
    [2, 5 * MIN],
    [3, 30 * MIN],
    [4, 120 * MIN],
    [5, 360 * MIN],
    [6, 720 * MIN],
    [7, 1440 * MIN],
    [8, null],
    [9, null],
    [100, null],
  ])('after %i failed attempts: %s ms (null: dead)', (attempts, delay) => {
    expect(retryDelayMs(attempts)).toBe(delay);
  });

  it('refuses counts that are not whole and positive', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => retryDelayMs(bad)).toThrow(RangeError);
  });

  it('places every attempt of an always-failing delivery after the previous failed one', () => {
    const start = Date.parse('2026-10-05T09:00:00Z');
    const attempts = [start];
    for (let made = 1; ; made++) {
      const delay = retryDelayMs(made);
      if (delay === null) break;
      attempts.push(attempts[attempts.length - 1]! + delay);
    }
    expect(attempts).toHaveLength(MAX_ATTEMPTS);
    expect(attempts.map((t) => (t - start) / MIN)).toEqual([0, 1, 6, 36, 156, 516, 1236, 2676]);
    expect(new Date(attempts[MAX_ATTEMPTS - 1]!).toISOString()).toBe('2026-10-07T05:36:00.000Z');
  });
});
