import { describe, expect, it } from 'vitest';
import { readableDate, readableInstant } from '../../src/pages/dates.js';

describe('dates on a person\'s pages', () => {
  it('writes an instant in the Netherlands\' time with its zone, summer and winter', () => {
    expect(readableInstant('2026-10-05T09:00:00.000Z')).toBe('5 October 2026 at 11:00 CEST');
    expect(readableInstant('2026-12-05T23:30:00Z')).toBe('6 December 2026 at 00:30 CET');
  });

  it('writes a calendar date with the month in words, whatever the zone', () => {
    expect(readableDate('1990-04-23')).toBe('23 April 1990');
    expect(readableDate('2026-01-01')).toBe('1 January 2026');
  });

  it('leaves what it cannot read as it is', () => {
    expect(readableInstant('soon')).toBe('soon');
    expect(readableDate('23-04-1990')).toBe('23-04-1990');
  });
});
