import type { Locator } from 'playwright-core';
import type { Role } from '../resources/organizations/organizations.model.js';
import { byTestId, noticeOf, PageRefusal, submitWith, textIfShown, titleOf, within, type Surface } from './surface.js';

/**
 * The embedded review driven as a reviewer would, in a tab or in the frame embed.js mounted:
 * the sign-in, the identity check, an approval in a role, a return for correction. Each action
 * waits for the page it leads to and turns the page's alert (four-eyes, a role not held, a state
 * the life cycle refuses) into PageRefusal; its result is the page's status notice.
 */

export interface ReviewOptions {
  /** Milliseconds to wait for an element or the next page; Playwright's default otherwise. */
  timeout?: number;
}

export class ReviewPage {
  constructor(readonly surface: Surface, readonly options: ReviewOptions = {}) {}

  /** Opens review_url in the surface (it opens once: a frame embed.js mounted needs no open). */
  async open(reviewUrl: string): Promise<void> {
    await this.surface.goto(reviewUrl, this.wait());
  }

  /**
   * Signs in as one of the employer's reviewers, by user id or by the account's e-mail; with
   * neither, as the reviewer the page preselected (the session's e-mail).
   */
  async signIn(as: { userId?: string; email?: string } = {}): Promise<void> {
    if (as.email !== undefined) await byTestId(this.surface, 'sign-in-email').fill(as.email, this.wait());
    else if (as.userId !== undefined) await byTestId(this.surface, 'sign-in-user', as.userId).check(this.wait());
    await this.act(byTestId(this.surface, 'sign-in-submit'));
  }

  /** Confirms the identity check (a manager). */
  confirmIdentity(): Promise<string> {
    return this.act(byTestId(this.surface, 'identity-confirm'));
  }

  /** Approves in `role`, or in the first role the page offers. */
  async approve(role?: Role): Promise<string> {
    if (role !== undefined) await byTestId(this.surface, 'approve-role', role).check(this.wait());
    return this.act(byTestId(this.surface, 'approve-button'));
  }

  /** Returns the data for correction to the employee or the manager, with the reason the employee will read. */
  async returnData(to: 'employee' | 'manager', reason?: string): Promise<string> {
    await byTestId(this.surface, to === 'employee' ? 'return-to-employee' : 'return-to-manager').check(this.wait());
    if (reason !== undefined) await byTestId(this.surface, 'return-reason').fill(reason, this.wait());
    return this.act(byTestId(this.surface, 'return-button'));
  }

  /** What the review came to once nothing is left to do; null while actions remain. */
  outcome(): Promise<string | null> {
    return textIfShown(byTestId(this.surface, 'review-over'), this.options.timeout);
  }

  /** The page's heading. */
  title(): Promise<string> {
    return titleOf(this.surface, this.options.timeout);
  }

  private async act(button: Locator): Promise<string> {
    await submitWith(this.surface, button, this.options.timeout);
    const notice = await noticeOf(this.surface, this.options.timeout);
    if (notice?.kind === 'error') throw new PageRefusal(notice.text);
    return notice?.text ?? '';
  }

  private wait(): { timeout?: number } {
    return within(this.options.timeout);
  }
}
