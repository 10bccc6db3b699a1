import { fail } from '../../core/errors.js';
import { sameSecret } from '../../core/secrets.js';
import type { Workspace } from '../../core/workspace.js';
import * as life from '../onboardings/onboardings.lifecycle.js';
import type { OnboardingRecord } from '../onboardings/onboardings.model.js';
import { REVIEWING_ROLES, type Organization, type Role, type User } from '../organizations/organizations.model.js';
import { hostAllowed } from '../organizations/organizations.origins.js';
import {
  REVIEW_PAGE_MS, REVIEWER_LINK_MS, reviewerLinkId, type ReviewerLinkRecord, type ReviewPageSession, type ReviewSessionRecord,
} from './reviews.model.js';
import { activeLink } from './reviews.service.js';

/**
 * The embedded review page's use cases (spec: POST .../review-sessions):
 * open the link once, sign the reviewer in (the first time) and link the client's user for 30
 * days, then confirm the identity check, approve or return for correction through the same
 * life-cycle functions as the API. No HTTP here; src/pages/review renders the results.
 */

/** Everything a review page shows and acts on, for one opened session. */
export interface ReviewContext {
  session: ReviewSessionRecord;
  page: ReviewPageSession;
  organization: Organization;
  onboarding: OnboardingRecord;
  /** The signed-in reviewer; null until the sign-in (the first review from this product). */
  user: User | null;
  /** The link of the client's user to the account, once there is one in force. */
  link: ReviewerLinkRecord | null;
  /** True right after the sign-in that made the link. */
  newlyLinked: boolean;
}

export type OpenResult =
  | { kind: 'open'; context: ReviewContext }
  | { kind: 'used' | 'expired' | 'no_longer_in_review'; session: ReviewSessionRecord };

/** Why a form post is not accepted: not this page's token, or the page's half hour is over. */
export type ResumeResult = { kind: 'ok'; context: ReviewContext } | { kind: 'invalid' } | { kind: 'expired'; page: ReviewPageSession };

/**
 * An origin the framing page announced (embed.js adds it to review_url), kept only when it is
 * an http(s) origin whose host is in the employer's or the partner's allowed_origins: an entry
 * admits what it admits for return_url (organizations.origins.ts).
 */
function admittedOrigin(raw: string | undefined, organizations: (Organization | undefined)[]): string | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== raw) return null;
  const entries = organizations.flatMap((o) => o?.allowed_origins ?? []);
  return hostAllowed(url.hostname.toLowerCase(), entries) ? url.origin : null;
}

/** The organizations whose allowed_origins may frame the session: the employer, and the partner for a partner's session. */
export function framingOrganizations(ws: Workspace, session: ReviewSessionRecord): (Organization | undefined)[] {
  const partner = session.partner_id === null ? undefined : ws.store.organizations.get(session.partner_id);
  return [ws.store.organizations.get(session.organization_id), partner];
}

/** The account behind a link: by user id, or by e-mail for a link stored before user ids were. */
function linkedUser(ws: Workspace, session: ReviewSessionRecord, link: ReviewerLinkRecord): User | null {
  const user = link.user_id !== undefined
    ? ws.store.users.get(link.user_id)
    : ws.store.users.values().find((u) => u.organization_id === session.organization_id && u.email === link.email);
  return user && user.organization_id === session.organization_id ? user : null;
}

function contextOf(ws: Workspace, session: ReviewSessionRecord, page: ReviewPageSession, newlyLinked = false): ReviewContext | null {
  const onboarding = ws.store.onboardings.get(session.onboarding_id);
  const organization = ws.store.organizations.get(session.organization_id);
  if (!onboarding || !organization) return null;
  const link = activeLink(ws, reviewerLinkId(session, session.reviewer.external_id), ws.clock.nowMs()) ?? null;
  const user = page.user_id === null ? null : (ws.store.users.get(page.user_id) ?? null);
  return { session, page, organization, onboarding, user, link, newlyLinked };
}

/**
 * The reviewer opens review_url. The first opening of a valid link records opened_at and
 * starts the page's session; a client's user already linked opens the review directly, as the
 * linked account. Linking itself happens at the sign-in. `record` false (HEAD) answers the
 * same without writing, so a probe cannot use up the one opening.
 */
export function openReviewSession(ws: Workspace, session: ReviewSessionRecord, record: boolean, parentOrigin?: string): OpenResult {
  if (session.opened_at) return { kind: 'used', session };
  const nowMs = ws.clock.nowMs();
  if (Date.parse(session.expires_at) <= nowMs) return { kind: 'expired', session };
  const onboarding = ws.store.onboardings.get(session.onboarding_id);
  if (!onboarding || !ws.store.organizations.get(session.organization_id) || onboarding.status !== 'in_review') {
    return { kind: 'no_longer_in_review', session };
  }
  const link = activeLink(ws, reviewerLinkId(session, session.reviewer.external_id), nowMs);
  const user = link ? linkedUser(ws, session, link) : null;
  const page: ReviewPageSession = {
    action_token: ws.ids.token(),
    expires_at: new Date(nowMs + REVIEW_PAGE_MS).toISOString(),
    user_id: user?.id ?? null,
    parent_origin: admittedOrigin(parentOrigin, framingOrganizations(ws, session)),
  };
  const opened: ReviewSessionRecord = { ...session, opened_at: ws.now(), page };
  if (record) ws.store.reviewSessions.put(opened);
  return { kind: 'open', context: contextOf(ws, opened, page)! };
}

