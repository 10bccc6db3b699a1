/**
 * The receiver check's table: what each check sends, what it expects, and whether failing it
 * fails the run (docs/receiver-check.md explains each; docs/decisions.md why these are required).
 * The order is the order they run in: the burst comes last, so its load cannot disturb the others.
 */
export type CheckName =
  | 'valid_message'
  | 'repeated_message'
  | 'bad_signature'
  | 'missing_signature'
  | 'stale_timestamp'
  | 'body_changed'
  | 'rotation'
  | 'out_of_order'
  | 'unknown_event_type'
  | 'older_event_name'
  | 'burst';

export type CheckGrade = 'passed' | 'failed' | 'warning' | 'skipped';

/** The follow-up check, run only when asked for (`expect_fetch`): not in the table. */
export type FollowUpCheckName = 'fetched_after_event';

export interface CheckDefinition<N extends string = CheckName> {
  id: number;
  name: N;
  title: string;
  /** Failing a required check fails the run; an optional one that is not met is a warning. */
  required: boolean;
}

export const RECEIVER_CHECKS: readonly CheckDefinition[] = [
  { id: 1, name: 'valid_message', title: 'A validly signed message is acknowledged with 2xx within the timeout', required: true },
  { id: 2, name: 'repeated_message', title: 'The same message again (same id and bytes, newly signed) is still acknowledged with 2xx', required: true },
  { id: 3, name: 'bad_signature', title: 'A message whose v1 value was altered is refused with 4xx', required: true },
  { id: 4, name: 'missing_signature', title: 'A message without a Service-Signature header is refused with 4xx', required: true },
  { id: 5, name: 'stale_timestamp', title: 'A message validly signed 10 minutes ago (beyond the 5-minute tolerance) is refused with 4xx', required: true },
  { id: 6, name: 'body_changed', title: 'A message whose body was changed after signing is refused with 4xx', required: true },
  { id: 7, name: 'rotation', title: 'During a secret rotation (two v1 values) a message is acknowledged whichever v1 is valid', required: false },
  { id: 8, name: 'out_of_order', title: 'An older event arriving after a newer one for the same onboarding is acknowledged with 2xx', required: false },
  { id: 9, name: 'unknown_event_type', title: 'An event type the receiver does not know is acknowledged with 2xx', required: true },
  { id: 10, name: 'older_event_name', title: 'An event under its older name is acknowledged with 2xx', required: false },
  { id: 11, name: 'burst', title: 'A burst of distinct messages sent at once is acknowledged with 2xx, each within the timeout', required: true },
];

/**
 * Check 12, after the table's checks, when the run is told which call the receiver makes for each
 * new event and has the emulator's request journal to see it in. Required: it is asked for.
 */
export const FETCHED_AFTER_EVENT: CheckDefinition<FollowUpCheckName> = {
  id: 12,
  name: 'fetched_after_event',
  title: 'After each new event (checks 1 and 11) the receiver calls the expected path for its onboarding once; the repeat (check 2) causes no second call',
  required: true,
};

/** Every check a report can hold, in the order they run. */
export const ALL_CHECK_NAMES: readonly (CheckName | FollowUpCheckName)[] = [...RECEIVER_CHECKS.map((c) => c.name), FETCHED_AFTER_EVENT.name];

/** `expect_fetch`'s defaults and bounds: how long check 12 waits for the calls after the burst. */
export const DEFAULT_FETCH_WITHIN_MS = 2_000;
export const MAX_FETCH_WITHIN_MS = 10_000;
/** How often check 12 reads the journal while it waits. */
export const FETCH_POLL_MS = 25;
export const FETCH_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

/** Messages in the burst when not told, and the most a run sends. */
export const DEFAULT_BURST = 10;
export const MAX_BURST = 50;
/** How far back check 5 signs: twice the spec's 5-minute tolerance, so clock drift cannot save it. */
export const STALE_SECONDS = 600;
/** The type check 9 sends: not in the spec's list, shaped like the names that are. */
export const UNKNOWN_EVENT_TYPE = 'onboarding.future_event';
