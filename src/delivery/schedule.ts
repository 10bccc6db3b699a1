/**
 * The retry schedule of a webhook delivery (spec: Webhook delivery; docs/decisions.md, Webhook
 * delivery): one attempt, then retries 1, 5, 30, 120, 360, 720 and 1440 minutes after each
 * failed attempt; after the last retry fails the delivery is dead. Delays count from the failed
 * attempt, on the workspace clock (the caller adds them to its "now"), so fast-forwarding
 * reaches every retry.
 */
const MINUTE_MS = 60_000;

export const RETRY_MINUTES: readonly number[] = Object.freeze([1, 5, 30, 120, 360, 720, 1440]);

/** 8 = 1 attempt + 7 retries. */
export const MAX_ATTEMPTS: number = RETRY_MINUTES.length + 1;

/** Dead deliveries in a row that disable an address (a success resets the count). */
export const AUTO_DISABLE_AFTER: number = 10;

/**
 * After `attemptsMade` failed attempts (1-based), the delay in ms before the next, or null when
 * the delivery is dead. Beyond MAX_ATTEMPTS (a manual retry of a dead delivery that fails again)
 * it stays null: a manual retry is one more attempt, not a new schedule.
 */
export function retryDelayMs(attemptsMade: number): number | null {
  // Zero or a fraction means the caller counted wrong; guessing would shift every instant.
  if (!Number.isSafeInteger(attemptsMade) || attemptsMade < 1) {
    throw new RangeError(`attemptsMade counts failed attempts from 1, not ${String(attemptsMade)}`);
  }
  const minutes = RETRY_MINUTES[attemptsMade - 1];
  return minutes === undefined ? null : minutes * MINUTE_MS;
}
