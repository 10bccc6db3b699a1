/**
 * Durations for the clock control: seconds as a number, "90m", "1h30m", "2d", "45s", "500ms",
 * or ISO 8601 ("PT1H30M", "P30D", "P1DT12H"). Returns milliseconds, or null when unreadable.
 */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

export function parseDuration(input: unknown): number | null {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? Math.round(input * 1000) : null;
  if (typeof input !== 'string' || input.trim() === '') return null;
  const text = input.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const iso = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(text);
  if (iso && text.toUpperCase() !== 'P' && !/T$/i.test(text)) {
    const [, w, d, h, m, s] = iso;
    return Math.round(Number(w ?? 0) * UNIT_MS.w! + Number(d ?? 0) * UNIT_MS.d! + Number(h ?? 0) * UNIT_MS.h! + Number(m ?? 0) * UNIT_MS.m! + Number(s ?? 0) * 1000);
  }
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)/gi)];
  if (!parts.length || parts.map((p) => p[0]).join('').replace(/\s/g, '') !== text.replace(/\s/g, '')) return null;
  return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * UNIT_MS[p[2]!.toLowerCase()]!, 0));
}
