import { fail } from '../core/errors.js';
import { pathMatches } from '../core/faults.js';
import { CountedList } from '../core/counted-list.js';
import type { IdFactory } from '../core/ids.js';
import type { PartShape } from '../core/workspace.js';

/**
 * Delivery faults (POST /_emulator/delivery-faults): what goes wrong, on purpose, with the
 * workspace's webhook messages, so a receiver's handling of duplicates, late and out-of-order
 * messages, lost acknowledgements and bad signatures can be rehearsed. A fault is taken when a
 * message is queued for an address (at most one per message: the first active fault that
 * matches, in the order added) and is played out by the dispatcher (dispatcher.ts). Data,
 * matching and consumption only.
 */
export const DELIVERY_FAULT_KINDS = ['duplicate', 'reorder', 'delay', 'drop_ack', 'corrupt_signature', 'stale_timestamp'] as const;
export type DeliveryFaultKind = (typeof DELIVERY_FAULT_KINDS)[number];

/** Kinds that take `delay_ms`, and what it means for each when left out (null: required). */
export const DELAY_DEFAULTS: Partial<Record<DeliveryFaultKind, number | null>> = {
  /** How long after the message the copy is sent. */
  duplicate: 60_000,
  /** How late the message is sent. */
  delay: null,
  /** The longest a message is held waiting for the next one to the same address. */
  reorder: 300_000,
};

export const DELIVERY_FAULT_LIMITS = { count: 1000, delayMs: 24 * 60 * 60 * 1000 } as const;

/** A stale_timestamp message is signed this long before it is sent: twice the spec's 5-minute tolerance. */
export const STALE_BY_SECONDS = 600;

export interface DeliveryFaultInput {
  kind: DeliveryFaultKind;
  endpoint_id?: string | undefined;
  url?: string | undefined;
  count?: number | undefined;
  from?: string | undefined;
  until?: string | undefined;
  delay_ms?: number | undefined;
}

export interface DeliveryFault {
  id: string;
  object: 'delivery_fault';
  kind: DeliveryFaultKind;
  /** One address; null with `url` null: every address of the workspace. */
  endpoint_id: string | null;
  /** An exact address URL, or a prefix ending in `*`. */
  url: string | null;
  /** Messages it applies to; null when only its window bounds it. */
  count: number | null;
  remaining: number | null;
  /** Its window on the workspace clock; null `from`: from its creation, null `until`: no end. */
  from: string | null;
  until: string | null;
  delay_ms: number | null;
  /** Messages it was applied to so far. */
  applied: number;
  /** `scenario` when the loaded scenario declared it (a scenario change replaces those). */
  source: 'api' | 'scenario';
  created_at: string;
}

/** What a fault did to one delivery, kept on the delivery (shown by /_emulator and the inspector only). */
export interface InjectedFault {
  fault_id: string;
  kind: DeliveryFaultKind;
  delay_ms?: number;
  /** duplicate: on the original, the copy's delivery id; on the copy, the original's. */
  duplicate_id?: string;
  duplicate_of?: string;
  /** reorder: the delivery whose first attempt releases this held one (null until one is queued). */
  released_by?: string | null;
}

/** What a fault did to one attempt. */
export interface InjectedAttempt {
  fault_id: string;
  kind: DeliveryFaultKind;
  /** drop_ack: the status the receiver really answered, recorded as a timeout. */
  received_status_code?: number | null;
}

declare module '../core/workspace.js' {
  interface WorkspaceParts {
    /** Injected faults for webhook deliveries (its part: delivery-faults.parts.ts). */
    deliveryFaults: PartShape<'delivery_faults', DeliveryFaultList, DeliveryFault[]>;
  }
}

/** The address a fault is matched against. */
export interface FaultTarget {
  id: string;
  url: string;
}

const at = (ms: number) => new Date(ms).toISOString();

export class DeliveryFaultList extends CountedList<DeliveryFault> {
  constructor() {
    super('delivery fault');
  }

  static restore(faults: readonly DeliveryFault[]): DeliveryFaultList {
    return new DeliveryFaultList().load(faults);
  }

  /**
   * Checks and adds a fault. `id` is given for a scenario's faults (stable names, so loading a
   * scenario draws nothing from the id sequence); else one is drawn.
   */
  add(input: DeliveryFaultInput, ids: IdFactory, nowMs: number, source: DeliveryFault['source'] = 'api', id?: string): DeliveryFault {
    const { kind } = input;
    if (input.endpoint_id !== undefined && input.url !== undefined) {
      throw fail('parameter_invalid', 'url: give endpoint_id or url, not both.', 'url');
    }
    const delayDefault = DELAY_DEFAULTS[kind];
    if (delayDefault === undefined && input.delay_ms !== undefined) {
      throw fail('parameter_invalid', `delay_ms: only duplicate, delay and reorder faults take delay_ms, not ${kind}.`, 'delay_ms');
    }
    if (delayDefault === null && input.delay_ms === undefined) {
      throw fail('parameter_missing', `delay_ms: a ${kind} fault needs delay_ms (1 to ${DELIVERY_FAULT_LIMITS.delayMs}).`, 'delay_ms');
    }
    const from = input.from === undefined ? null : Date.parse(input.from);
    const until = input.until === undefined ? null : Date.parse(input.until);
    if (until !== null && until <= Math.max(from ?? nowMs, nowMs)) {
      throw fail('parameter_invalid', `until: the window must end after it starts and after now (${at(Math.max(from ?? nowMs, nowMs))}).`, 'until');
    }
    // Neither a count nor an end: the next message only.
    const count = input.count ?? (until === null ? 1 : null);
    const fault: DeliveryFault = {
      id: id ?? ids.id('dft'),
      object: 'delivery_fault',
      kind,
      endpoint_id: input.endpoint_id ?? null,
      url: input.url ?? null,
      count,
      remaining: count,
      from: from === null ? null : at(from),
      until: until === null ? null : at(until),
      delay_ms: delayDefault === undefined ? null : (input.delay_ms ?? delayDefault),
      applied: 0,
      source,
      created_at: at(nowMs),
    };
    return this.push(fault);
  }

  /** The faults still to play, in the order they are matched in (those whose window ended are dropped). */
  list(nowMs: number): DeliveryFault[] {
    this.prune(nowMs);
    return this.all();
  }

  /** Removes every fault of a source (all when none is given); returns how many there were. */
  clearSource(source?: DeliveryFault['source']): number {
    return this.clear(source ? (f) => f.source === source : undefined);
  }

  /** Consumes the first fault active now that matches the address, if any. */
  take(target: FaultTarget, nowMs: number): DeliveryFault | undefined {
    this.prune(nowMs);
    return this.consume(
      (f) =>
        (f.from === null || Date.parse(f.from) <= nowMs) &&
        (f.endpoint_id === null || f.endpoint_id === target.id) &&
        (f.url === null || pathMatches(f.url, target.url)),
      (f) => (f.applied += 1),
    );
  }

  private prune(nowMs: number): void {
    this.clear((f) => f.until !== null && Date.parse(f.until) < nowMs);
  }
}
