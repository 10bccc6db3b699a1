/**
 * Webhook relays: a process beside the receiver (`onboarding-emulator listen`) that reaches
 * addresses the emulator cannot, such as a test's server on the host while the emulator runs in
 * a container. A relay opens itself on a workspace, long-polls for the messages of the addresses
 * it takes, posts each one to the receiver exactly as it came and reports what the receiver
 * answered. To the dispatcher a relay is just another transport: the attempt waits for the
 * report, so retries, auto-disable, the delivery log and delivery faults behave as they do for a
 * direct delivery. A relay's state is the connection's, never the workspace's: no snapshot
 * holds it. Real time only, through the timers and clock modules.
 */
import { randomBytes } from 'node:crypto';
import { monotonicMs, wallClockMs } from '../core/clock.js';
import { fail } from '../core/errors.js';
import { sameSecret } from '../core/secrets.js';
import { wallTimeout } from '../core/timers.js';
import { checkAddressUrl, type UrlPolicy } from './address-policy.js';
import type { Transport, TransportRequest, TransportResult } from './transport.js';

/**
 * A relay with no poll open for this long is gone; its messages fail as an unreachable receiver
 * would. Counted from the end of its last poll (answered, or its connection closed) or report.
 */
export const RELAY_LEASE_MS = 60_000;
/** Relays one workspace keeps open: a relay holds a long poll and its messages, so they are bounded. */
export const RELAY_LIMIT = 16;
/** The request header a relay sends its token in (claim, report, close). */
export const RELAY_TOKEN_HEADER = 'Relay-Token';
/** Beyond the webhook timeout, what a relay's round trip (its claim and its report) may add. */
export const RELAY_MARGIN_MS = 2_000;
export const RELAY_WAIT_MAX_MS = 60_000;
export const RELAY_CLAIM_MAX = 100;
/** Relays open at once in the emulator, whatever the workspace: every attempt looks through them for one that takes its address. */
const RELAY_LIMIT_TOTAL = 256;
/**
 * Where a relay's session address points (`listen` with no address to take): a name under the
 * reserved `.invalid` domain, which never resolves, so only the relay that made it can deliver
 * there (docs/decisions.md).
 */
const SESSION_URL_BASE = 'https://relay.invalid/listen/';

/** The URL of relay `id`'s session address. */
export const sessionUrl = (relayId: string): string => `${SESSION_URL_BASE}${relayId}`;

/** Is this the URL of a relay's session address (its relay open or not)? */
export const isSessionUrl = (url: string): boolean => url.startsWith(SESSION_URL_BASE);

/** A relay's session address: the webhook address made for it, removed when the relay ends. */
export interface RelaySession {
  id: string;
  url: string;
  /** Removes the address; called once, however the relay ends (closed, lapsed, its workspace deleted). */
  remove: () => void;
}

/** One attempt as the relay sends it on: the receiver's URL, and the headers and body byte for byte. */
export interface RelayedMessage {
  id: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** How long the relay waits for the receiver, as the emulator would. */
  timeout_ms: number;
}

/** What the receiver did, as the relay saw it. */
export interface RelayReport {
  status_code: number | null;
  /** null when the receiver answered 2xx; else a short sentence (the same ones a direct attempt records). */
  error: string | null;
  duration_ms: number;
}

/** The answer to an open: the relay, and the token only its opener gets (never listed again). */
export interface OpenedRelay extends RelayInfo {
  token: string;
}

export interface RelayInfo {
  id: string;
  workspace: string;
  /** The addresses it takes: those whose URL starts with this; null: every address of the workspace. */
  url_prefix: string | null;
  /** Where the relay says it posts the messages (informational). */
  forward_to: string | null;
  created_at: string;
  /** Is a long poll of the relay's waiting now? */
  polling: boolean;
  queued: number;
  in_flight: number;
  relayed: number;
  /** The webhook address made for the relay's session, removed when it ends; null: none. */
  session_address_id: string | null;
}

interface Message {
  message: RelayedMessage;
  settle: (result: TransportResult) => void;
  /** Monotonic milliseconds when the attempt handed it over. */
  since: number;
}

interface Poll {
  max: number;
  resolve: (messages: RelayedMessage[]) => void;
  cancel: () => void;
}

