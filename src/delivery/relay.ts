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
import { monotonicMs, wallClockMs } from '../core/clock.js';
import { fail } from '../core/errors.js';
import { wallTimeout } from '../core/timers.js';
import type { Transport, TransportRequest, TransportResult } from './transport.js';

/** A relay not polling for this long is gone; its messages fail as an unreachable receiver would. */
export const RELAY_LEASE_MS = 60_000;
/** Beyond the webhook timeout, what a relay's round trip (its claim and its report) may add. */
export const RELAY_MARGIN_MS = 2_000;
export const RELAY_WAIT_MAX_MS = 60_000;
export const RELAY_CLAIM_MAX = 100;
/** Relays open at once on one workspace, and in the emulator: every attempt looks through them for one that takes its address. */
export const RELAY_LIMIT_PER_WORKSPACE = 16;
const RELAY_LIMIT = 256;

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

  constructor(readonly id: string, readonly workspace: string, readonly urlPrefix: string | null, readonly forwardTo: string | null, readonly createdAt: string) {}

  info(): RelayInfo {
    return {
      id: this.id, workspace: this.workspace, url_prefix: this.urlPrefix, forward_to: this.forwardTo, created_at: this.createdAt,
      polling: this.poll !== null, queued: this.queue.length, in_flight: this.inFlight.size, relayed: this.relayed,
    };
  }

  takes(url: string): boolean {
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

const result = (status: number | null, error: string | null, durationMs: number): TransportResult => ({
  ok: error === null && status !== null && status >= 200 && status < 300,
  status,
  error,
  durationMs,
});

/** Every relay of one emulator, across its workspaces. */
export class RelayHub {
  private readonly relays = new Map<string, Relay>();
  /** Set when the server stops: no long poll may hold the stop up any more. */
  private stopping = false;
  private relayCount = 0;
  private messageCount = 0;

  open(workspace: string, input: { url_prefix?: string | null | undefined; forward_to?: string | null | undefined }): RelayInfo {
    this.sweep();
    const mine = [...this.relays.values()].filter((r) => r.workspace === workspace).length;
    if (mine >= RELAY_LIMIT_PER_WORKSPACE || this.relays.size >= RELAY_LIMIT) {
      const [limit, where] = mine >= RELAY_LIMIT_PER_WORKSPACE ? [RELAY_LIMIT_PER_WORKSPACE, `on workspace ${workspace}`] : [RELAY_LIMIT, 'in this emulator'];
      throw fail('relay_limit_reached', `${limit} relays are open ${where} already; close one (or let it go unpolled for ${RELAY_LEASE_MS / 1000} s) before opening another.`);
    }
    const relay = new Relay(`rly_${++this.relayCount}`, workspace, input.url_prefix ?? null, input.forward_to ?? null, new Date(wallClockMs()).toISOString());
    this.relays.set(relay.id, relay);
    return relay.info();
  }

  list(workspace: string): RelayInfo[] {
    this.sweep();
    return [...this.relays.values()].filter((r) => r.workspace === workspace).map((r) => r.info());
  }

  /** Closes a relay: what it still holds fails as a receiver that went away would. */
  close(workspace: string, id: string): RelayInfo {
    const relay = this.get(workspace, id);
    this.drop(relay, 'the relay closed before the receiver answered');
    return relay.info();
  }

  /** A deleted workspace takes its relays with it. */
  forgetWorkspace(workspace: string): void {
    for (const relay of [...this.relays.values()]) if (relay.workspace === workspace) this.drop(relay, 'the workspace was deleted');
  }

  /**
   * Up to `max` messages for the relay: at once when some wait, else as soon as one comes, else
   * an empty list after `waitMs`. A newer poll of the same relay ends an older one (empty).
   */
  claim(workspace: string, id: string, waitMs: number, max: number): Promise<RelayedMessage[]> {
    const relay = this.get(workspace, id);
    if (this.stopping) return Promise.resolve([]);
    relay.lastSeen = monotonicMs();
    if (relay.poll) {
      const older = relay.poll;
      relay.poll = null;
      older.cancel();
      older.resolve([]);
    }
    if (relay.queue.length > 0 || waitMs <= 0) return Promise.resolve(relay.hand(max));
    return new Promise((resolve) => {
      const poll: Poll = {
        max,
        resolve,
        cancel: wallTimeout(waitMs, () => {
          if (relay.poll !== poll) return;
          relay.poll = null;
          relay.lastSeen = monotonicMs();
          resolve([]);
        }),
      };
      relay.poll = poll;
    });
  }

  /** The receiver's answer to a message the relay claimed: the attempt waiting for it ends with it. */
  report(workspace: string, id: string, messageId: string, report: RelayReport): void {
    const relay = this.get(workspace, id);
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
    if (!chosen) return null;
    const relay = chosen;
    return { send: (request) => this.carry(relay, request) };
  }

  private carry(relay: Relay, request: TransportRequest): Promise<TransportResult> {
    const timeoutMs = Number.isFinite(request.timeoutMs) ? Math.max(1, Math.floor(request.timeoutMs)) : 1;
    // The attempt may have waited for a place in the delivery limit while the relay closed.
    if (this.relays.get(relay.id) !== relay) return Promise.resolve(result(null, 'the relay closed before the receiver answered', 0));
    const message: RelayedMessage = { id: `rmsg_${++this.messageCount}`, url: request.url, headers: request.headers, body: request.body, timeout_ms: timeoutMs };
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
      throw fail('resource_not_found', `No relay ${id} in this workspace: it was closed, its workspace deleted, or it went unpolled for ${RELAY_LEASE_MS / 1000} s.`);
    }
    return relay;
  }

  private drop(relay: Relay, reason: string): void {
    this.relays.delete(relay.id);
    const poll = relay.poll;
    relay.poll = null;
    poll?.cancel();
    poll?.resolve([]);
    for (const m of [...relay.queue, ...relay.inFlight.values()]) m.settle(result(null, reason, Math.round(monotonicMs() - m.since)));
    relay.queue.length = 0;
    relay.inFlight.clear();
  }

  /** Relays that stopped polling a lease ago are gone. */
  private sweep(): void {
    const now = monotonicMs();
    for (const relay of [...this.relays.values()]) {
      if (!relay.poll && now - relay.lastSeen > RELAY_LEASE_MS) this.drop(relay, `the relay went away (not polled for ${RELAY_LEASE_MS / 1000} s)`);
    }
  }
}
