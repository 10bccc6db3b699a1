import type { Principal } from '../organizations/organizations.access.js';
import { fail } from '../../core/errors.js';
import type { Timer } from '../../core/timers.js';
import type { Workspace } from '../../core/workspace.js';
import type { OnboardingRecord } from '../onboardings/onboardings.model.js';
import { getOnboarding } from '../onboardings/onboardings.service.js';
import {
  REVIEW_LINK_MS, reviewerLinkId, type ReviewerLinkRecord, type ReviewSessionRecord,
} from './reviews.model.js';
import type { ReviewSessionBody } from './reviews.schemas.js';

/** Only a review that can go on now gets a link: in review, and not waiting on the manager. */
function requireReviewable(r: OnboardingRecord): void {
  if (r.status === 'cancelled') throw fail('onboarding_cancelled', 'The onboarding is cancelled; there is nothing to review.');
  if (r.status === 'completed') throw fail('onboarding_completed', 'The onboarding is completed; there is nothing to review.');
  if (r.status !== 'in_review') {
    throw fail('onboarding_not_in_review', `Review sessions exist for onboardings in_review only; this one is ${r.status}.`);
  }
  if (r.returned_to === 'manager') {
    throw fail('returned_to_manager', 'The data was returned to the manager for correction; the review waits for it.');
  }
}

/** The reviewer's link, if it is still in force at `nowMs`. */
export function activeLink(ws: Workspace, id: string, nowMs: number): ReviewerLinkRecord | undefined {
  const link = ws.store.reviewerLinks.get(id);
  return link && Date.parse(link.expires_at) > nowMs ? link : undefined;
}

/** POST /v1/onboardings/{id}/review-sessions: a link valid 15 minutes that opens once. */
export function createReviewSession(ws: Workspace, p: Principal, onboardingId: string, body: ReviewSessionBody): ReviewSessionRecord {
  const r = getOnboarding(ws, p, onboardingId);
  requireReviewable(r);
  const nowMs = ws.clock.nowMs();
  const scope = { environment: p.environment, organization_id: r.organization_id, client_id: p.home.id };
  const { email, external_id, name } = body.reviewer;
  const session: ReviewSessionRecord = {
    id: ws.ids.id('rvs'),
    token: ws.ids.token(),
    ...scope,
    partner_id: p.partner?.id ?? null,
    created_by_key: p.key.key,
    onboarding_id: r.id,
    reviewer: { email, external_id, name: name ?? null },
    linked: activeLink(ws, reviewerLinkId(scope, external_id), nowMs) !== undefined,
    created_at: ws.now(),
    expires_at: new Date(nowMs + REVIEW_LINK_MS).toISOString(),
    opened_at: null,
    page: null,
  };
  ws.store.reviewSessions.put(session);
  ws.scheduler.schedule('review_session.expire', nowMs + REVIEW_LINK_MS, { review_session_id: session.id });
  return session;
}

export function findReviewSession(ws: Workspace, token: string): ReviewSessionRecord | undefined {
  return ws.store.reviewSessions.values().find((s) => s.token === token);
}

/** Timer 'review_session.expire': nothing to change (expiry is read from expires_at); reports it. */
export function reviewSessionExpired(ws: Workspace, timer: Timer): Record<string, unknown> {
  const session = ws.store.reviewSessions.get(String(timer.payload.review_session_id));
  return { onboarding_id: session?.onboarding_id ?? null, opened: session ? session.opened_at !== null : null };
}

/** Timer 'reviewer_link.expire': drops the link 30 days after its first use. */
export function reviewerLinkExpired(ws: Workspace, timer: Timer): Record<string, unknown> {
  const id = String(timer.payload.reviewer_link_id);
  const link = ws.store.reviewerLinks.get(id);
  // A link made again after this one lapsed has its own, later timer.
  if (link && Date.parse(link.expires_at) <= timer.due) ws.store.reviewerLinks.delete(id);
  return {};
}
