import { Type } from '../core/schema.js';
import { RELAY_CLAIM_MAX, RELAY_TOKEN_HEADER, RELAY_WAIT_MAX_MS } from '../delivery/relay.js';
import { DateTime, Nullable } from '../resources/common.schemas.js';

/** The relay routes' bodies and answers (docs/relay.md). */
export const DEFAULT_RELAY_WAIT_MS = 25_000;
export const DEFAULT_RELAY_CLAIM = 20;

export const OpenRelayBody = Type.Object(
  {
    url_prefix: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 2048, description: 'take only the addresses whose URL starts with this; left out or null: every address of the workspace' }))),
    forward_to: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 2048, description: 'the one URL the relay posts every message to, shown in the relay list; required under the strict URL policy. Left out: each message goes to its address\'s URL' }))),
    session_address: Type.Optional(Type.Object(
      {
        organization_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "the organization the address belongs to; default: the workspace's first employer" })),
        environment: Type.Optional(Type.Union([Type.Literal('test'), Type.Literal('live')], { description: 'default test' })),
      },
      {
        additionalProperties: false,
        description: 'with forward_to, and when the workspace has no address the relay takes: register a webhook address for the relay\'s session (every event), answered with its secret and removed when the relay ends. It counts toward the 20 addresses of its organization (422 webhook_limit_reached, and no relay opened).',
      },
    )),
  },
  { additionalProperties: false, title: 'OpenRelayRequest' },
);

const relayFields = {
  id: Type.String(),
  workspace: Type.String(),
  url_prefix: Nullable(Type.String()),
  forward_to: Nullable(Type.String()),
  created_at: DateTime,
  polling: Type.Boolean({ description: 'a long poll of the relay is waiting now' }),
  queued: Type.Integer({ description: 'messages waiting for the relay to take them' }),
  in_flight: Type.Integer({ description: 'messages the relay took and has not reported yet' }),
  relayed: Type.Integer({ description: 'messages the relay reported' }),
  session_address_id: Nullable(Type.String({ description: "the webhook address made for the relay's session, removed when the relay ends" })),
};

const TakenAddress = Type.Object({ id: Type.String(), url: Type.String(), status: Type.String(), events: Type.Array(Type.String(), { description: 'empty: every event' }) });

export const RelayInfoSchema = Type.Object(relayFields, { title: 'Relay' });

/** The open's answer: the relay and its token, which no other answer shows. */
export const OpenedRelaySchema = Type.Object(
  {
    ...relayFields,
    token: Type.String({ description: `the relay's secret, answered by its open only: send it as the ${RELAY_TOKEN_HEADER} header to claim, report and close` }),
    session_address: Nullable(Type.Object(
      {
        id: Type.String(),
        url: Type.String({ description: 'a placeholder only this relay delivers to' }),
        secret: Type.String({ description: 'the signing secret of its messages, answered by this open only' }),
        organization_id: Type.String(),
        environment: Type.String(),
      },
      { description: 'the address made for this session (session_address asked for, and no address to take); else null' },
    )),
    workspace_addresses: Type.Integer({ description: "the workspace's webhook addresses when the relay opened, other relays' session addresses left out" }),
    taken_addresses: Type.Array(TakenAddress, { description: 'those of them the relay takes (its url_prefix)' }),
  },
  { title: 'OpenedRelay' },
);

export const RelayList = Type.Object({ data: Type.Array(RelayInfoSchema) }, { title: 'RelayList' });

export const ClaimBody = Type.Object(
  {
    wait_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: RELAY_WAIT_MAX_MS, description: `how long to wait for a message when none is queued; default ${DEFAULT_RELAY_WAIT_MS}` })),
    max: Type.Optional(Type.Integer({ minimum: 1, maximum: RELAY_CLAIM_MAX, description: `messages at most in the answer; default ${DEFAULT_RELAY_CLAIM}` })),
  },
  { additionalProperties: false, title: 'RelayClaimRequest' },
);

const RelayedMessageSchema = Type.Object(
  {
    id: Type.String(),
    url: Type.String({ description: "the address's URL" }),
    headers: Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' }, description: 'send these as they are, signature included' }),
    body: Type.String({ description: 'the exact body, UTF-8' }),
    timeout_ms: Type.Integer({ description: 'how long to wait for the receiver' }),
  },
  { title: 'RelayedMessage' },
);

export const RelayedMessages = Type.Object(
  {
    data: Type.Array(RelayedMessageSchema),
    stopping: Type.Boolean({ description: 'the emulator is stopping: it hands out nothing more, and the relay should end' }),
  },
  { title: 'RelayedMessages' },
);

export const RelayReportBody = Type.Object(
  {
    message_id: Type.String({ minLength: 1, maxLength: 100 }),
    status_code: Nullable(Type.Integer({ minimum: 100, maximum: 599, description: "the receiver's status; null when no answer came" })),
    error: Nullable(Type.String({ maxLength: 2000, description: 'null for a 2xx; else what went wrong, recorded as the attempt\'s error' })),
    duration_ms: Type.Integer({ minimum: 0, maximum: 86_400_000 }),
  },
  { additionalProperties: false, title: 'RelayReport' },
);

export const RelayReported = Type.Object({ message_id: Type.String(), recorded: Type.Literal(true) }, { title: 'RelayReported' });
