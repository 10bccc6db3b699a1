/**
 * `{onboarding_id}` in a path a user writes (a scenario expectation's request, the receiver
 * check's expected fetch) stands for the onboarding an event names.
 */
export const ONBOARDING_ID_PLACEHOLDER = '{onboarding_id}';

/** The path with every placeholder replaced by the onboarding's id. */
export const withOnboardingId = (path: string, onboardingId: string): string => path.replaceAll(ONBOARDING_ID_PLACEHOLDER, onboardingId);

/** A regular-expression source for a path without query or fragment that holds the placeholder. */
export const PATH_WITH_PLACEHOLDER = `^/[^?#\\s]*${ONBOARDING_ID_PLACEHOLDER.replace(/[{}]/g, '\\$&')}[^?#\\s]*$`;
