import axe from 'axe-core';
import type { Frame, Page } from 'playwright-core';

/**
 * axe-core run inside a page or frame of the test browser. The script is injected through
 * Playwright's evaluate (a DevTools evaluation, which the pages' Content-Security-Policy does
 * not govern: it admits no script at all, yet axe runs), not through @axe-core/playwright,
 * which needs a newer Node than the one supported.
 */
const AXE_SOURCE = axe.source;

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'] as const;

type AxeImpact = 'minor' | 'moderate' | 'serious' | 'critical' | null;

export interface AxeViolation {
  id: string;
  impact: AxeImpact;
  help: string;
  /** The failing elements: their CSS selector and a line of why. */
  nodes: { target: string; summary: string }[];
}

/** What the injected axe exposes, as far as it is used here (the tests have no DOM types). */
interface AxeInPage {
  run(context: unknown, options: unknown): Promise<{
    violations: { id: string; impact?: AxeImpact; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
  }>;
}

/** Every violation axe finds on what `target` shows now (a frame's own document only). */
export async function axeViolations(target: Page | Frame): Promise<AxeViolation[]> {
  const present = await target.evaluate(() => 'axe' in globalThis);
  if (!present) await target.evaluate(AXE_SOURCE);
  return target.evaluate(async (tags) => {
    const inPage = (globalThis as unknown as { axe: AxeInPage }).axe;
    const result = await inPage.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
      iframes: false,
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(' '), summary: n.failureSummary ?? '' })),
    }));
  }, [...AXE_TAGS]);
}

/** Serious and critical: what no page may have. */
export const isBlocking = (v: AxeViolation): boolean => v.impact === 'serious' || v.impact === 'critical';

/** `id (impact) ×count` per violation, for a failure message or a log line. */
export const describeViolations = (violations: readonly AxeViolation[]): string =>
  violations.map((v) => `${v.id} (${v.impact ?? 'none'}) ×${v.nodes.length}: ${v.nodes.map((n) => n.target).join(', ')}`).join('; ') || 'none';
