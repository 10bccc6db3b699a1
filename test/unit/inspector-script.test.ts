import { describe, expect, it } from 'vitest';
import { browserScript } from '../../src/pages/browser-scripts.js';
import { inspectorPageRoutes } from '../../src/pages/inspector/inspector.routes.js';
import { INSPECTOR_PATH } from '../../src/pages/inspector/inspector.paths.js';
import { PAGE_LIMIT_MAX } from '../../src/resources/common.schemas.js';
import { InspectEventsQuery } from '../../src/control/inspect.schemas.js';

/**
 * The browser script (src/browser/inspector.ts) is the one place its constants are defined;
 * what the server states or allows about them is held to the compiled script it serves.
 */
function constant(name: string): number {
  const match = new RegExp(`\\bconst ${name} = (\\d+);`).exec(browserScript('inspector'));
  if (!match) throw new Error(`the inspector's script defines no ${name}`);
  return Number(match[1]);
}

describe("the inspector's script", () => {
  it.each(['inspector', 'explorer'] as const)('%s: read once and served as compiled, a classic script with no module syntax', (name) => {
    const script = browserScript(name);
    expect(browserScript(name)).toBe(script);
    expect(script).not.toMatch(/^\s*(import|export)\b|\brequire\(|\bexports\b/m);
  });

  it('pages "Show all" at the largest page the paged read allows', () => {
    expect(constant('DELIVERY_PAGE')).toBe(PAGE_LIMIT_MAX);
  });

  it('asks for a page of events the events read allows', () => {
    const limit = (InspectEventsQuery.properties as { limit: { minimum: number; maximum: number } }).limit;
    expect(constant('EVENT_PAGE')).toBeGreaterThanOrEqual(limit.minimum);
    expect(constant('EVENT_PAGE')).toBeLessThanOrEqual(limit.maximum);
  });

  it('polls as often as its OpenAPI description says', () => {
    const description = inspectorPageRoutes.find((r) => r.path === INSPECTOR_PATH)?.description;
    expect(description).toContain(`polling every ${constant('POLL_MS') / 1000} seconds`);
  });
});
