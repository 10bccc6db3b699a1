import type { Workspace } from '../../core/workspace.js';
import type { DeliveryRecord } from './webhooks.model.js';
import { STALE_BY_SECONDS, type DeliveryFault, type DeliveryFaultKind, type InjectedAttempt, type InjectedFault } from '../../delivery-faults/delivery-faults.js';

/**
 * How the dispatcher plays a delivery fault out: when the first attempt is due, how the first
 * attempt's signature and outcome are bent, and when a held (reordered) message goes out.
 */

/** When a message's first attempt is due, given the fault it took. */
export function firstAttemptDue(nowMs: number, fault: DeliveryFault | undefined): number {
  return fault && (fault.kind === 'delay' || fault.kind === 'reorder') ? nowMs + fault.delay_ms! : nowMs;
}

/** The mark a fault leaves on the delivery it took. */
export function injectedMark(fault: DeliveryFault): InjectedFault {
  return {
    fault_id: fault.id,
    kind: fault.kind,
    ...(fault.delay_ms !== null ? { delay_ms: fault.delay_ms } : {}),
    ...(fault.kind === 'reorder' ? { released_by: null } : {}),
  };
}

/**
 * The first scheduled attempt of a delivery a fault took carries it (of a duplicated message,
 * the copy's, not the original's); later and manual attempts run clean.
 */
export function attemptFault(delivery: DeliveryRecord, scheduled: boolean): InjectedAttempt | null {
  const mark = delivery.injected;
  if (!mark || mark.duplicate_id !== undefined || !scheduled || delivery.attempts > 0) return null;
  return { fault_id: mark.fault_id, kind: mark.kind };
}

/** The signature timestamp: a stale_timestamp attempt is signed as if long before it was sent. */
export function signedAt(seconds: number, fault: DeliveryFaultKind | undefined): number {
  return fault === 'stale_timestamp' ? seconds - STALE_BY_SECONDS : seconds;
}

/** A corrupt_signature attempt: every v1 value keeps its length and loses its meaning. */
export function bentSignature(header: string, fault: DeliveryFaultKind | undefined): string {
  if (fault !== 'corrupt_signature') return header;
  return header.replace(/v1=([0-9a-f])/g, (_, digit: string) => `v1=${((parseInt(digit, 16) + 8) % 16).toString(16)}`);
}

/**
 * A message queued for an address releases the messages held there before it: each goes out
 * once this one's first attempt has ended, so the receiver sees the newer message first.
 */
export function holdBehind(ws: Workspace, endpointId: string, newer: DeliveryRecord): void {
  for (const d of ws.store.deliveries.values()) {
    if (d.id === newer.id || d.endpoint_id !== endpointId || !isHeld(d) || d.injected!.released_by !== null) continue;
    ws.store.deliveries.put({ ...d, injected: { ...d.injected!, released_by: newer.id } });
  }
}

/** After `releaser`'s first attempt: the messages held behind it are due now. */
export function releaseHeld(ws: Workspace, releaserId: string): void {
  const now = ws.clock.nowMs();
  for (const d of ws.store.deliveries.values()) {
    if (!isHeld(d) || d.injected!.released_by !== releaserId) continue;
    if (d.timer_seq !== null) ws.timers.cancel(d.timer_seq);
    const timer = ws.scheduler.schedule('webhook.attempt', now, { delivery_id: d.id });
    ws.store.deliveries.put({ ...d, timer_seq: timer.seq, next_attempt_at: new Date(now).toISOString() });
  }
}

/** Held by a reorder fault and not yet tried. */
function isHeld(d: DeliveryRecord): boolean {
  return d.injected?.kind === 'reorder' && d.status === 'pending' && d.attempts === 0;
}
