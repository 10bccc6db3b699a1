import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeAjv } from '../core/ajv.js';

/**
 * The parity corpus (docs/parity.md): a folder of flows, one JSON file each (`*.flow.json`). A
 * flow is a sequence of requests with the answers a target gave them, the events the flow
 * caused as GET /v1/events lists them, and where it was recorded. Ids a later request uses are
 * written as `{{name}}`, bound by name to an earlier answer (`bind`), never by value; keys are
 * written as the role that holds them (`key`), never as the key.
 */
export interface Provenance {
  /** When it was recorded (ISO 8601). */
  recorded_at: string;
  /** The base URL it was recorded against, without credentials. */
  target: string;
  /** The Service-Version the target answered with. */
  service_version?: string;
  /** What recorded it: `onboarding-emulator parity proxy 0.1.0`, or `hand-written`. */
  recorder: string;
}

export interface CorpusRequest {
  method: string;
  /** The path with its query, `{{name}}` where a bound value goes. */
  path: string;
  /** Headers that matter (Idempotency-Key, Service-Version, Service-Organization, Content-Type), by lower-case name. */
  headers?: Record<string, string>;
  body?: unknown;
  /** The role whose key is sent (default `owner`); `none` sends no key, `invalid` one that exists nowhere. */
  key?: string;
}

export interface CorpusResponse {
  /** 0: no answer: the target closed the connection (a lost answer, rehearsed with a fault), or the client stopped waiting. */
  status: number;
  /** With status 0: the client stopped waiting after this long (a timeout it rehearses); a replay waits as long. */
  abandoned_after_ms?: number;
  /** Headers that matter (volatile.ts), by lower-case name. */
  headers?: Record<string, string>;
  body?: unknown;
}

export interface CorpusStep {
  /** What the step does, for the report. */
  name?: string;
  request: CorpusRequest;
  response: CorpusResponse;
  /** Names bound to this answer: `{ "onboarding": "$.id" }`. */
  bind?: Record<string, string>;
}

export interface CorpusEvents {
  /** Bound names of the onboardings whose events these are. */
  for: string[];
  /** The events, oldest first, as GET /v1/events lists them. */
  data: unknown[];
}

export interface Flow {
  flow: string;
  description?: string;
  provenance: Provenance;
  steps: CorpusStep[];
  events?: CorpusEvents;
}

/**
 * A step on the emulator's control API: a flow's set-up (the clock, what an employee or payroll
 * does, a fault), replayed only against an emulator and held to its status alone.
 */
export const isSetUp = (path: string): boolean => path.startsWith('/_emulator/');

const FLOW_FILE = /\.flow\.json$/;

/** A flow file's schema: what a corpus must hold, checked when one is read. */
export const FLOW_SCHEMA = {
  type: 'object',
  required: ['flow', 'provenance', 'steps'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    flow: { type: 'string', pattern: '^[a-z0-9][a-z0-9._-]{0,79}$' },
    description: { type: 'string', maxLength: 2000 },
    provenance: {
      type: 'object',
      required: ['recorded_at', 'target', 'recorder'],
      additionalProperties: false,
      properties: { recorded_at: { type: 'string', format: 'date-time' }, target: { type: 'string', maxLength: 2048 }, service_version: { type: 'string', maxLength: 64 }, recorder: { type: 'string', maxLength: 200 } },
    },
    steps: {
      type: 'array',
      minItems: 1,
      maxItems: 200,
      items: {
        type: 'object',
        required: ['request', 'response'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', maxLength: 200 },
          request: {
            type: 'object',
            required: ['method', 'path'],
            additionalProperties: false,
            properties: {
              method: { enum: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD'] },
              path: { type: 'string', pattern: '^/', maxLength: 4096 },
              headers: { type: 'object', additionalProperties: { type: 'string', maxLength: 4096 }, maxProperties: 20 },
              body: {},
              key: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,39}$' },
            },
          },
          response: {
            type: 'object',
            required: ['status'],
            additionalProperties: false,
            properties: {
              status: { type: 'integer', minimum: 0, maximum: 599, not: { exclusiveMinimum: 0, exclusiveMaximum: 100 } },
              abandoned_after_ms: { type: 'integer', minimum: 1, maximum: 600_000 },
              headers: { type: 'object', additionalProperties: { type: 'string', maxLength: 4096 }, maxProperties: 20 },
              body: {},
            },
          },
          bind: { type: 'object', additionalProperties: { type: 'string', pattern: '^\\$' }, maxProperties: 20 },
        },
      },
    },
    events: {
      type: 'object',
      required: ['for', 'data'],
      additionalProperties: false,
      properties: { for: { type: 'array', items: { type: 'string' }, minItems: 1 }, data: { type: 'array', maxItems: 500 } },
    },
  },
} as const;

let validate: ReturnType<ReturnType<typeof makeAjv>['compile']> | undefined;

/** A corpus file's problems, one line each, or none. */
export function flowProblems(value: unknown): string[] {
  validate ??= makeAjv(false).compile(FLOW_SCHEMA);
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is not valid'}`);
}

export class CorpusError extends Error {}

/** At most this many flows in a corpus folder, and this many bytes a file (docs/configuration.md "Limits"). */
const CORPUS_LIMITS = { flows: 500, fileBytes: 2 * 1024 * 1024 } as const;

/** Every flow in a folder, by file name; a file that is no flow is an error naming it. */
export function readCorpus(dir: string): Flow[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => FLOW_FILE.test(n)).sort();
  } catch (err) {
    throw new CorpusError(`cannot read the corpus folder ${dir}: ${(err as Error).message}`);
  }
  if (names.length === 0) throw new CorpusError(`${dir} holds no flow (*.flow.json)`);
  if (names.length > CORPUS_LIMITS.flows) throw new CorpusError(`${dir} holds ${names.length} flows; a corpus holds at most ${CORPUS_LIMITS.flows}`);
  const flows: Flow[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const text = readFileSync(join(dir, name));
    if (text.length > CORPUS_LIMITS.fileBytes) throw new CorpusError(`${name} is ${text.length} bytes; a flow file is at most ${CORPUS_LIMITS.fileBytes}`);
    let value: unknown;
    try {
      value = JSON.parse(text.toString('utf8'));
    } catch (err) {
      throw new CorpusError(`${name} is not JSON: ${(err as Error).message}`);
    }
    const problems = flowProblems(value);
    if (problems.length) throw new CorpusError(`${name} is no flow: ${problems.join('; ')}`);
    const flow = value as Flow;
    if (seen.has(flow.flow)) throw new CorpusError(`${name}: a second flow named ${flow.flow}`);
    seen.add(flow.flow);
    flows.push(flow);
  }
  return flows;
}

/** The corpus the package ships: every /v1 operation, event type and named error code, recorded against the emulator. */
export const SHIPPED_CORPUS = fileURLToPath(new URL('../../parity/corpus/', import.meta.url));
