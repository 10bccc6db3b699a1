import type { Locator } from 'playwright-core';
import { httpControl } from '../client/http.js';
import { DETAIL_FIELDS, type DetailField, type FormField } from '../resources/onboardings/onboardings.employee-form.js';
import { documentBytes, TEST_DOCUMENTS, VALID_DETAILS, type DocumentMistake, type TestDocument } from '../resources/onboardings/onboardings.test-values.js';
import { byTestId, noticeOf, PageRefusal, submitWith, textIfShown, titleOf, within, type Surface } from './surface.js';

/**
 * The employee's hosted pages driven as a person would: the link, the one-time code (read from
 * the emulator's outbox over the control API), the form, the upload, the signature and the way
 * back to the return_url. Only the selector contract's ids and the control API are used.
 */

/** A file for the upload: one of the catalogue's documents, or bytes of your own. */
export type UploadFile = TestDocument | DocumentMistake | { name: string; mimeType: string; buffer: Buffer };

export interface HostedOptions {
  /** The emulator's base URL for the control API; by default the origin of the page's link. */
  emulatorUrl?: string;
  /** The workspace the onboarding is in, when it is not the default one. */
  workspace?: string;
  /** Milliseconds to wait for an element or the next page; Playwright's default otherwise. */
  timeout?: number;
}

/** A date a date input can hold: the browser sends nothing else, whatever is typed. */
const DATE_INPUT = /^\d{4}-\d{2}-\d{2}$/;
const holdsDate = (value: string) => DATE_INPUT.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

export class HostedPages {
  /** The emulator's origin, once the surface showed one of its hosted pages: after a return_url it shows the partner's. */
  private origin: string | undefined;

  constructor(readonly surface: Surface, readonly options: HostedOptions = {}) {}

  /** Opens hosted_url in the surface (a frame that shows it already needs no open). */
  async open(hostedUrl: string): Promise<void> {
    await this.surface.goto(hostedUrl, this.wait());
  }

