import { CURRENT_API_VERSION } from '../core/versions.js';
import { wallClockMs, wallClockSeconds } from '../core/clock.js';
import { createIds } from '../core/ids.js';
import { createRandom } from '../core/random.js';
import type { EventType } from '../resources/events/events.model.js';
import type { CheckGrade } from './receiver-check.checks.js';
import { messageBody } from '../resources/webhooks/webhooks.message.js';
import { signatureHeader } from '../delivery/signature.js';
import type { Transport, TransportResult } from '../delivery/transport.js';

/**
 * One receiver check run: the receiver, its secrets, the fictitious employer and onboardings
 * its messages are about, and how a message is made and sent as the dispatcher would.
 */

/** What a check found, before the table's `required` turns an unmet optional check into a warning. */
export interface Outcome {
  grade: CheckGrade;
  reason: string;
  status: number | null;
  ms: number | null;
}

export const skipped = (reason: string): Outcome => ({ grade: 'skipped', reason, status: null, ms: null });

export interface Message {
  id: string;
  type: string;
  body: string;
}

/** Ids shaped like the emulator's own, from the OS's random source: a run is about no workspace and has no seed. */
const ids = createIds(createRandom());
export const randomId = (prefix: 'org' | 'onb' | 'evt' | 'whsec'): string => ids.id(prefix);

/** One run's receiver, secrets and a fictitious employer and onboarding its events are about. */
export class Run {
  readonly organizationId = randomId('org');
  readonly onboardingId = randomId('onb');
  /** The message of checks 1 and 2 (the same one twice). */
  first: Message | undefined;
  /** The onboarding of check 1's event: its own, so the receiver's calls for it count apart. */
  readonly firstOnboardingId = randomId('onb');
  /** Onboardings of the new events the receiver acknowledged in checks 1 and 11: what check 12 expects calls for. */
  readonly acknowledgedNew: string[] = [];
  private counter = 0;

  constructor(
    readonly url: string,
    readonly secret: string,
    readonly previousSecret: string | undefined,
    readonly timeoutMs: number,
    private readonly transport: Transport,
    /** Under the strict policy, the addresses it vetted: every message goes to one of them. */
    private readonly addresses?: readonly string[],
    /** Whether refusals quote the receiver's body (the local policy only). */
    private readonly quote = true,
  ) {}

  /**
   * A message as the emulator would send it: the event's data like events.emit.ts makes it (no
   * personal data), `ageSeconds` back in created_at.
   */
  message(type: string, options: { dataVersion?: number; ageSeconds?: number; extra?: Record<string, unknown>; onboardingId?: string } = {}): Message {
    this.counter += 1;
    const id = randomId('evt');
    const data = {
      onboarding_id: options.onboardingId ?? this.onboardingId,
      reference: `RECEIVER-CHECK-${this.counter}`,
      metadata: { source: 'receiver-check' },
      data_version: options.dataVersion ?? 1,
      ...options.extra,
    };
    const createdAt = new Date(wallClockMs() - (options.ageSeconds ?? 0) * 1000).toISOString();
    // The body carries any type: check 9 sends one the spec does not list.
    return { id, type, body: messageBody({ id, type: type as EventType, created_at: createdAt, organization_id: this.organizationId, data }, CURRENT_API_VERSION) };
  }

  /** The dispatcher's headers; `signature` null leaves Service-Signature out. */
  headers(message: Message, signature: string | null): Record<string, string> {
    return {
      'Content-Type': 'application/json',
      'User-Agent': 'Service-Webhooks/1',
      'Service-Event-Id': message.id,
      'Service-Event-Type': message.type,
      ...(signature === null ? {} : { 'Service-Signature': signature }),
    };
  }

  /** Signed now with the receiver's secret unless told otherwise; `body` replaces what is sent (not what is signed). */
  send(message: Message, how: { secrets?: string[]; t?: number; signature?: string | null; body?: string } = {}): Promise<TransportResult> {
    const t = how.t ?? wallClockSeconds();
    const signature = how.signature !== undefined ? how.signature : signatureHeader(how.secrets ?? [this.secret], t, message.body);
    return this.transport.send({ url: this.url, headers: this.headers(message, signature), body: how.body ?? message.body, timeoutMs: this.timeoutMs, addresses: this.addresses, quote: this.quote });
  }
}

