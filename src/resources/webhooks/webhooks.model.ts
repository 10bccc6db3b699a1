import type { TraceParent } from '../../core/tracing.js';
import type { InjectedAttempt, InjectedFault } from '../../delivery-faults/delivery-faults.js';
import type { Environment } from '../organizations/organizations.model.js';

export interface WebhookEndpointRecord {
  id: string;
  seq: number;
  environment: Environment;
  /** The organization the address belongs to: an employer, or a partner. */
  organization_id: string;
  url: string;
  description: string | null;
  /** Empty means every event type (shown as ["*"]). */
  events: string[];
  status: 'enabled' | 'disabled';
  api_version: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  /** Deliveries in a row that ended dead; ten disable the address. */
  dead_in_a_row: number;
  created_at: string;
}

export const DELIVERY_STATUSES = ['pending', 'in_progress', 'succeeded', 'failed', 'dead'] as const;
type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryRecord {
  id: string;
  seq: number;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  next_attempt_at: string | null;
  /** The exact message text, so every attempt and a manual retry send the same bytes. */
  body: string;
  /** The pending attempt timer, to cancel it when the address goes away. */
  timer_seq: number | null;
  /** Every attempt made, oldest first (the inspector shows them); absent in older snapshots. */
  attempt_log?: AttemptRecord[];
  /**
   * Only while an attempt runs (status in_progress): what the delivery was before it, so a
   * snapshot taken meanwhile stores the delivery as it was, its attempt due again.
   */
  resume?: DeliveryResume;
  /** What an injected delivery fault did to it (POST /_emulator/delivery-faults); never shown by /v1. */
  injected?: InjectedFault;
  /**
   * With tracing on: the span that made its event (an API call, a clock advance, a scenario
   * step), taken when the event was emitted; each attempt's span is its child, so the receiver
   * joins that trace however much later the attempt runs. Absent with tracing off and in older snapshots.
   */
  trace?: TraceParent;
}

/** A running attempt's way back: the status and timer before it, and the scheduled timer it came from. */
interface DeliveryResume {
  status: DeliveryStatus;
  timer_seq: number | null;
  /** The scheduled attempt's timer (its number and due instant); null for a manual retry. */
  timer: { seq: number; due: number } | null;
}

/**
 * One HTTP attempt of a delivery: when, what came back, and what was planned next.
 * @public named by the declarations the build writes for the inspector's service
 */
export interface AttemptRecord {
  at: string;
  /**
   * The address's URL the attempt was sent to: kept, as the address may change its URL or be
   * deleted later (the HAR export still names it). Absent in older snapshots.
   */
  url?: string;
  status_code: number | null;
  error: string | null;
  /** A manual retry (POST .../retry), outside the schedule. */
  manual: boolean;
  /** The next scheduled attempt after this one; null once succeeded or dead. */
  next_attempt_at: string | null;
  /** What an injected delivery fault did to this attempt; never shown by /v1. */
  injected?: InjectedAttempt;
  /** With tracing on: the trace of the attempt's span (the delivery's trace when it has one). */
  trace_id?: string;
  /** What the attempt sent, for the HAR export; in memory only (see withSent). */
  readonly sent?: AttemptSent;
}

/** The headers an attempt sent (the signature among them) and how long the exchange took, wall clock. */
export interface AttemptSent {
  headers: Record<string, string>;
  duration_ms: number;
}

/**
 * An attempt holding what it sent as a property that is not enumerable: never in a snapshot, the
 * state file's log or an answer, since the signature's time may be the wall clock's and the
 * duration is, and equal workspaces must keep giving equal snapshots. An attempt read back from
 * a snapshot, or refused before anything was sent, has none.
 */
export function withSent(attempt: AttemptRecord, sent: AttemptSent | undefined): AttemptRecord {
  if (sent) Object.defineProperty(attempt, 'sent', { value: sent, enumerable: false });
  return attempt;
}

