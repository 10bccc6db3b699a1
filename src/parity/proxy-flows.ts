import { mkdirSync, readdirSync, writeFileSync, accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { EMULATOR_VERSION } from '../core/product.js';
import { wallClockMs } from '../core/clock.js';
import { WallAlarm } from '../core/timers.js';
import { FLOW_SCHEMA } from './corpus.js';
import { recordFlow, RecordingRefused, type Exchange } from './record.js';

/**
 * The exchanges the proxy saw, split into flows and written as a corpus: a flow is named by the
 * Parity-Flow header or, without one, numbered; it ends when another name comes, when no traffic
 * has passed for the gap, or when the proxy closes. Its events are then listed from the target.
 */
export const FLOW_NAME = new RegExp(FLOW_SCHEMA.properties.flow.pattern);

/** GET /v1/events read for a flow's events: pages of this many, at most this many pages. */
const EVENT_PAGE = { limit: 100, pages: 20 } as const;

interface OpenFlow {
  name: string;
  /** In the order the requests came; a slot stays undefined while its answer runs, or if it is not recorded. */
  slots: (Exchange | undefined)[];
  pending: Set<Promise<void>>;
  /** The idle gap's alarm: it ends the flow when it rings. */
  gap: WallAlarm;
}

export interface FlowSink {
  /** The flow this request belongs to (by its Parity-Flow header, or none) and a slot for its exchange. */
  join(name: string | undefined): {
    flow: string;
    settle(exchange: Exchange | undefined): void;
    /** Set when this request ended the flow before it: settled once that flow's events are read (its file written). */
    after?: Promise<void>;
  };
  /** Ends every open flow and writes it; the files written. */
  close(): Promise<string[]>;
}

export interface FlowSinkOptions {
  target: string;
  record?: string;
  gapMs: number;
  log: (line: string) => void;
  /** GET on the target with an Authorization: the answer's status and JSON body. */
  get: (path: string, authorization: string) => Promise<{ status: number; body: unknown }>;
  /** The role of each key, by role (as a replay takes them): `{ owner: 'hrs_test_...' }`. Other keys are named `key2`, `key3`, ... in the order they come, the same in every flow. */
  roles?: Readonly<Record<string, string>>;
}

/** The record folder made if missing, and proved writable; a reason when it is not. */
export function recordFolderProblem(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return undefined;
  } catch (err) {
    return `cannot write the record folder ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
  }
}

/** The target as provenance says it: no user, no password, no query. */
const bareTarget = (target: string): string => {
  const u = new URL(target);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, '')}`;
};

export function flowSink(options: FlowSinkOptions): FlowSink {
  let current: OpenFlow | undefined;
  const ending = new Set<Promise<void>>();
  const written: string[] = [];
  // One naming of keys for the whole session, so a role means the same key in every flow:
  // a key named by `roles` keeps its name; the first other key is `owner` unless a key seen
  // already holds that role, the next ones `key2`, `key3`, ...
  const named = new Map(Object.entries(options.roles ?? {}).map(([role, key]) => [key, role]));
  const given = new Map<string, string>();
  const seen = new Set<string>();
  const roleOf = (key: string): string => {
    let role = named.get(key) ?? given.get(key);
    if (role === undefined) {
      const free = (r: string) => !seen.has(r) && !Object.hasOwn(options.roles ?? {}, r);
      let n = 2;
      while (!free(`key${n}`)) n++;
      role = seen.has('owner') ? `key${n}` : 'owner';
      given.set(key, role);
    }
    seen.add(role);
    return role;
  };
  // Numbered flows go on after those the folder holds, so a second session adds to the first.
  let counter = options.record ? Math.max(0, ...readdirSync(options.record).map((n) => /^flow-(\d+)\.flow\.json$/.exec(n)?.[1]).filter(Boolean).map(Number)) : 0;

  const end = (flow: OpenFlow): Promise<void> => {
    flow.gap.disarm();
    if (current === flow) current = undefined;
    const done = (async () => {
      await Promise.all([...flow.pending]);
      await write(flow);
    })().catch((err: unknown) => options.log(`flow ${flow.name}: not written: ${(err as Error).message}`));
    ending.add(done);
    void done.finally(() => ending.delete(done));
    return done;
  };

  const arm = (flow: OpenFlow): void => {
    flow.gap.arm(options.gapMs, () => {
      if (flow.pending.size === 0) void end(flow);
    });
  };

  async function write(flow: OpenFlow): Promise<void> {
    const exchanges = flow.slots.filter((x): x is Exchange => x !== undefined);
    if (!options.record) return;
    if (exchanges.length === 0) {
      options.log(`flow ${flow.name}: nothing recorded, no file`);
      return;
    }
    const events = await eventsOf(exchanges, options);
    const serviceVersion = exchanges.map((x) => x.response.headers['service-version']).find((v) => v !== undefined);
    try {
      const recorded = recordFlow(exchanges, {
        flow: flow.name,
        roleOf,
        provenance: {
          recorded_at: new Date(wallClockMs()).toISOString(),
          target: bareTarget(options.target),
          ...(serviceVersion ? { service_version: serviceVersion } : {}),
          recorder: `onboarding-emulator parity proxy ${EMULATOR_VERSION}`,
        },
        ...(events ? { events } : {}),
      });
      const file = join(options.record, `${flow.name}.flow.json`);
      writeFileSync(file, `${JSON.stringify(recorded, null, 2)}\n`);
      written.push(file);
      options.log(`flow ${flow.name}: ${exchanges.length} steps${events ? `, ${events.length} events` : ''} written to ${file}`);
    } catch (err) {
      if (err instanceof RecordingRefused) options.log(`flow ${flow.name}: not written: ${err.message}`);
      else throw err;
    }
  }

  return {
    join(name) {
      const after = current && name !== undefined && current.name !== name ? end(current) : undefined;
      if (!current) {
        current = { name: name ?? `flow-${String(++counter).padStart(3, '0')}`, slots: [], pending: new Set(), gap: new WallAlarm() };
      }
      const flow = current;
      flow.gap.disarm();
      const index = flow.slots.push(undefined) - 1;
      let settle!: () => void;
      const pending = new Promise<void>((resolve) => (settle = resolve));
      flow.pending.add(pending);
      return {
        flow: flow.name,
        ...(after ? { after } : {}),
        settle(exchange) {
          flow.slots[index] = exchange;
          flow.pending.delete(pending);
          settle();
          if (current === flow && flow.pending.size === 0) arm(flow);
        },
      };
    },
    async close() {
      if (current) void end(current);
      while (ending.size) await Promise.all([...ending]);
      return written;
    },
  };
}

interface ListedEvent {
  created_at?: string;
  data?: { onboarding_id?: string };
}

/**
 * The events of the flow's onboardings, as GET /v1/events lists them, read with the key of the
 * flow's first authenticated request from a second before the earliest onboarding was made.
 */
async function eventsOf(exchanges: readonly Exchange[], options: FlowSinkOptions): Promise<unknown[] | undefined> {
  const onboardings = new Map<string, string>();
  for (const x of exchanges) {
    const body = x.response.body as { id?: unknown; created_at?: unknown; data?: unknown } | undefined;
    for (const o of [body, ...(Array.isArray(body?.data) ? (body.data as (typeof body)[]) : [])]) {
      if (typeof o?.id === 'string' && o.id.startsWith('onb_') && typeof o.created_at === 'string') onboardings.set(o.id, o.created_at);
    }
  }
  const authorization = exchanges.find((x) => x.headers.authorization !== undefined && x.response.status !== 401)?.headers.authorization;
  if (onboardings.size === 0 || !authorization) return undefined;
  const earliest = Math.min(...[...onboardings.values()].map((t) => Date.parse(t)));
  const since = new Date(earliest - 1000).toISOString();
  const out: unknown[] = [];
  let after: string | undefined;
  for (let page = 0; page < EVENT_PAGE.pages; page++) {
    const query = new URLSearchParams({ limit: String(EVENT_PAGE.limit), since });
    if (after) query.set('starting_after', after);
    const answer = await options.get(`/v1/events?${query}`, authorization);
    if (answer.status !== 200) {
      options.log(`events: GET /v1/events answered ${answer.status}; the flow is written without its events`);
      return undefined;
    }
    const list = answer.body as { data: ListedEvent[]; has_more?: boolean; next_cursor?: string | null };
    out.push(...list.data.filter((e) => e.data?.onboarding_id !== undefined && onboardings.has(e.data.onboarding_id)));
    if (!list.has_more || !list.next_cursor) return out;
    after = list.next_cursor;
  }
  options.log(`events: more than ${EVENT_PAGE.pages} pages of ${EVENT_PAGE.limit}; the flow keeps the first ${EVENT_PAGE.pages * EVENT_PAGE.limit} events read`);
  return out;
}
