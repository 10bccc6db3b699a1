import { DEFAULT_PAGE_LIMIT } from '../common.schemas.js';
import { visibleTo, type Principal } from '../organizations/organizations.access.js';
import { fail } from '../../core/errors.js';
import { mapPage, paginate, type Page, type PageRequest } from '../../core/pagination.js';
import type { Workspace } from '../../core/workspace.js';
import type { Role, User } from '../organizations/organizations.model.js';
import { approve, verifyIdentity } from '../onboardings/onboardings.lifecycle.js';
import type { OnboardingRecord } from '../onboardings/onboardings.model.js';
import { getOnboarding } from '../onboardings/onboardings.service.js';

/**
 * Reviewing through the API (spec: identity-verification, approvals, GET /v1/approvals). The
 * checks that belong to the key (the organization's switch, the user's roles) live here; the
 * checks that belong to the onboarding (status, four-eyes, data_version, identity first) live in
 * the life cycle, so the sandbox and the dashboard share them.
 */

/**
 * Documented values of OpenApproval.blocked_by, in the order they are listed. `four_eyes` stays
 * a documented value but is never listed: an onboarding its user approved on this data_version
 * is not theirs to approve now, so it leaves the list (docs/decisions.md).
 */
export const BLOCKED_BY = ['api_approvals_disabled', 'four_eyes', 'returned_to_manager', 'identity_check'] as const;
type BlockedBy = (typeof BLOCKED_BY)[number];

export interface OpenApproval {
  onboarding_id: string;
  data_version: number;
  can_approve_as: Role[];
  blocked_by: BlockedBy[];
}

/** Spec, Authentication rule 6: approving through the API is off unless an owner enabled it. */
function requireApiApprovals(p: Principal): void {
  if (!p.organization.api_approvals) {
    throw fail('api_approvals_disabled', `Approving through the API is off for ${p.organization.id}; an owner enables it in the settings (API and webhooks).`);
  }
}

/**
 * The person who approves: the key's user, a member of the employer. Partner keys act for an
 * employer but their user belongs to the partner, so they hold no role there.
 */
function reviewerOf(p: Principal): User | null {
  const user = p.user;
  return p.partner === null && user !== null && user.organization_id === p.organization.id ? user : null;
}

function requireRole(p: Principal, role: Role, param?: string): User {
  const user = reviewerOf(p);
  if (!user) throw fail('role_not_held', `Only a key of a user of ${p.organization.id} can review; this key holds no role there.`, param);
  if (!user.roles.includes(role)) throw fail('role_not_held', `The key's user does not hold the role ${role}.`, param);
  return user;
}

/** POST .../identity-verification: the manager confirms the identity check. */
export function confirmIdentity(ws: Workspace, p: Principal, id: string): OnboardingRecord {
  requireApiApprovals(p);
  requireRole(p, 'manager');
  return verifyIdentity(ws, getOnboarding(ws, p, id));
}

export interface ApprovalBody {
  role: Role;
  data_version: number;
}

/** POST .../approvals: approve in one role as the key's user. */
export function giveApproval(ws: Workspace, p: Principal, id: string, body: ApprovalBody): OnboardingRecord {
  requireApiApprovals(p);
  const user = requireRole(p, body.role, 'role');
  return approve(ws, getOnboarding(ws, p, id), user, body.role, body.data_version);
}

/**
 * The roles still open on the current data_version that the key's user may give, in template
 * order. Four-eyes: one person, one role per data_version, so once they approved it in one role
 * every other role is closed to them.
 */
function openRolesHeld(r: OnboardingRecord, p: Principal): Role[] {
  const user = reviewerOf(p);
  if (!user) return [];
  const current = r.approvals.filter((a) => a.data_version === r.data_version);
  if (current.some((a) => a.user_id === user.id)) return [];
  return r.required_roles.filter((role) => !current.some((a) => a.role === role) && user.roles.includes(role));
}

/** What this key's user could approve on one onboarding in review, and what it waits for. */
function openApproval(r: OnboardingRecord, p: Principal): OpenApproval {
  const blocked = new Set<BlockedBy>();
  if (!p.organization.api_approvals) blocked.add('api_approvals_disabled');
  if (r.returned_to === 'manager') blocked.add('returned_to_manager');
  if (!r.identity_verified_at) blocked.add('identity_check');
  return {
    onboarding_id: r.id,
    data_version: r.data_version,
    can_approve_as: openRolesHeld(r, p),
    blocked_by: BLOCKED_BY.filter((b) => blocked.has(b)),
  };
}

/**
 * GET /v1/approvals, "what the key owner can approve now": the onboardings in review the key
 * may see where its user may still give a role, oldest first (docs/decisions.md). One the user
 * holds no open role on, or already approved on this data_version, is not theirs to approve and
 * is left out.
 */
export function listOpenApprovals(ws: Workspace, p: Principal, q: PageRequest): Page<OpenApproval> {
  const visible = ws.store.onboardings.values().filter((r) => visibleTo(r, p));
  const page = paginate(visible, (r) => r.id, q, { defaultLimit: DEFAULT_PAGE_LIMIT, filter: (r) => r.status === 'in_review' && openRolesHeld(r, p).length > 0 });
  return mapPage(page, (r) => openApproval(r, p));
}
