/**
 * What differs between two runs of the same flow without anything having drifted: ids, times,
 * tokens and links. The one place that says which values those are; such a value is compared
 * by its shape (an id by its prefix, a time by being one, a link by being one), every other
 * value by itself. Which headers matter is said here too.
 */

/** A value's shape, where its value is volatile; undefined where the value itself counts. */
export function volatileShape(key: string, value: unknown): string | undefined {
  if (typeof value !== 'string') {
    // A cursor is a string or null: null when there is no next page, which is a value.
    return undefined;
  }
  if (SECRET.test(value)) return `secret:${value.slice(0, value.indexOf('_') + 1)}`;
  if (PREFIXED_ID.test(value) && (key === 'id' || key.endsWith('_id') || key === 'starting_after' || key === 'next_cursor' || ID_KEYS.has(key))) return `id:${value.slice(0, value.indexOf('_'))}`;
  if (key === 'next_cursor' || key === 'starting_after') return 'cursor';
  if (key.endsWith('_at') || key === 'since' || key === 'until' || DATE_TIME.test(value)) return DATE_TIME.test(value) ? 'date-time' : undefined;
  if (TOKEN_KEYS.has(key) || (key === 'code' && /^\d{4,8}$/.test(value))) return 'token';
  if ((key.endsWith('url') || key.endsWith('link')) && /^https?:\/\//.test(value) && LINK_PATH.test(value)) return `link:${new URL(value).pathname.split('/')[1] ?? ''}`;
  if (key === 'request_id') return 'id:req';
  // Another made identifier (`EXT-V71IDKRL`): its length and separators.
  if (key.endsWith('_id')) return `id:${value.replace(/[A-Za-z0-9]/g, 'x')}`;
  return undefined;
}

/**
 * A made id: a prefix of 2 to 6 letters, an underscore, then at least 8 letters and digits of
 * which one at least is a capital or a digit (`onb_3xT...`), so that words such as
 * `stale_timestamp` are not taken for one.
 */
const ID_PREFIX = '[a-z]{2,6}';
const ID_BODY = '(?=[A-Za-z0-9]*[A-Z0-9])[A-Za-z0-9]{8,}';
export const MADE_ID = `${ID_PREFIX}_${ID_BODY}`;
const ID_IN_TEXT = new RegExp(`\\b(${ID_PREFIX})_${ID_BODY}\\b`, 'g');

/** A text with the ids in it written as their prefix (`the document doc_…`), for texts compared by value. */
export const withoutIds = (text: string): string => text.replace(ID_IN_TEXT, '$1_…');

const PREFIXED_ID = new RegExp(`^${MADE_ID}$`);
/** ISO 8601 date-time, with or without fractions, Z or an offset. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
/** A secret as recorded: masked (`whsec_…a1b2c3`), or whole in a live answer. */
const SECRET = /^(?:whsec_|hrs_(?:test|live)_)/;
/** Links the service makes (an employee's link, a review session): a token in their path. */
const LINK_PATH = /\/(?:hosted|review|onboarding|r|l)\//;
/** Keys whose string is an id though the key says otherwise (a list's `data` items hold `id`). */
const ID_KEYS = new Set(['employee', 'organization', 'location', 'document', 'event', 'delivery', 'webhook', 'last_event']);
const TOKEN_KEYS = new Set(['token', 'session', 'client_secret']);

/**
 * Values that are the target's own set-up rather than its behaviour (an organization's name, a
 * location's city, a user's name): compared by type, so a corpus recorded against one sandbox
 * replays against another.
 */
export const STATE_KEYS: ReadonlySet<string> = new Set(['name', 'legal_name', 'city', 'display_name', 'domain', 'kvk_number']);

/** Objects whose keys the client chose (an onboarding's metadata): in a list item, held to being an object. */
export const FREE_FORM_KEYS: ReadonlySet<string> = new Set(['metadata']);

/**
 * A list answer (`object: "list"`) holds the target's state: which items, how many. Its items
 * are held to the shape of the first recorded item (their fields and types), not to its values.
 */
export const isList = (value: unknown): value is { object: 'list'; data: unknown[] } =>
  value !== null && typeof value === 'object' && (value as { object?: unknown }).object === 'list' && Array.isArray((value as { data?: unknown }).data);

/** Response headers compared by value (Content-Type by its media type). */
export const HEADERS_BY_VALUE = ['content-type', 'service-version', 'idempotent-replayed'] as const;
/** Response headers compared by shape: present, and a number where one is a number. */
export const HEADERS_BY_SHAPE = ['request-id', 'retry-after', 'location'] as const;
/** Request headers kept in a corpus: what changes an answer. Authorization never (the step's `key` names its role). */
export const REQUEST_HEADERS = ['content-type', 'idempotency-key', 'service-version', 'service-organization'] as const;

/** A header's value as compared: the media type alone for Content-Type. */
export function headerValue(name: string, value: string): string {
  return name === 'content-type' ? value.split(';')[0]!.trim().toLowerCase() : value;
}
