/**
 * Text colours for an organization's brand colour, by WCAG 2 relative luminance: the brand
 * colour may be dark or light, and the text on it (or the brand colour as text on white) must
 * still reach the AA contrast of 4.5:1.
 */
const AA = 4.5;
const WHITE = '#fff';
const BLACK = '#000';
/** The page's own ink, for brand colours too light to be read as text on white. */
const INK = '#1b1b1b';

/** #rgb or #rrggbb (already checked by the caller) to its relative luminance. */
function luminance(hex: string): number {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((d) => d + d) : [hex.slice(1, 3), hex.slice(3, 5), hex.slice(5, 7)];
  const [r, g, b] = digits.map((d) => {
    const c = parseInt(d, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const ratio = (a: number, b: number): number => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

export interface AccentInks {
  /** Text on the brand colour: white or black, whichever contrasts more (always at least 4.58:1). */
  onAccent: string;
  /** The brand colour as text on white when it is dark enough, else the page's ink. */
  accentInk: string;
}

export function accentInks(accent: string): AccentInks {
  const l = luminance(accent);
  return {
    onAccent: ratio(l, 1) >= ratio(l, 0) ? WHITE : BLACK,
    accentInk: ratio(l, 1) >= AA ? accent : INK,
  };
}
