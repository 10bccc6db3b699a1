import type { PartShape, Workspace } from '../../core/workspace.js';
import type { OnboardingRecord } from './onboardings.model.js';

/** A mail to an employee, kept in the workspace outbox (GET /_emulator/outbox). */
export interface OutboxMail {
  id: string;
  to: string;
  kind: 'invitation' | 'new_link' | 'reminder' | 'contract' | 'one_time_code';
  subject: string;
  link: string | null;
  code: string | null;
  onboarding_id: string;
  environment: string;
  sent_at: string;
}

declare module '../../core/workspace.js' {
  interface WorkspaceParts {
    /** Intercepted e-mails: nothing is ever sent (its part: onboardings.parts.ts). */
    outbox: PartShape<'outbox', OutboxMail[]>;
  }
}

const SUBJECTS: Record<OutboxMail['kind'], string> = {
  invitation: 'You are invited to complete your onboarding',
  new_link: 'Your new onboarding link',
  reminder: 'Reminder: please complete your onboarding',
  contract: 'Your employment contract is ready to sign',
  one_time_code: 'Your one-time code',
};

/**
 * Puts a mail to the employee into the workspace outbox. Nothing is ever sent; a test reads
 * the link and the one-time code from GET /_emulator/outbox.
 */
export function sendMail(ws: Workspace, r: OnboardingRecord, kind: OutboxMail['kind'], baseUrl: string): OutboxMail {
  const link = r.hosted_link && !r.hosted_link.revoked_at ? r.hosted_link : null;
  const mail: OutboxMail = {
    id: ws.ids.id('mail'),
    to: r.employee.email,
    kind,
    subject: SUBJECTS[kind],
    link: link ? `${baseUrl}/hosted/${link.token}` : null,
    code: link && kind !== 'contract' ? link.code : null,
    onboarding_id: r.id,
    environment: r.environment,
    sent_at: ws.now(),
  };
  ws.outbox.push(mail);
  return mail;
}
