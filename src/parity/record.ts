import { KEY_IN_TEXT, maskJson } from '../core/mask.js';
import type { CorpusEvents, CorpusStep, Flow, Provenance } from './corpus.js';
import { HEADERS_BY_SHAPE, HEADERS_BY_VALUE, MADE_ID, REQUEST_HEADERS } from './volatile.js';

/**
 * Exchanges as they passed (keys, ids and secrets in them) made into a flow a corpus can hold:
 * each key replaced by the role that holds it, each id a later request reuses bound by name to
 * the answer it came from (and every id a 201 answer made), only the headers that matter kept,
 * and every secret masked. A flow that would still hold something like a key is refused.
 */
export interface Exchange {
  method: string;
  /** Path and query. */
  path: string;
  /** Request headers by lower-case name, Authorization included. */
  headers: Record<string, string>;
  body?: unknown;
  /** status 0: no answer came; with abandoned_after_ms, the client stopped waiting after that long. */
  response: { status: number; headers: Record<string, string>; body?: unknown; abandoned_after_ms?: number };
}

export class RecordingRefused extends Error {}

const ID_IN_TEXT = new RegExp(`\\b${MADE_ID}\\b`, 'g');
const WHOLE_ID = new RegExp(`^${MADE_ID}$`);
const NAMES: Record<string, string> = { onb: 'onboarding', emp: 'employee', org: 'organization', loc: 'location', doc: 'document', wh: 'webhook', whd: 'delivery', evt: 'event', rvs: 'review_session' };

