import { httpTransport, type Transport } from '../delivery/transport.js';
import type { RelayedMessage, RelayReport } from '../delivery/relay.js';
import { ApiError, httpControl, UsageError, type ClientOptions } from './http.js';
import { wallDelay } from '../core/timers.js';

/**
 * The relay beside the receiver (`onboarding-emulator listen`, and startRelay() in a test
 * process): it opens a relay on the emulator, long-polls for the messages of the addresses it
 * takes, posts each to the receiver byte for byte with its headers, and reports the answer, so
 * the emulator records the attempt as if it had made it. The emulator can be anywhere the relay
 * reaches (a container on the default bridge, another machine); the receiver only needs to be
 * reachable from the relay.
 */
export interface RelayOptions {
  /** The emulator's base URL, e.g. http://localhost:4010. */
  url: string;
  /** Where every message goes; left out: each to its own address's URL, as seen from here. */
  forwardTo?: string | undefined;
  /** A key of the workspace to relay for; with neither this nor `workspace`, the default workspace. */
  key?: string | undefined;
  /** The workspace's id (the per-workspace control paths). */
  workspace?: string | undefined;
  /** Take only the addresses whose URL starts with this; a message outside it is reported refused, never posted. */
  urlPrefix?: string | undefined;
  /** How long one long poll waits on the emulator (ms); default 25000. */
  waitMs?: number | undefined;
  /** Called after each message was posted and reported. */
  onDelivery?: ((delivery: RelayedDelivery) => void) | undefined;
  /** How messages are posted; the real HTTP transport by default (tests may swap it). */
  transport?: Transport | undefined;
  /**
   * With `forwardTo`, when the workspace has no address the relay would take: register one for
   * this session (every event), its secret in `relay.session_address`, removed when the relay
   * ends. An object names its organization (default: the workspace's first employer) and environment.
   */
  sessionAddress?: boolean | { organizationId?: string | undefined; environment?: 'test' | 'live' | undefined } | undefined;
  /** Why nothing is, or may be, relayed: each kind said once (at the start, or when it first happens). */
  onNotice?: ((notice: RelayNotice) => void) | undefined;
}

/** A reason the relay relays nothing, or less than one may expect. */
export interface RelayNotice {
  kind: 'no_addresses' | 'no_matching_addresses' | 'events_filtered' | 'receiver_refused';
  message: string;
}

/** The open's answer as the relay keeps it: everything but its token. */
export type OpenedRelayInfo = Omit<Awaited<ReturnType<ReturnType<typeof httpControl>['relays']['open']>>, 'token'>;

export interface RelayedDelivery {
  message_id: string;
  event_id: string | undefined;
  event_type: string | undefined;
  /** Where it was posted (a message refused for its URL: that URL, not posted). */
  url: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  /** false when the emulator no longer waited for the answer (the attempt had timed out there). */
  recorded: boolean;
}

/** Why a relay ended: closed by its owner, or the emulator went away (stopped, restarted, unreachable). */
export type RelayEnd = { reason: 'closed' } | { reason: 'lost'; message: string };

export interface RelayHandle {
  readonly relay: OpenedRelayInfo;
  /** Settles when the relay has ended, whichever way. */
  readonly done: Promise<RelayEnd>;
  /** Stops polling, waits for the messages being posted, and closes the relay on the emulator. */
  close(): Promise<void>;
}

const DEFAULT_WAIT_MS = 25_000;
/** Connection errors in a row the relay rides out (a restarting proxy, a busy engine) before it calls the emulator lost. */
const RETRIES = 3;
const RETRY_PAUSE_MS = 300;

