import type { WorkspaceSnapshot } from './snapshot.js';
import type { Timer } from '../core/timers.js';
import type { DeliveryRecord } from '../resources/webhooks/webhooks.model.js';

/**
 * A snapshot is taken without waiting for webhook attempts: each attempt still running is
 * stored as if it had not started (its status, attempt count and timer as before it), and a
 * scheduled attempt's timer is put back at its own number and due instant. A restore from it
 * makes that attempt again, so the receiver may get the message twice, which the spec allows;
 * an attempt lost for good would break the delivery promise. The live state is not touched.
 */
export function inFlightAsDue(snapshot: WorkspaceSnapshot): WorkspaceSnapshot {
  const again: Timer[] = [];
  const deliveries = snapshot.store.deliveries.map((d: DeliveryRecord) => {
    const due = deliveryAsDue(d);
    if (due.timer) again.push(due.timer);
    return due.record;
  });
  if (!deliveries.some((d, i) => d !== snapshot.store.deliveries[i])) return snapshot;
  // Firing order, as TimerQueue.entries() gives it: due time, then number.
  const timers = [...snapshot.timers.timers, ...again].sort((a, b) => a.due - b.due || a.seq - b.seq);
  return { ...snapshot, store: { ...snapshot.store, deliveries }, timers: { ...snapshot.timers, timers } };
}

/**
 * One delivery as a snapshot stores it: the record itself when no attempt of it is running,
 * else the record as before that attempt, and the attempt's timer put back (when it had one).
 * The state file's change log stores changed deliveries this way (src/persistence/change-log.ts).
 */
export function deliveryAsDue(d: DeliveryRecord): { record: DeliveryRecord; timer: Timer | null } {
  if (!d.resume) return { record: d, timer: null };
  const { resume, ...before } = d;
  const timer = resume.timer ? { seq: resume.timer.seq, due: resume.timer.due, kind: 'webhook.attempt', payload: { delivery_id: d.id } } : null;
  return { record: { ...before, status: resume.status, attempts: d.attempts - 1, timer_seq: resume.timer ? resume.timer.seq : resume.timer_seq }, timer };
}
