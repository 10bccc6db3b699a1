import { CURRENT_API_VERSION } from '../../core/versions.js';
import { signatureHeader } from '../../delivery/signature.js';
import type { EventType } from '../events/events.model.js';
import { eventData, type EventFacts } from '../events/events.schemas.js';
import { messageBody, messageHeaders, PING_DATA } from './webhooks.message.js';

/**
 * A signed sample message of each type, for the OpenAPI document's webhooks and the event
 * catalog. Deterministic: a fixed example secret and a fixed time, so the published document
 * is the same on every start and a receiver's test can check its verification against it.
 */

/** The example secret every sample is signed with: published, and not shaped like an address's (whsec_), so never one an address is given nor one the masking hides. */
export const SAMPLE_SECRET = 'example_signing_secret';
/** When every sample was made, and its signature's t. */
const SAMPLE_CREATED_AT = '2026-10-05T09:00:00.000Z';
export const SAMPLE_SIGNED_AT = Date.parse(SAMPLE_CREATED_AT) / 1000;

/** The transition facts a sample's data shows where its type carries them. */
const SAMPLE_FACTS: Required<EventFacts> = { kind: 'invitation', returned_to: 'employee', role: 'manager', connector: 'example_payroll', error_code: 'connector_unavailable' };
const SAMPLE_ONBOARDING = { onboarding_id: 'onb_example000000000000', reference: 'hire-42', metadata: { team: 'blue' }, data_version: 1 };

export interface SignedSample {
  /** The exact text signed, as the dispatcher writes it. */
  body: string;
  /** The same, parsed. */
  message: Record<string, unknown>;
  /** Every header the message is sent with, the signature among them. */
  headers: Record<string, string>;
}

/** The sample message of one type, as the dispatcher builds, signs and sends it. */
export function sampleMessage(type: EventType): SignedSample {
  const id = `evt_example_${type.replace(/[^a-z]/g, '_')}`;
  const data = type === 'ping' ? PING_DATA : eventData(SAMPLE_ONBOARDING, type, SAMPLE_FACTS);
  const body = messageBody({ id, type, created_at: SAMPLE_CREATED_AT, organization_id: 'org_example000000000000', data }, CURRENT_API_VERSION);
  return { body, message: JSON.parse(body) as Record<string, unknown>, headers: messageHeaders(id, type, signatureHeader([SAMPLE_SECRET], SAMPLE_SIGNED_AT, body)) };
}
