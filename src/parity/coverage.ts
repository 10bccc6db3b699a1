import { EVENT_TYPES } from '../resources/events/events.model.js';
import type { Flow } from './corpus.js';

/**
 * What a corpus exercises, against what the spec has: its /v1 operations (from the OpenAPI
 * document the target publishes, or the emulator's), its event types, and the error codes it
 * names. Counted from the recordings, so the index says what the corpus can check, whatever a
 * replay then finds.
 */
export interface CoverageSet {
  covered: string[];
  missing: string[];
  /** Covered as a percentage of the spec's, rounded down. */
  percent: number;
}

export interface Coverage {
  endpoints: CoverageSet;
  event_types: CoverageSet;
  error_codes: CoverageSet;
  /** Codes the corpus's answers hold beyond those the spec names. */
  other_error_codes: string[];
}

/**
 * The codes the spec names for particular conditions. It states that the complete list is not
 * shown; the emulator's other codes are its own reading, so they are counted apart.
 */
const SPEC_ERROR_CODES = ['subscription_required', 'api_approvals_disabled', 'idempotency_in_progress', 'metadata_personal_data', 'return_url_not_allowed', 'events_invalid', 'field_not_updatable'] as const;

const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;

/** The document's /v1 operations as `METHOD /v1/path/{param}`. */
export function operationsOf(document: { paths?: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(document.paths ?? {})
    .filter(([path]) => path.startsWith('/v1/'))
    .flatMap(([path, item]) => METHODS.filter((m) => item[m] !== undefined).map((m) => `${m.toUpperCase()} ${path}`));
}

/** A request's operation: its path's segments matched to a template's (`{{x}}` and ids fill `{param}`). */
export function operationOf(method: string, path: string, operations: readonly string[]): string | undefined {
  const segments = path.split('?')[0]!.split('/');
  return operations.find((op) => {
    const [m, template] = op.split(' ') as [string, string];
    if (m !== method) return false;
    const parts = template.split('/');
    return parts.length === segments.length && parts.every((p, i) => p.startsWith('{') || p === segments[i]);
  });
}

const set = (all: readonly string[], seen: Set<string>): CoverageSet => {
  const covered = all.filter((x) => seen.has(x));
  return { covered, missing: all.filter((x) => !seen.has(x)), percent: all.length ? Math.floor((covered.length * 100) / all.length) : 100 };
};

export function coverageOf(flows: readonly Flow[], operations: readonly string[]): Coverage {
  const ops = new Set<string>();
  const types = new Set<string>();
  const codes = new Set<string>();
  for (const flow of flows) {
    for (const step of flow.steps) {
      const op = operationOf(step.request.method, step.request.path, operations);
      if (op) ops.add(op);
      const code = (step.response.body as { error?: { code?: unknown } } | undefined)?.error?.code;
      if (typeof code === 'string') codes.add(code);
      // A ping is no event of GET /v1/events: a test message sent and answered is its recording.
      if (op === 'POST /v1/webhooks/{id}/test' && step.response.status < 300) types.add('ping');
    }
    for (const event of (flow.events?.data ?? []) as { type?: unknown }[]) if (typeof event.type === 'string') types.add(event.type);
  }
  const spec = new Set<string>(SPEC_ERROR_CODES);
  return {
    endpoints: set(operations, ops),
    event_types: set(EVENT_TYPES, types),
    error_codes: set(SPEC_ERROR_CODES, codes),
    other_error_codes: [...codes].filter((c) => !spec.has(c)).sort(),
  };
}