class Relay {
  readonly queue: Message[] = [];
  readonly inFlight = new Map<string, Message>();
  poll: Poll | null = null;
  lastSeen = monotonicMs();
  relayed = 0;
  session: RelaySession | null = null;
  /** The secret its claims, reports and close carry: control clients share a workspace, not its relays. */
  readonly token = secret('rlt_', 24);

  constructor(readonly id: string, readonly workspace: string, readonly urlPrefix: string | null, readonly forwardTo: string | null, readonly createdAt: string) {}

  info(): RelayInfo {
    return {
      id: this.id, workspace: this.workspace, url_prefix: this.urlPrefix, forward_to: this.forwardTo, created_at: this.createdAt,
      polling: this.poll !== null, queued: this.queue.length, in_flight: this.inFlight.size, relayed: this.relayed,
      session_address_id: this.session?.id ?? null,
    };
  }

  /** A session address goes to its own relay only, whatever the prefixes of the others. */
  takes(url: string): boolean {
    if (isSessionUrl(url)) return this.session?.url === url;
    return this.urlPrefix === null || url.startsWith(this.urlPrefix);
  }

  /** Hands queued messages to the waiting poll, if any. */
  pump(): void {
    if (!this.poll || this.queue.length === 0) return;
    const poll = this.poll;
    this.poll = null;
    poll.cancel();
    poll.resolve(this.hand(poll.max));
  }

  hand(max: number): RelayedMessage[] {
    const taken = this.queue.splice(0, max);
    for (const m of taken) this.inFlight.set(m.message.id, m);
    this.lastSeen = monotonicMs();
    return taken.map((m) => m.message);
  }
}

/**
 * From the OS, never from the workspace's seeded source: a seed is shared with tests and kept in
 * snapshots, so whatever it makes can be made again by anyone who knows it.
 */
const secret = (prefix: string, bytes: number): string => `${prefix}${randomBytes(bytes).toString('base64url')}`;

const result = (status: number | null, error: string | null, durationMs: number): TransportResult => ({
  ok: error === null && status !== null && status >= 200 && status < 300,
  status,
  error,
  durationMs,
});

export interface RelayHubOptions {
  /** RELAY_LEASE_MS unless a test shortens it, to watch a lease run out without waiting a minute. */
  leaseMs?: number;
}

/** How a claim waits: `hangup` aborts when the relay's connection closes, which ends the poll there. */
export interface ClaimOptions {
  waitMs: number;
  max: number;
  hangup?: AbortSignal | undefined;
}

/** Every relay of one emulator, across its workspaces. */
export class RelayHub {
  private readonly relays = new Map<string, Relay>();
  /** Set when the server stops: no long poll may hold the stop up any more. */
  private stopping = false;
  private relayCount = 0;
  private readonly leaseMs: number;

  constructor(options: RelayHubOptions = {}) {
    this.leaseMs = options.leaseMs ?? RELAY_LEASE_MS;
  }

  /**
   * Opens a relay. Under the strict URL policy it must name `forward_to`: without it the relay
   * posts each message to its address's URL as resolved where the relay runs, which the
   * emulator's check of internal addresses cannot reach (docs/decisions.md).
   */
  open(workspace: string, input: { url_prefix?: string | null | undefined; forward_to?: string | null | undefined }, policy: UrlPolicy = 'local'): OpenedRelay {
    this.sweep();
    const forwardTo = input.forward_to ?? null;
    if (forwardTo === null && policy === 'strict') {
      throw fail('parameter_missing', "Under the strict URL policy a relay must post every message to one receiver: send forward_to (listen --forward-to <url>). Without it, each message would go to its address's URL as resolved where the relay runs, where the policy's check of internal addresses does not apply.", 'forward_to');
    }
    const shape = forwardTo === null ? null : checkAddressUrl(forwardTo, 'local');
    if (shape) throw fail('parameter_invalid', `forward_to ${shape}`, 'forward_to');
    let open = 0;
    for (const relay of this.relays.values()) if (relay.workspace === workspace) open++;
    if (open >= RELAY_LIMIT) {
      throw fail('relay_limit_reached', `This workspace has ${RELAY_LIMIT} relays open, the most it keeps: close one (DELETE /_emulator/relays/{id}) first; a relay that stops polling lapses after ${this.leaseMs / 1000} s.`);
    }
    if (this.relays.size >= RELAY_LIMIT_TOTAL) {
      throw fail('relay_limit_reached', `${RELAY_LIMIT_TOTAL} relays are open in this emulator, the most it keeps: close one first; a relay that stops polling lapses after ${this.leaseMs / 1000} s.`);
    }
    const relay = new Relay(`rly_${++this.relayCount}`, workspace, input.url_prefix ?? null, forwardTo, new Date(wallClockMs()).toISOString());
    this.relays.set(relay.id, relay);
    return { ...relay.info(), token: relay.token };
  }

