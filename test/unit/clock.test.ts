import { describe, expect, it } from 'vitest';
import { Clock, ClockError } from '../../src/core/clock.js';
import { createRandom } from '../../src/core/random.js';
import { createIds } from '../../src/core/ids.js';

describe('Clock', () => {
  it('stands still when frozen until advanced', () => {
    let wall = 1_000;
    const clock = new Clock({ mode: 'frozen', start: '2026-10-01T00:00:00Z', wallNow: () => wall });
    wall += 60_000;
    expect(clock.iso()).toBe('2026-10-01T00:00:00.000Z');
    clock.advance(90 * 60_000);
    expect(clock.iso()).toBe('2026-10-01T01:30:00.000Z');
  });

  it('follows the wall clock plus an offset in realtime mode', () => {
    let wall = Date.parse('2026-01-01T00:00:00Z');
    const clock = new Clock({ mode: 'realtime', start: '2026-10-01T00:00:00Z', wallNow: () => wall });
    wall += 5_000;
    expect(clock.iso()).toBe('2026-10-01T00:00:05.000Z');
    clock.advance(3_600_000);
    expect(clock.iso()).toBe('2026-10-01T01:00:05.000Z');
  });

  it('jumps to an instant but never backwards', () => {
    const clock = new Clock({ mode: 'frozen', start: '2026-10-01T00:00:00Z' });
    clock.set('2026-10-02T00:00:00Z');
    expect(clock.iso()).toBe('2026-10-02T00:00:00.000Z');
    expect(() => clock.set('2026-10-01T12:00:00Z')).toThrow(ClockError);
    expect(() => clock.advance(-1)).toThrow(ClockError);
    expect(() => clock.set('not a date')).toThrow(ClockError);
    expect(clock.iso()).toBe('2026-10-02T00:00:00.000Z');
  });
});

describe('seeded ids', () => {
  it('repeat for the same seed, differ for another, and carry the prefix', () => {
    const a = createIds(createRandom('s'));
    const b = createIds(createRandom('s'));
    const c = createIds(createRandom('t'));
    const seqA = [a.id('onb'), a.token(), a.code()];
    expect([b.id('onb'), b.token(), b.code()]).toEqual(seqA);
    expect(c.id('onb')).not.toBe(seqA[0]);
    expect(seqA[0]).toMatch(/^onb_[0-9A-Za-z]{20}$/);
    expect(seqA[2]).toMatch(/^\d{6}$/);
  });

  it('spread evenly enough that 10,000 ids do not collide', () => {
    const ids = createIds(createRandom(1));
    const seen = new Set(Array.from({ length: 10_000 }, () => ids.id('evt')));
    expect(seen.size).toBe(10_000);
  });

  it('fork into independent sequences', () => {
    const root = createRandom('x');
    const one = createIds(root.fork('a')).id('ws');
    const two = createIds(root.fork('b')).id('ws');
    expect(one).not.toBe(two);
    expect(createIds(createRandom('x').fork('a')).id('ws')).toBe(one);
  });
});

describe('Clock range', () => {
  it('refuses a start before 2000 or after 9899, and an advance past the end of 9899', () => {
    expect(() => new Clock({ mode: 'frozen', start: '1970-01-01T00:00:00Z' })).toThrow(ClockError);
    expect(() => new Clock({ mode: 'frozen', start: 8.64e15 })).toThrow(/2000-01-01T00:00:00.000Z to 9899-12-31T23:59:59.999Z/);
    const clock = new Clock({ mode: 'frozen', start: '9899-12-31T00:00:00Z' });
    expect(() => clock.advance(86_400_000)).toThrow(ClockError);
    expect(clock.iso()).toBe('9899-12-31T00:00:00.000Z');
    clock.advance(86_400_000 - 1);
    expect(clock.iso()).toBe('9899-12-31T23:59:59.999Z');
  });
});
