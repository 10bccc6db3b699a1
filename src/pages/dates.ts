/**
 * Dates and times on a person's pages, written as people read them ("5 October 2026 at 11:00
 * CEST"), not as ISO instants. The service is Dutch (BSN, Dutch IBANs), so times are in the
 * Netherlands' zone, named after the time so nobody has to guess; English month names match
 * the pages' language.
 */
const ZONE = 'Europe/Amsterdam';

// Made on first use: building a formatter loads the zone's data, which start-up need not pay for.
let formats: { instant: Intl.DateTimeFormat; date: Intl.DateTimeFormat } | undefined;
const format = () =>
  (formats ??= {
    instant: new Intl.DateTimeFormat('en-GB', {
      timeZone: ZONE, day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short',
    }),
    date: new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' }),
  });

/** An instant (`2026-10-05T09:00:00.000Z`) as `5 October 2026 at 11:00 CEST`; anything unreadable as it is. */
export function readableInstant(iso: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  const parts = Object.fromEntries(format().instant.formatToParts(ms).map((p) => [p.type, p.value]));
  return `${parts.day} ${parts.month} ${parts.year} at ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
}

/** A calendar date (`1990-04-23`) as `23 April 1990`; anything else as it is. */
export function readableDate(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isFinite(ms) ? format().date.format(ms) : date;
}
