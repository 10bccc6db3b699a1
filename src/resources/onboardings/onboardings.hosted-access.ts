import { fail, type ApiError } from '../../core/errors.js';
import { sameSecret } from '../../core/secrets.js';
import type { Workspace } from '../../core/workspace.js';
import { employeeOpen, MAX_CODE_ATTEMPTS } from './onboardings.lifecycle.js';
import type { HostedLinkRecord, OnboardingRecord } from './onboardings.model.js';
import { sendMail } from './onboardings.outbox.js';

/**
 * The employee's access to the hosted pages, with no HTTP: which onboarding a link token
 * names, the one-time code (mailed by the page, 5 wrong attempts make it void, a correct one
 * is used up) and the page sessions a correct code starts. Activation goes through the same
 * employeeOpen as the API and the control API. Bookkeeping of the code and the sessions is
 * stored on the link without an event and without moving `updated_at`: it is no change of the
 * onboarding that a client could see (docs/decisions.md "Hosted pages").
 */
export type LinkState = 'current' | 'replaced';

/** The onboarding whose current or replaced link has this token (tokens are unique per workspace). */
export function findByLinkToken(ws: Workspace, token: string): { record: OnboardingRecord; state: LinkState } | undefined {
  for (const record of ws.store.onboardings.values()) {
    if (record.hosted_link?.token === token) return { record, state: 'current' };
    if (record.replaced_link_tokens?.includes(token)) return { record, state: 'replaced' };
  }
  return undefined;
}

export const codeVoid = (link: HostedLinkRecord): boolean => (link.code_attempts ?? 0) >= MAX_CODE_ATTEMPTS;

/** Pages keep at most this many sessions per link (browsers, devices); the oldest goes first. */
const MAX_SESSIONS = 5;

function putLink(ws: Workspace, r: OnboardingRecord, link: HostedLinkRecord): OnboardingRecord {
  return ws.store.onboardings.put({ ...r, hosted_link: link });
}

/**
 * Mails the current code in a mail of its own kind (`one_time_code`, no event). `fresh` makes a
 * new code first (the previous one stops working, the attempts start again): "send a new code",
 * and after a code was used up. The first opening mails the code the link already has, so the
 * code of an invitation in hand keeps working.
 */
export function sendCode(ws: Workspace, r: OnboardingRecord, baseUrl: string, fresh: boolean): OnboardingRecord {
  const link = r.hosted_link!;
  const next = putLink(ws, r, {
    ...link,
    ...(fresh ? { code: ws.ids.code(6), code_attempts: 0 } : {}),
    code_sent_at: ws.now(),
  });
  sendMail(ws, next, 'one_time_code', baseUrl);
  return next;
}

/** Opening the page without a session mails a code unless the current one was mailed and is still usable. */
export const needsCodeMail = (link: HostedLinkRecord): boolean => !link.code_sent_at && !codeVoid(link);

export type CodeResult =
  | { kind: 'ok'; record: OnboardingRecord; session: string }
  | { kind: 'wrong'; record: OnboardingRecord; remaining: number }
  | { kind: 'void'; record: OnboardingRecord };

/**
 * The employee types the code. Wrong: the attempt is counted (void at the fifth). Right: the
 * link is activated through employeeOpen (onboarding.started the first time) while the
 * onboarding waits for the employee; later (a new link for the signature) the link is only
 * marked activated. The code is then used up: a fresh, unsent one replaces it.
 */
export function confirmCode(ws: Workspace, r: OnboardingRecord, code: string): CodeResult {
  const result = enterCode(ws, r, code, true);
  return result.kind === 'ok' ? { ...result, session: result.session! } : result;
}

/**
 * The code typed through the control API's employee/open shortcut: counted, voided and used up
 * as on the page, but no page session starts (no browser holds one; a session would push out a
 * browser's, as a link keeps only MAX_SESSIONS).
 */
export function confirmCodeWithoutSession(ws: Workspace, r: OnboardingRecord, code: string): Exclude<CodeResult, { kind: 'ok' }> | { kind: 'ok'; record: OnboardingRecord } {
  return enterCode(ws, r, code, false);
}

function enterCode(ws: Workspace, r: OnboardingRecord, code: string, startSession: boolean): Exclude<CodeResult, { kind: 'ok' }> | { kind: 'ok'; record: OnboardingRecord; session?: string } {
  const link = r.hosted_link!;
  if (codeVoid(link)) return { kind: 'void', record: r };
  if (!sameSecret(code, link.code)) {
    const attempts = (link.code_attempts ?? 0) + 1;
    const record = putLink(ws, r, { ...link, code_attempts: attempts });
    return attempts >= MAX_CODE_ATTEMPTS ? { kind: 'void', record } : { kind: 'wrong', record, remaining: MAX_CODE_ATTEMPTS - attempts };
  }
  const opened = r.status === 'pending_employee' ? employeeOpen(ws, r) : r;
  const current = opened.hosted_link!;
  const session = startSession ? ws.ids.token() : undefined;
  const record = putLink(ws, opened, {
    ...current,
    activated_at: current.activated_at ?? ws.now(),
    code: ws.ids.code(6),
    code_attempts: 0,
    code_sent_at: null,
    ...(session === undefined ? {} : { sessions: [...(current.sessions ?? []), session].slice(-MAX_SESSIONS) }),
  });
  return session === undefined ? { kind: 'ok', record } : { kind: 'ok', record, session };
}

/** A code not taken, as the API says it (the control API's employee/open; the page words it itself). */
export function codeRefusal(result: Exclude<CodeResult, { kind: 'ok' }>): ApiError {
  if (result.kind === 'void') {
    return fail('one_time_code_void', `The one-time code was entered wrongly ${MAX_CODE_ATTEMPTS} times and no longer works; send a new code.`, 'code');
  }
  const left = result.remaining === 1 ? '1 attempt is' : `${result.remaining} attempts are`;
  return fail('one_time_code_invalid', `The one-time code does not match; ${left} left before it stops working.`, 'code');
}

/** Whether a page session (the cookie's value) belongs to this link. */
export function hasSession(link: HostedLinkRecord, session: string | undefined): boolean {
  return session !== undefined && (link.sessions ?? []).some((s) => sameSecret(session, s));
}
