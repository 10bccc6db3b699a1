import type { Environment } from '../organizations/organizations.model.js';

/** Spec Limits: a review link is valid 15 minutes; a reviewer stays linked 30 days. */
export const REVIEW_LINK_MS = 15 * 60 * 1000;
export const REVIEWER_LINK_MS = 30 * 24 * 60 * 60 * 1000;
/** Ours: the opened page accepts its forms for 30 minutes after the opening (docs/decisions.md). */
export const REVIEW_PAGE_MS = 30 * 60 * 1000;
export const EXTERNAL_ID_MAX = 200;
export const REVIEWER_NAME_MAX = 120;

/** One embedded-review link (POST /v1/onboardings/{id}/review-sessions). */
export interface ReviewSessionRecord {
  id: string;
  /** The unguessable last segment of review_url. */
  token: string;
  environment: Environment;
  organization_id: string;
  /** The organization whose product the reviewer uses: the employer itself or the partner. */
  client_id: string;
  partner_id: string | null;
  created_by_key: string;
  onboarding_id: string;
  reviewer: { email: string; external_id: string; name: string | null };
  /** Whether the reviewer's external_id was linked when the session was made. */
  linked: boolean;
  created_at: string;
  expires_at: string;
  opened_at: string | null;
  /** The opened page's session (null until the one opening; absent in older snapshots). */
  page?: ReviewPageSession | null;
}

/**
 * What the one opening starts: its forms carry action_token (a hidden field, no cookie: a
 * cross-site iframe on http may not send one), accepted until expires_at. user_id is the
 * reviewer's account once signed in (or linked); parent_origin the framing page's origin that
 * embed.js announced and allowed_origins admitted, the only target of the page's postMessage.
 */
export interface ReviewPageSession {
  action_token: string;
  expires_at: string;
  user_id: string | null;
  parent_origin: string | null;
}

/**
 * A client's user (external_id) linked to a reviewer account after a first review, for 30
 * days from that first use. One per environment, employer, client and external_id.
 */
export interface ReviewerLinkRecord {
  id: string;
  environment: Environment;
  organization_id: string;
  client_id: string;
  external_id: string;
  /** The account the reviewer signed in with (absent in older snapshots: found by email). */
  user_id?: string;
  email: string;
  linked_at: string;
  expires_at: string;
}

/** external_ids are the client's own: the same id from two partners names two people. */
export function reviewerLinkId(s: Pick<ReviewSessionRecord, 'environment' | 'organization_id' | 'client_id'>, externalId: string): string {
  return JSON.stringify([s.environment, s.organization_id, s.client_id, externalId]);
}