/** Every string in a JSON value with its path (`$.data[0].id`). */
function* strings(value: unknown, path = '$'): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${path}[${i}]`);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) yield* strings(v, `${path}.${k}`);
}

const pick = (headers: Record<string, string>, names: readonly string[]): Record<string, string> | undefined => {
  const kept = Object.fromEntries(names.filter((n) => headers[n] !== undefined).map((n) => [n, headers[n]!]));
  return Object.keys(kept).length ? kept : undefined;
};

function replaceIds<T>(value: T, names: Map<string, string>): T {
  if (typeof value === 'string') return value.replace(ID_IN_TEXT, (id) => (names.has(id) ? `{{${names.get(id)}}}` : id)) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => replaceIds(v, names)) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceIds(v, names)])) as T;
  return value;
}

export interface RecordOptions {
  flow: string;
  description?: string;
  provenance: Provenance;
  /** The role of a key (`owner`, `readonly`); by default the first key seen is `owner`, the next `key2`, ... */
  roleOf?: (key: string) => string | undefined;
  /** Events as GET /v1/events lists them, oldest first: those of the onboardings the flow made are kept. */
  events?: unknown[];
}

export function recordFlow(exchanges: readonly Exchange[], options: RecordOptions): Flow {
  const roles = new Map<string, string>();
  const roleOf = (key: string): string => {
    const given = options.roleOf?.(key);
    if (given) return given;
    if (!roles.has(key)) roles.set(key, roles.size === 0 ? 'owner' : `key${roles.size + 1}`);
    return roles.get(key)!;
  };
  // Where each id was first answered: step and path.
  const origin = new Map<string, { step: number; path: string }>();
  const names = new Map<string, string>();
  const binds: Record<string, string>[] = exchanges.map(() => ({}));
  const taken = new Map<string, number>();
  // Names of what the flow made (201): its events are the onboardings' the flow created, not those it only read.
  const created = new Set<string>();
  const bind = (id: string): string => {
    const known = names.get(id);
    if (known) return known;
    const at = origin.get(id)!;
    const base = NAMES[id.slice(0, id.indexOf('_'))] ?? id.slice(0, id.indexOf('_'));
    const n = (taken.get(base) ?? 0) + 1;
    taken.set(base, n);
    const name = n === 1 ? base : `${base}_${n}`;
    names.set(id, name);
    binds[at.step]![name] = at.path;
    return name;
  };
  exchanges.forEach((x, i) => {
    // What this request reuses of earlier answers is bound where it was answered.
    for (const [, text] of strings([x.path, x.body, pick(x.headers, REQUEST_HEADERS)])) for (const id of text.match(ID_IN_TEXT) ?? []) if (origin.has(id)) bind(id);
    for (const [path, text] of strings(x.response.body)) if (WHOLE_ID.test(text) && !origin.has(text)) origin.set(text, { step: i, path });
    const made = (x.response.body as { id?: unknown } | undefined)?.id;
    if (x.response.status === 201 && typeof made === 'string' && origin.has(made)) created.add(bind(made));
  });
  // A body that sends an earlier answer back whole (a snapshot restored) is bound to it, not written again.
  const answers = exchanges.map((x) => (x.response.body !== null && typeof x.response.body === 'object' ? JSON.stringify(x.response.body) : undefined));
  const sentBack = new Map<number, string>();
  exchanges.forEach((x, i) => {
    if (x.body === null || typeof x.body !== 'object') return;
    const text = JSON.stringify(x.body);
    const from = answers.slice(0, i).lastIndexOf(text);
    if (from < 0) return;
    const segment = exchanges[from]!.path.split('?')[0]!.split('/').pop()!.replace(/[^A-Za-z0-9_]/g, '_');
    const base = /^[A-Za-z_]/.test(segment) ? segment : 'answer';
    const n = (taken.get(base) ?? 0) + 1;
    taken.set(base, n);
    const name = n === 1 ? base : `${base}_${n}`;
    binds[from]![name] = '$';
    sentBack.set(i, `{{${name}}}`);
  });
  const steps: CorpusStep[] = exchanges.map((x, i) => {
    const auth = x.headers.authorization;
    const key = auth === undefined ? 'none' : x.response.status === 401 ? 'invalid' : roleOf(auth.replace(/^Bearer\s+/i, ''));
    const headers = pick(x.headers, REQUEST_HEADERS);
    const step: CorpusStep = {
      request: {
        method: x.method,
        path: replaceIds(x.path, names),
        ...(headers ? { headers: replaceIds(headers, names) } : {}),
        ...(x.body === undefined ? {} : { body: sentBack.get(i) ?? replaceIds(x.body, names) }),
        ...(key === 'owner' ? {} : { key }),
      },
      response: {
        status: x.response.status,
        ...withHeaders(x.response.headers),
        ...(x.response.body === undefined ? {} : { body: x.response.body }),
        ...(x.response.abandoned_after_ms === undefined ? {} : { abandoned_after_ms: x.response.abandoned_after_ms }),
      },
    };
    if (Object.keys(binds[i]!).length) step.bind = binds[i]!;
    return step;
  });
  const made = [...names].filter(([id, name]) => id.startsWith('onb_') && created.has(name));
  const ids = new Set(made.map(([id]) => id));
  const events: CorpusEvents | undefined = options.events && made.length
    ? { for: made.map(([, name]) => name), data: options.events.filter((e) => ids.has(String((e as { data?: { onboarding_id?: unknown } }).data?.onboarding_id))) }
    : undefined;
  const flow: Flow = maskJson({
    flow: options.flow,
    ...(options.description ? { description: options.description } : {}),
    provenance: options.provenance,
    steps,
    ...(events ? { events } : {}),
  });
  const text = JSON.stringify(flow);
  const leak = KEY_IN_TEXT.exec(text);
  if (leak) throw new RecordingRefused(`the flow ${options.flow} would hold something like a key (${leak[0].slice(0, 9)}…); nothing was written`);
  return flow;
}

function withHeaders(headers: Record<string, string>): { headers?: Record<string, string> } {
  const kept = pick(headers, [...HEADERS_BY_VALUE, ...HEADERS_BY_SHAPE]);
  return kept ? { headers: kept } : {};
}