/** Opens the relay (an unreachable emulator: UsageError; a refusal: ApiError) and starts relaying. */
export async function startRelay(options: RelayOptions): Promise<RelayHandle> {
  const client: ClientOptions = { url: options.url, key: options.key };
  const { relays } = httpControl(client, options.workspace);
  const forwardTo = options.forwardTo === undefined ? undefined : checkedUrl(options.forwardTo);
  const session = options.sessionAddress;
  const { token, ...relay } = await relays.open({
    ...(options.urlPrefix !== undefined ? { url_prefix: options.urlPrefix } : {}),
    ...(forwardTo !== undefined ? { forward_to: forwardTo } : {}),
    ...(session ? { session_address: session === true ? {} : { organization_id: session.organizationId, environment: session.environment } } : {}),
  });
  const said = new Set<RelayNotice['kind']>();
  const notice = (n: RelayNotice) => {
    if (said.has(n.kind)) return;
    said.add(n.kind);
    options.onNotice?.(n);
  };
  for (const n of startNotices(relay, options.urlPrefix, forwardTo)) notice(n);
  // `token` goes with the relay's own calls only (claim, report, close), never into the handle or a printed line.
  const transport = options.transport ?? httpTransport();
  const stopping = new AbortController();
  // The long polls on a client of their own, which close() aborts: reports and the close itself must still go out.
  const polls = httpControl({ ...client, signal: stopping.signal }, options.workspace).relays;
  const posting = new Set<Promise<void>>();

  const forward = async (message: RelayedMessage): Promise<void> => {
    // The prefix bounds what this relay posts, whatever the emulator hands it: outside it, nothing is sent.
    const outside = options.urlPrefix !== undefined && !message.url.startsWith(options.urlPrefix) && message.url !== relay.session_address?.url;
    const target = outside ? message.url : forwardTo ?? message.url;
    let report: RelayReport;
    if (outside) {
      report = { status_code: null, error: `refused by the relay: ${message.url} does not start with its --url-prefix ${options.urlPrefix}`, duration_ms: 0 };
    } else {
      const sent = await transport.send({ url: target, headers: message.headers, body: message.body, timeoutMs: message.timeout_ms });
      report = { status_code: sent.status, error: sent.ok ? null : sent.error, duration_ms: sent.durationMs };
      if (sent.error === 'connection refused') {
        notice({ kind: 'receiver_refused', message: `nothing listens at ${target} (connection refused): start the receiver there; the emulator retries each message on its schedule` });
      }
    }
    let recorded = true;
    try {
      await relays.report(relay.id, token, message.id, report.status_code, report.error, report.duration_ms);
    } catch (err) {
      // The emulator gave up on this attempt (timed out there) or forgot the relay: the poll loop finds out which.
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      recorded = false;
    }
    options.onDelivery?.({
      message_id: message.id, event_id: message.headers['Service-Event-Id'], event_type: message.headers['Service-Event-Type'], url: target, ...report, recorded,
    });
  };

  const loop = async (): Promise<RelayEnd> => {
    let failures = 0;
    while (!stopping.signal.aborted) {
      let messages: RelayedMessage[];
      try {
        const claimed = await polls.claim(relay.id, token, options.waitMs ?? DEFAULT_WAIT_MS);
        if (claimed.stopping) return { reason: 'lost', message: 'the emulator is stopping' };
        messages = claimed.data;
        failures = 0;
      } catch (err) {
        if (stopping.signal.aborted) break;
        if (err instanceof ApiError) return { reason: 'lost', message: lostBecause(err, relay.id) };
        if (++failures > RETRIES) return { reason: 'lost', message: (err as Error).message };
        await wallDelay(RETRY_PAUSE_MS);
        continue;
      }
      for (const message of messages) {
        const p = forward(message).catch(() => undefined).finally(() => posting.delete(p));
        posting.add(p);
      }
    }
    return { reason: 'closed' };
  };

  const done = loop().then(async (end) => {
    await Promise.all(posting);
    return end;
  });

  return {
    relay,
    done,
    async close() {
      stopping.abort();
      await done;
      await relays.close(relay.id, token).catch(() => undefined);
    },
  };
}

/** What the open's answer says about what will be relayed: at most one line per reason. */
function startNotices(relay: OpenedRelayInfo, prefix: string | undefined, forwardTo: string | undefined): RelayNotice[] {
  // An emulator from before session addresses answers neither list: nothing can be said then.
  if (!Array.isArray(relay.taken_addresses)) return [];
  const taken = relay.taken_addresses;
  const total = relay.workspace_addresses;
  if (taken.length === 0) {
    const plural = total === 1 ? 'address' : 'addresses';
    const none = prefix === undefined || total === 0
      ? { kind: 'no_addresses' as const, message: `workspace ${relay.workspace} has no webhook address` }
      : { kind: 'no_matching_addresses' as const, message: `none of the ${total} webhook ${plural} of workspace ${relay.workspace} starts with ${prefix}` };
    if (relay.session_address) return [{ ...none, message: `${none.message}: relaying a session address instead` }];
    const remedy = forwardTo === undefined
      ? 'nothing will be relayed: register one (POST /v1/webhooks), or give a forward target (listen --forward-to) for a session address'
      : 'nothing will be relayed until one is registered';
    return [{ ...none, message: `${none.message}: ${remedy}` }];
  }
  const enabled = taken.filter((w) => w.status === 'enabled');
  if (enabled.length > 0 && enabled.every((w) => w.events.length > 0)) {
    const types = [...new Set(enabled.flatMap((w) => w.events))].sort();
    return [{ kind: 'events_filtered', message: `the webhook addresses this relay takes subscribe to ${types.join(', ')} only: other events are not relayed` }];
  }
  return [];
}

function lostBecause(err: ApiError, id: string): string {
  if (err.status === 404) return `the emulator no longer knows relay ${id} (it restarted, or its workspace was deleted)`;
  return `the emulator refused the poll: ${err.status} ${err.code ?? ''} ${err.message}`.trim();
}

function checkedUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--forward-to must be an http:// or https:// URL, such as http://127.0.0.1:3000/webhooks; got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--forward-to must be an http:// or https:// URL; got ${JSON.stringify(raw)}`);
  return raw;
}