  /** Gives an open relay its session address, which goes when the relay does. */
  attachSession(id: string, session: RelaySession): void {
    const relay = this.relays.get(id);
    if (!relay) {
      session.remove();
      return;
    }
    relay.session = session;
  }

  /** The session addresses of the workspace's open relays, by URL: any other session URL is left over from a relay gone. */
  sessionUrls(workspace: string): Set<string> {
    this.sweep();
    return new Set([...this.relays.values()].flatMap((r) => (r.workspace === workspace && r.session ? [r.session.url] : [])));
  }

  list(workspace: string): RelayInfo[] {
    this.sweep();
    return [...this.relays.values()].filter((r) => r.workspace === workspace).map((r) => r.info());
  }

  /** Closes a relay: what it still holds fails as a receiver that went away would. */
  close(workspace: string, id: string, token: string | undefined): RelayInfo {
    const relay = this.owned(workspace, id, token);
    this.drop(relay, 'the relay closed before the receiver answered');
    return relay.info();
  }

  /** A deleted workspace takes its relays with it. */
  forgetWorkspace(workspace: string): void {
    for (const relay of [...this.relays.values()]) if (relay.workspace === workspace) this.drop(relay, 'the workspace was deleted');
  }

  /**
   * Up to `max` messages for the relay: at once when some wait, else as soon as one comes, else
   * an empty list after `waitMs`. A newer poll of the same relay ends an older one (empty). A
   * poll whose connection closes (the relay was killed) ends there, and the lease counts from
   * then: a dead relay is not taken for a live one until its poll would have timed out.
   */
  claim(workspace: string, id: string, token: string | undefined, options: ClaimOptions): Promise<RelayedMessage[]> {
    const relay = this.owned(workspace, id, token);
    if (this.stopping) return Promise.resolve([]);
    relay.lastSeen = monotonicMs();
    if (relay.poll) {
      const older = relay.poll;
      relay.poll = null;
      older.cancel();
      older.resolve([]);
    }
    const { waitMs, max, hangup } = options;
    if (hangup?.aborted) return Promise.resolve([]);
    if (relay.queue.length > 0 || waitMs <= 0) return Promise.resolve(relay.hand(max));
    return new Promise((resolve) => {
      const end = () => {
        if (relay.poll !== poll) return;
        relay.poll = null;
        poll.cancel();
        relay.lastSeen = monotonicMs();
        resolve([]);
      };
      const stopTimer = wallTimeout(waitMs, end);
      const poll: Poll = {
        max,
        resolve,
        cancel: () => {
          stopTimer();
          hangup?.removeEventListener('abort', end);
        },
      };
      hangup?.addEventListener('abort', end, { once: true });
      relay.poll = poll;
    });
  }

  /** The receiver's answer to a message the relay claimed: the attempt waiting for it ends with it. */
  report(workspace: string, id: string, token: string | undefined, messageId: string, report: RelayReport): void {
    const relay = this.owned(workspace, id, token);
    relay.lastSeen = monotonicMs();
    const held = relay.inFlight.get(messageId);
    if (!held) throw fail('resource_not_found', `Relay ${id} holds no message ${messageId}: it was reported already, or its attempt timed out and was recorded so.`);
    relay.inFlight.delete(messageId);
    relay.relayed++;
    held.settle(result(report.status_code, report.status_code !== null && report.status_code >= 200 && report.status_code < 300 ? null : report.error ?? 'failed', report.duration_ms));
  }

  /** True once the server is stopping: a relay should end instead of polling again. */
  get stopped(): boolean {
    return this.stopping;
  }

  /** The server is stopping: every waiting poll ends with an empty list at once, and so does every later one. */
  stop(): void {
    this.stopping = true;
    for (const relay of this.relays.values()) {
      const poll = relay.poll;
      relay.poll = null;
      poll?.cancel();
      poll?.resolve([]);
    }
  }