/** A form post from the opened page: the hidden action token must be this session's, within its time. */
export function resumeReviewSession(ws: Workspace, session: ReviewSessionRecord, actionToken: string | undefined): ResumeResult {
  const page = session.page;
  if (!page || !actionToken || !sameSecret(actionToken, page.action_token)) return { kind: 'invalid' };
  if (Date.parse(page.expires_at) <= ws.clock.nowMs()) return { kind: 'expired', page };
  const context = contextOf(ws, session, page);
  return context ? { kind: 'ok', context } : { kind: 'invalid' };
}

function savePage(ws: Workspace, c: ReviewContext, page: ReviewPageSession): ReviewSessionRecord {
  const session = { ...c.session, page };
  ws.store.reviewSessions.put(session);
  return session;
}

/**
 * The emulated sign-in: the reviewer picks (or types the e-mail of) a user of the employer.
 * Only a user holding a reviewing role may review. The client's external_id is then linked
 * to that account for 30 days from now, unless a link is still in force (not extended).
 */
export function signIn(ws: Workspace, c: ReviewContext, who: { user_id?: string | undefined; email?: string | undefined }): ReviewContext {
  if (c.user) return c;
  const email = who.email?.trim().toLowerCase();
  const user = who.user_id
    ? ws.store.users.get(who.user_id)
    : email ? ws.store.users.values().find((u) => u.organization_id === c.organization.id && u.email.toLowerCase() === email) : undefined;
  if (!who.user_id && !email) throw fail('parameter_missing', 'Pick your account or type its e-mail address.', 'email');
  if (!user || user.organization_id !== c.organization.id) {
    throw fail('user_unknown', `There is no account of ${c.organization.name} with that ${who.user_id ? 'id' : 'e-mail address'}.`, who.user_id ? 'user_id' : 'email');
  }
  if (!user.roles.some((r) => REVIEWING_ROLES.includes(r))) {
    throw fail('role_not_held', `${user.name} holds no reviewing role (manager, payroll_reviewer or owner) at ${c.organization.name}.`, 'user_id');
  }
  const nowMs = ws.clock.nowMs();
  let link = c.link;
  const newlyLinked = link === null;
  if (!link) {
    link = {
      id: reviewerLinkId(c.session, c.session.reviewer.external_id),
      environment: c.session.environment,
      organization_id: c.session.organization_id,
      client_id: c.session.client_id,
      external_id: c.session.reviewer.external_id,
      user_id: user.id,
      email: user.email,
      linked_at: ws.now(),
      expires_at: new Date(nowMs + REVIEWER_LINK_MS).toISOString(),
    };
    ws.store.reviewerLinks.put(link);
    ws.scheduler.schedule('reviewer_link.expire', Date.parse(link.expires_at), { reviewer_link_id: link.id });
  }
  const page = { ...c.page, user_id: user.id };
  return { ...c, session: savePage(ws, c, page), page, user, link, newlyLinked };
}

function signedIn(c: ReviewContext): User {
  if (!c.user) throw fail('role_not_held', 'Sign in first: the review needs your account.');
  return c.user;
}

function requireRole(user: User, role: Role, what: string): void {
  if (!user.roles.includes(role)) {
    throw fail('role_not_held', `${user.name} does not hold the role ${role}${what}; roles held: ${user.roles.join(', ') || 'none'}.`, 'role');
  }
}

export type ReviewOutcome =
  | { outcome: 'identity_verified' }
  | { outcome: 'approved'; role: Role }
  | { outcome: 'returned'; returned_to: 'employee' | 'manager' };

/** The identity check is the manager's (as for POST .../identity-verification). */
export function confirmIdentity(ws: Workspace, c: ReviewContext): ReviewOutcome {
  const user = signedIn(c);
  requireRole(user, 'manager', ', which the identity check needs');
  life.verifyIdentity(ws, c.onboarding);
  return { outcome: 'identity_verified' };
}

/** An approval in a role the reviewer holds, for the data_version the page showed; four-eyes as for the API. */
export function approveAs(ws: Workspace, c: ReviewContext, role: Role, dataVersion: number): ReviewOutcome {
  const user = signedIn(c);
  requireRole(user, role, '');
  life.approve(ws, c.onboarding, user, role, dataVersion);
  return { outcome: 'approved', role };
}

/** Return for correction, to the employee or to the manager; any reviewing role may. */
export function returnData(ws: Workspace, c: ReviewContext, to: 'employee' | 'manager', reason?: string): ReviewOutcome {
  signedIn(c);
  life.returnForCorrection(ws, c.onboarding, to, reason);
  return { outcome: 'returned', returned_to: to };
}

/** The context again after an action changed the onboarding. */
export function refreshed(ws: Workspace, c: ReviewContext): ReviewContext {
  return contextOf(ws, ws.store.reviewSessions.get(c.session.id) ?? c.session, c.page, c.newlyLinked) ?? c;
}
