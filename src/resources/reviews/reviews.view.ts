import type { ReviewSessionRecord } from './reviews.model.js';

/** The public ReviewSession: the link is the token under the base URL the caller used. */

export function renderReviewSession(s: ReviewSessionRecord, baseUrl: string) {
  return {
    id: s.id,
    onboarding_id: s.onboarding_id,
    review_url: `${baseUrl}/review/${s.token}`,
    expires_at: s.expires_at,
    // The spec types name as a string: one not given is empty, never null.
    reviewer: { ...s.reviewer, name: s.reviewer.name ?? '', linked: s.linked },
  };
}