  /** The transport for an attempt of this workspace to this URL: a relay that takes it, else null (send it directly). */
  transportFor(workspace: string, url: string): Transport | null {
    this.sweep();
    let chosen: Relay | undefined;
    for (const relay of this.relays.values()) {
      if (relay.workspace !== workspace || !relay.takes(url)) continue;
      // The most specific prefix wins; among equals, the relay opened first.
      if (!chosen || (relay.urlPrefix?.length ?? -1) > (chosen.urlPrefix?.length ?? -1)) chosen = relay;
    }
    if (!chosen) {
      // Left over from a relay gone (an emulator restarted from its state file): it never goes out directly.
      return isSessionUrl(url) ? { send: async () => result(null, 'no relay carries this session address: the listen that made it has ended', 0) } : null;
    }
    const relay = chosen;
    return { send: (request) => this.carry(relay, request) };
  }

  private carry(relay: Relay, request: TransportRequest): Promise<TransportResult> {
    const timeoutMs = Number.isFinite(request.timeoutMs) ? Math.max(1, Math.floor(request.timeoutMs)) : 1;
    // The attempt may have waited for a place in the delivery limit while the relay closed.
    if (this.relays.get(relay.id) !== relay) return Promise.resolve(result(null, 'the relay closed before the receiver answered', 0));
    // Unguessable, though only the relay's token can report it: an id says nothing of the others.
    const message: RelayedMessage = { id: secret('rmsg_', 12), url: request.url, headers: request.headers, body: request.body, timeout_ms: timeoutMs };
    return new Promise<TransportResult>((resolve) => {
      const since = monotonicMs();
      const cancel = wallTimeout(timeoutMs + RELAY_MARGIN_MS, () => {
        const i = relay.queue.indexOf(entry);
        if (i >= 0) relay.queue.splice(i, 1);
        relay.inFlight.delete(message.id);
        resolve(result(null, `timed out after ${timeoutMs} ms`, Math.round(monotonicMs() - since)));
      });
      const entry: Message = {
        message,
        since,
        settle: (outcome) => {
          cancel();
          resolve(outcome);
        },
      };
      relay.queue.push(entry);
      relay.pump();
    });
  }

  private get(workspace: string, id: string): Relay {
    this.sweep();
    const relay = this.relays.get(id);
    if (!relay || relay.workspace !== workspace) {
      throw fail('resource_not_found', `No relay ${id} in this workspace: it was closed, its workspace deleted, or it went unpolled for ${this.leaseMs / 1000} s.`);
    }
    return relay;
  }

  /** The relay, for the client that opened it: the one holding its token. */
  private owned(workspace: string, id: string, token: string | undefined): Relay {
    const relay = this.get(workspace, id);
    if (token === undefined || token === '') {
      throw fail('relay_token_invalid', `Relay ${id} takes its claims, reports and close with its token only: send the token its open answered in the ${RELAY_TOKEN_HEADER} header.`);
    }
    if (!sameSecret(token, relay.token)) {
      throw fail('relay_token_invalid', `The ${RELAY_TOKEN_HEADER} header does not hold relay ${id}'s token: only the client that opened a relay may claim, report or close for it.`);
    }
    return relay;
  }

  private drop(relay: Relay, reason: string): void {
    this.relays.delete(relay.id);
    const session = relay.session;
    relay.session = null;
    try {
      session?.remove();
    } catch {
      // Its workspace is gone already: nothing is left to remove.
    }
    const poll = relay.poll;
    relay.poll = null;
    poll?.cancel();
    poll?.resolve([]);
    for (const m of [...relay.queue, ...relay.inFlight.values()]) m.settle(result(null, reason, Math.round(monotonicMs() - m.since)));
    relay.queue.length = 0;
    relay.inFlight.clear();
  }

  /**
   * Relays with no poll open for a lease are gone. Run on every use of the hub, so a relay is
   * never seen, listed or given an attempt past its lease.
   */
  private sweep(): void {
    const now = monotonicMs();
    for (const relay of [...this.relays.values()]) {
      if (!relay.poll && now - relay.lastSeen > this.leaseMs) this.drop(relay, `the relay went away (not polled for ${this.leaseMs / 1000} s)`);
    }
  }
}
