import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../../src/delivery/signature.js';

/**
 * Webhook receivers written to be graded by the receiver check, each a node:http server on
 * 127.0.0.1: `correct` does what the spec asks of a receiver; `unsigned` answers 200 to
 * everything without looking at the signature; `notIdempotent` verifies but answers 409 to an
 * event id it has seen; `firstV1Only` verifies only the first v1 value of the header.
 * Given `fetchFrom` (an emulator's address and a key), `correct` also calls
 * GET /v1/onboardings/{data.onboarding_id} once for each new event it acts on, after answering;
 * `fetchOnRepeat` is `correct` but calls it for every validly signed message, repeats included.
 */
export type ReceiverKind = 'correct' | 'unsigned' | 'notIdempotent' | 'firstV1Only' | 'fetchOnRepeat';

/** Where a fetching receiver reads an event's onboarding back. */
export interface FetchFrom {
  /** The emulator's base URL, e.g. http://127.0.0.1:4010 */
  base: string;
  key: string;
}

export interface GradedReceiver {
  url: string;
  /** Every event id the receiver acted on, in order (repeats and refusals excluded). */
  handled: string[];
  /** Requests received, whatever the answer. */
  received: number;
  close(): Promise<void>;
}

export const SECRET = 'whsec_receivercheckSecret000000001';
export const PREVIOUS_SECRET = 'whsec_receivercheckPrevious00000001';

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Verifies only the first v1 value: the mistake that breaks during a secret rotation. */
function firstV1Verifies(raw: Buffer, header: unknown, secrets: string[]): boolean {
  if (typeof header !== 'string') return false;
  const parts = header.split(',');
  const t = parts.find((p) => p.startsWith('t='));
  const v1 = parts.find((p) => p.startsWith('v1='));
  return t !== undefined && v1 !== undefined && verifySignature(raw, `${t},${v1}`, secrets);
}

export async function gradedReceiver(kind: ReceiverKind, secrets: string[] = [SECRET], fetchFrom?: FetchFrom): Promise<GradedReceiver> {
  const fetchOnboarding = (event: { data?: { onboarding_id?: unknown } }) => {
    if (!fetchFrom || typeof event.data?.onboarding_id !== 'string') return;
    // Not awaited: the receiver answers first, as one that queues its work would.
    void fetch(`${fetchFrom.base}/v1/onboardings/${event.data.onboarding_id}`, { headers: { Authorization: `Bearer ${fetchFrom.key}` } })
      .then((r) => r.arrayBuffer())
      .catch(() => undefined);
  };
  const seen = new Set<string>();
  const state = { handled: [] as string[], received: 0 };
  const server: Server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      state.received += 1;
      const header = req.headers['service-signature'];
      const verified =
        kind === 'unsigned' ? true : kind === 'firstV1Only' ? firstV1Verifies(raw, header, secrets) : verifySignature(raw, header as string, secrets);
      if (!verified) {
        res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"error":"bad signature"}');
        return;
      }
      let event: { id?: unknown; type?: unknown; data?: { onboarding_id?: unknown } };
      try {
        event = JSON.parse(raw.toString('utf8')) as typeof event;
      } catch {
        res.writeHead(400).end();
        return;
      }
      const id = String(event.id);
      if (seen.has(id)) {
        // A correct receiver acknowledges a repeat without acting on it again.
        res.writeHead(kind === 'notIdempotent' ? 409 : 200).end();
        if (kind === 'fetchOnRepeat') fetchOnboarding(event);
        return;
      }
      seen.add(id);
      state.handled.push(id);
      // Unknown types are acknowledged and ignored.
      res.writeHead(200).end();
      fetchOnboarding(event);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    get handled() {
      return state.handled;
    },
    get received() {
      return state.received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The grades of a report by check id. */
export const gradesOf = (report: { checks: { id: number; grade: string }[] }): Record<number, string> =>
  Object.fromEntries(report.checks.map((c) => [c.id, c.grade]));