  /** The link's path, /hosted/<token>, from the surface's address. */
  private linkPath(): string {
    const url = new URL(this.surface.url());
    const path = /^\/hosted\/[^/?#]+/.exec(url.pathname)?.[0];
    if (!path || (this.origin !== undefined && url.origin !== this.origin)) throw new Error(`not on a hosted page: ${this.surface.url()}`);
    this.origin = url.origin;
    return path;
  }

  /** Whether the surface shows one of the emulator's hosted pages (not the partner's after a return_url). */
  private onHostedPage(): boolean {
    try {
      this.linkPath();
      return true;
    } catch {
      return false;
    }
  }

  /** The link's current one-time code: the newest mail of the outbox for this link that carries one. */
  async readCode(): Promise<string> {
    const path = this.linkPath();
    const url = this.options.emulatorUrl ?? this.origin!;
    const mails = await httpControl({ url }, this.options.workspace).outbox({});
    const mail = mails.filter((m) => m.code !== null && m.link !== null && new URL(m.link).pathname === path).at(-1);
    if (!mail?.code) throw new Error(`the outbox has no one-time code for ${path}${this.options.workspace ? ` in workspace ${this.options.workspace}` : ''}`);
    return mail.code;
  }

  /**
   * Types the code (by default the one in the outbox) and continues; a refused code, a void one or
   * a link that cannot be used throws PageRefusal with the page's words. Signed in already: nothing to do.
   */
  async enterCode(code?: string): Promise<void> {
    const input = byTestId(this.surface, 'code-input');
    if ((await input.count()) === 0) {
      // Signed in already (this browser confirmed a code before): nothing to enter.
      if (await this.signedIn()) return;
      // A void code asks for a new one, and a link that cannot be used says why: in its notice or its heading.
      const notice = await noticeOf(this.surface, this.options.timeout);
      throw new PageRefusal(notice?.text ?? (await this.title()));
    }
    const typed = code ?? (await this.readCode());
    await input.fill(typed, this.wait());
    await this.submit(byTestId(this.surface, 'code-submit'));
    const error = await textIfShown(byTestId(this.surface, 'code-error'), this.options.timeout);
    if (error !== null) throw new PageRefusal(error);
    if ((await byTestId(this.surface, 'code-input').count()) > 0) {
      throw new PageRefusal('the code was taken but the page asks for it again: the browser did not keep the page session (cookies blocked in this frame? see docs/pages.md, "Embedding the employee\'s pages")');
    }
  }

  /** Whether the surface shows a page of a signed-in employee: the form, the review notice, the contract or the thank-you. */
  private async signedIn(): Promise<boolean> {
    for (const id of ['details-form', 'submitted-status', 'sign-button', 'signed-status'] as const) {
      if ((await byTestId(this.surface, id).count()) > 0) return true;
    }
    return false;
  }

  /** Asks for a new code (the previous one stops working). */
  async requestNewCode(): Promise<void> {
    await this.submit(byTestId(this.surface, 'code-resend'));
  }

  /**
   * Fills the form: the catalogue's valid details, with `values` instead where given (a mistake
   * is a value too). A date input holds only real dates, so a birth_date in another shape throws
   * here: test that one with the control API's employee/submit.
   */
  async fillDetails(values: Partial<Record<DetailField, string>> = {}): Promise<void> {
    for (const field of DETAIL_FIELDS) {
      const value = values[field] ?? VALID_DETAILS[field];
      if (field === 'birth_date' && value !== '' && !holdsDate(value)) {
        throw new Error(`a date input cannot hold ${JSON.stringify(value)}: a browser sends only real dates; send this mistake with POST /_emulator/onboardings/{id}/employee/submit`);
      }
      await byTestId(this.surface, `field-${field}`).fill(value, this.wait());
    }
  }

  /** Chooses the identity document: by default the catalogue's first valid one. */
  async upload(file: UploadFile = TEST_DOCUMENTS.valid[0]!): Promise<void> {
    const payload = 'buffer' in file ? file : { name: file.file_name, mimeType: file.content_type, buffer: Buffer.from(documentBytes(file)) };
    await byTestId(this.surface, 'document-input').setInputFiles(payload, this.wait());
  }

  /** Sends the form; when the page shows mistakes, throws PageRefusal with the message at each field. */
  async submitDetails(): Promise<void> {
    await this.submit(byTestId(this.surface, 'details-submit'));
    if (!this.onHostedPage()) return; // on to the return_url: taken
    const errors = await this.fieldErrors();
    const fields = Object.keys(errors);
    if (fields.length > 0) throw new PageRefusal(`the form was refused: ${fields.join(', ')}`, errors);
  }

  /** Fill, upload and send in one step, with the catalogue's valid values unless told otherwise. */
  async completeDetails(values: Partial<Record<DetailField, string>> = {}, file?: UploadFile): Promise<void> {
    await this.fillDetails(values);
    await this.upload(file);
    await this.submitDetails();
  }

  /** The message at each field in error on the form now shown (empty when none is). */
  async fieldErrors(): Promise<Partial<Record<FormField, string>>> {
    const errors: Partial<Record<FormField, string>> = {};
    for (const field of DETAIL_FIELDS) {
      const text = await textIfShown(byTestId(this.surface, `field-error-${field}`), this.options.timeout);
      if (text !== null) errors[field] = text;
    }
    const document = await textIfShown(byTestId(this.surface, 'document-error'), this.options.timeout);
    if (document !== null) errors.identity_document = document;
    return errors;
  }

  /** Signs the contract on its page; a refusal throws PageRefusal. */
  async sign(): Promise<void> {
    await this.submit(byTestId(this.surface, 'sign-button'));
  }

  /**
   * Waits until the surface is at the onboarding's return_url (after submitting or signing): the
   * same address as the browser writes it (its scheme, host, port, path and query), or one `returnUrl` matches.
   */
  async followReturn(returnUrl: string | RegExp): Promise<void> {
    const target = typeof returnUrl === 'string' ? new URL(returnUrl) : undefined;
    const matches = target ? (url: URL) => url.origin === target.origin && url.pathname === target.pathname && url.search === target.search : (returnUrl as RegExp);
    // The partner's page need not finish loading its own assets: its document is there.
    await this.surface.waitForURL(matches, { ...this.wait(), waitUntil: 'domcontentloaded' });
  }

  /** The page's heading. */
  title(): Promise<string> {
    return titleOf(this.surface, this.options.timeout);
  }

  /** Clicks, waits for the next page, and turns an alert the emulator answered with into PageRefusal. */
  private async submit(button: Locator): Promise<void> {
    this.linkPath(); // from a hosted page, whose origin tells the emulator's pages from the partner's after it
    await submitWith(this.surface, button, this.options.timeout);
    const notice = await this.noticeIfHosted();
    if (notice?.kind === 'error') throw new PageRefusal(notice.text);
  }

  /** Only the emulator's pages are read: after a return_url the surface shows the partner's. */
  private async noticeIfHosted() {
    return this.onHostedPage() ? noticeOf(this.surface, this.options.timeout) : null;
  }

  private wait(): { timeout?: number } {
    return within(this.options.timeout);
  }
}
