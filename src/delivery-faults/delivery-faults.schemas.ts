import { Type, type TSchema } from '../core/schema.js';
import { DELAY_DEFAULTS, DELIVERY_FAULT_KINDS, DELIVERY_FAULT_LIMITS, STALE_BY_SECONDS, type DeliveryFault, type InjectedAttempt, type InjectedFault } from './delivery-faults.js';

/**
 * The shapes of delivery faults and of their marks on deliveries: one definition for the
 * control API (its validation and the OpenAPI document) and for snapshots.
 */
const Str = Type.String({ minLength: 1 });
const Instant = Type.String({ format: 'date-time' });
const Nullable = <T>(schema: TSchema<T>) => Type.Union([schema, Type.Null()]);
/** The kinds, each with what it does. */
export const DeliveryFaultKindSchema = Type.Unsafe<DeliveryFault['kind']>({
  enum: [...DELIVERY_FAULT_KINDS],
  description:
    'duplicate: the message is sent again, same id and bytes, delay_ms later; reorder: the message is held until the next one to the same address was tried (at most delay_ms); ' +
    `delay: the message goes out delay_ms late; drop_ack: its first 2xx answer is taken as a timeout, so it is retried; corrupt_signature: its first attempt carries v1 values that do not verify; stale_timestamp: its first attempt is signed ${STALE_BY_SECONDS} s in the past`,
});
const Count = Type.Integer({ minimum: 1, maximum: DELIVERY_FAULT_LIMITS.count });
const DelayMs = Type.Integer({ minimum: 1, maximum: DELIVERY_FAULT_LIMITS.delayMs });
export const UrlPattern = Type.String({ minLength: 1, maxLength: 2000, pattern: '^https?://[^*]*\\*?$', description: 'an exact address URL, or a prefix ending in * such as http://127.0.0.1:4000/*' });

export const CreateDeliveryFaultBody = Type.Object(
  {
    kind: DeliveryFaultKindSchema,
    endpoint_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'only messages to this address; default: every address' })),
    url: Type.Optional(UrlPattern),
    count: Type.Optional(Type.Unsafe<number>({ ...Count, description: 'how many messages it applies to; default 1, or no bound when until is given' })),
    from: Type.Optional(Type.Unsafe<string>({ ...Instant, description: 'the start of its window on the workspace clock; default now' })),
    until: Type.Optional(Type.Unsafe<string>({ ...Instant, description: 'the end of its window on the workspace clock; after it the fault is gone' })),
    delay_ms: Type.Optional(
      Type.Unsafe<number>({
        ...DelayMs,
        description: `duplicate (default ${DELAY_DEFAULTS.duplicate}), delay (required) and reorder (the longest hold, default ${DELAY_DEFAULTS.reorder}) only; on the workspace clock`,
      }),
    ),
  },
  { additionalProperties: false, title: 'CreateDeliveryFaultRequest' },
);

export const DeliveryFaultSchema = Type.Object(
  {
    id: Str,
    object: Type.Literal('delivery_fault'),
    kind: DeliveryFaultKindSchema,
    endpoint_id: Nullable(Str),
    url: Nullable(Str),
    count: Nullable(Count),
    remaining: Nullable(Count),
    from: Nullable(Instant),
    until: Nullable(Instant),
    delay_ms: Nullable(DelayMs),
    applied: Type.Integer({ minimum: 0, description: 'messages it was applied to so far' }),
    source: Type.Unsafe<DeliveryFault['source']>({ enum: ['api', 'scenario'], description: 'scenario: declared by the loaded scenario, replaced when it changes' }),
    created_at: Instant,
  },
  { additionalProperties: false, title: 'DeliveryFault' },
) as unknown as TSchema<DeliveryFault>;

export const InjectedFaultSchema = Type.Object(
  {
    fault_id: Str,
    kind: DeliveryFaultKindSchema,
    delay_ms: Type.Optional(DelayMs),
    duplicate_id: Type.Optional(Type.Unsafe<string>({ ...Str, description: 'duplicate, on the original: the copy' })),
    duplicate_of: Type.Optional(Type.Unsafe<string>({ ...Str, description: 'duplicate, on the copy: the original' })),
    released_by: Type.Optional(Nullable(Type.Unsafe<string>({ ...Str, description: 'reorder: the delivery whose first attempt releases this one' }))),
  },
  { additionalProperties: false, title: 'InjectedFault', description: 'what an injected delivery fault did to this delivery' },
) as unknown as TSchema<InjectedFault>;

export const InjectedAttemptSchema = Type.Object(
  {
    fault_id: Str,
    kind: DeliveryFaultKindSchema,
    received_status_code: Type.Optional(Nullable(Type.Unsafe<number>({ type: 'integer', description: 'drop_ack: what the receiver answered, recorded as a timeout' }))),
  },
  { additionalProperties: false, title: 'InjectedAttempt', description: 'what an injected delivery fault did to this attempt' },
) as unknown as TSchema<InjectedAttempt>;
