import { fail } from './errors.js';
import { CountedList } from './counted-list.js';
import type { IdFactory } from './ids.js';

/**
 * Fault injection (POST /_emulator/faults; docs/decisions.md, Fault injection): per workspace,
 * the next N /v1 requests that match a method and path get latency, a 429 or a 500, or lose
 * their connection before they run or after they committed, or get their answer slowly;
 * `payroll_down` makes the next N payroll runs fail instead
 * (src/resources/onboardings/onboardings.payroll.ts). Data, matching and consumption only; the HTTP
 * edge (src/http/faults.ts) answers or waits.
 */
export const FAULT_KINDS = ['latency', 'rate_limit', 'error', 'payroll_down', 'reset_before_commit', 'drop_response_after_commit', 'slow_response'] as const;
/** The payroll error_code of a payroll_down fault that names none. */
export const DEFAULT_PAYROLL_DOWN_ERROR = 'payroll_connector_unavailable';
export const FAULT_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
/** The bounds of a fault, for a created one and a restored one alike: a restore cannot leave a day-long wait. */
export const FAULT_LIMITS = { count: 1000, latencyMs: 30_000, retryAfterSeconds: 3600, betweenBytesMs: 3_000 } as const;
/**
 * A slow answer is written in at most this many pieces, so `between_bytes_ms` adds at most
 * (SLOW_RESPONSE_CHUNKS - 1) pauses (27 s at the bound) whatever the size of the body.
 */
export const SLOW_RESPONSE_CHUNKS = 10;
type FaultKind = (typeof FAULT_KINDS)[number];
type FaultMethod = (typeof FAULT_METHODS)[number];

export interface FaultInput {
  kind: FaultKind;
  count?: number | undefined;
  method?: FaultMethod | undefined;
  path?: string | undefined;
  latency_ms?: number | undefined;
  retry_after_seconds?: number | undefined;
  error_code?: string | undefined;
  first_byte_ms?: number | undefined;
  between_bytes_ms?: number | undefined;
}

export interface Fault {
  id: string;
  object: 'fault';
  kind: FaultKind;
  method: FaultMethod | null;
  /** An exact path, or a prefix ending in `*`; null matches every path. */
  path: string | null;
  count: number;
  remaining: number;
  latency_ms: number | null;
  retry_after_seconds: number | null;
  /** payroll_down only: the payroll error_code of the runs it fails. */
  error_code: string | null;
  /** slow_response only: the wait before the first byte of the answer. */
  first_byte_ms: number | null;
  /** slow_response only: the pause between the pieces of the answer's body. */
  between_bytes_ms: number | null;
  created_at: string;
}

/** `/v1/onboardings*` matches every path starting with `/v1/onboardings`; otherwise exact. */
export function pathMatches(pattern: string, path: string): boolean {
  return pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
}

export class FaultList extends CountedList<Fault> {
  constructor() {
    super('fault');
  }

  /** A list holding copies of these faults, in this order (src/persistence/snapshot.ts). */
  static restore(faults: readonly Fault[]): FaultList {
    // Snapshots from before slow_response have no first_byte_ms or between_bytes_ms.
    return new FaultList().load(faults.map((f) => ({ ...f, first_byte_ms: f.first_byte_ms ?? null, between_bytes_ms: f.between_bytes_ms ?? null })));
  }

  add(input: FaultInput, ids: IdFactory, now: string): Fault {
    const { kind } = input;
    if (kind === 'latency' && input.latency_ms === undefined) {
      throw fail('parameter_missing', 'latency_ms: a latency fault needs latency_ms (1 to 30000).', 'latency_ms');
    }
    if (kind !== 'latency' && input.latency_ms !== undefined) {
      throw fail('parameter_invalid', `latency_ms: only a latency fault takes latency_ms, not ${kind}.`, 'latency_ms');
    }
    if (kind !== 'rate_limit' && input.retry_after_seconds !== undefined) {
      throw fail('parameter_invalid', `retry_after_seconds: only a rate_limit fault takes retry_after_seconds, not ${kind}.`, 'retry_after_seconds');
    }
    if (kind !== 'payroll_down' && input.error_code !== undefined) {
      throw fail('parameter_invalid', `error_code: only a payroll_down fault takes error_code, not ${kind}.`, 'error_code');
    }
    if (kind === 'payroll_down' && (input.method !== undefined || input.path !== undefined)) {
      const param = input.method !== undefined ? 'method' : 'path';
      throw fail('parameter_invalid', `${param}: a payroll_down fault fails payroll runs, not requests; it takes no method or path.`, param);
    }
    for (const param of ['first_byte_ms', 'between_bytes_ms'] as const) {
      if (kind !== 'slow_response' && input[param] !== undefined) {
        throw fail('parameter_invalid', `${param}: only a slow_response fault takes ${param}, not ${kind}.`, param);
      }
    }
    if (kind === 'slow_response' && input.first_byte_ms === undefined && input.between_bytes_ms === undefined) {
      throw fail('parameter_missing', 'first_byte_ms: a slow_response fault needs first_byte_ms, between_bytes_ms or both.', 'first_byte_ms');
    }
    const count = input.count ?? 1;
    const fault: Fault = {
      id: ids.id('flt'),
      object: 'fault',
      kind,
      method: input.method ?? null,
      path: input.path ?? null,
      count,
      remaining: count,
      latency_ms: kind === 'latency' ? input.latency_ms! : null,
      retry_after_seconds: kind === 'rate_limit' ? (input.retry_after_seconds ?? 1) : null,
      error_code: kind === 'payroll_down' ? (input.error_code ?? DEFAULT_PAYROLL_DOWN_ERROR) : null,
      first_byte_ms: kind === 'slow_response' ? (input.first_byte_ms ?? null) : null,
      between_bytes_ms: kind === 'slow_response' ? (input.between_bytes_ms ?? null) : null,
      created_at: now,
    };
    return this.push(fault);
  }

  /** Active faults, in the order they were added (the order they are matched in). */
  list(): Fault[] {
    return this.all();
  }

  /** Consumes the first request fault matching the request, if any (HEAD counts as GET). */
  take(method: string, path: string): Fault | undefined {
    const m = method === 'HEAD' ? 'GET' : method;
    return this.consume((f) => f.kind !== 'payroll_down' && (f.method === null || f.method === m) && (f.path === null || pathMatches(f.path, path)));
  }

  /** Consumes the first payroll_down fault, if any: one payroll run fails. */
  takePayrollDown(): Fault | undefined {
    return this.consume((f) => f.kind === 'payroll_down');
  }
}
