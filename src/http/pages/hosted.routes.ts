import type { Express, Request, RequestHandler, Response } from 'express';
import { ApiError } from '../../core/errors.js';
import type { Workspace } from '../../core/workspace.js';
import type { Emulator } from '../../emulator.js';
import { lingeringClose } from '../lingering-close.js';
import { baseUrlOf } from '../mount.js';
import { documentFile } from '../../resources/documents/documents.files.js';
import { codeVoid, confirmCode, findByLinkToken, hasSession, needsCodeMail, sendCode } from '../../resources/onboardings/onboardings.hosted-access.js';
import { employeeSign, employeeSubmit } from '../../resources/onboardings/onboardings.lifecycle.js';
import type { OnboardingRecord } from '../../resources/onboardings/onboardings.model.js';
import { pageHeaders, renderPage } from '../../pages/layout.js';
import { checkDetails, DETAIL_FIELDS, MAX_UPLOAD_BYTES, type DetailField, type Upload } from '../../pages/hosted/hosted.forms.js';
import {
  codeView, contractView, detailsView, goneView, inReviewView, notFoundView, refusedView, signedView, valuesOf,
  type LinkModel, type View,
} from '../../pages/hosted/hosted.views.js';

/**
 * The employee's pages behind hosted_url (spec: "The employee opens that link and confirms
 * with a one-time code"): the code, the form, the contract and its signature. Server-rendered
 * forms that post and redirect (303), so no script is needed. Every change goes through the
 * life-cycle functions the API uses; answers are HTML, never the error envelope.
 */
export const HOSTED_PAGE_ROUTES = [
  { method: 'GET', path: '/hosted/:token' },
  { method: 'POST', path: '/hosted/:token/code' },
  { method: 'POST', path: '/hosted/:token/code/new' },
  { method: 'POST', path: '/hosted/:token/details' },
  { method: 'GET', path: '/hosted/:token/contract.pdf' },
  { method: 'POST', path: '/hosted/:token/sign' },
] as const;

export interface HostedOptions {
  publicUrl?: string | undefined;
}

/** The page session after a correct code: one cookie per link, sent back to that link's pages only. */
const COOKIE = 'hosted_session';

interface Located {
  ws: Workspace;
  record: OnboardingRecord;
  model: LinkModel;
  brand: { name: string; color: string | null };
  session: string | undefined;
}

/** A page of a link speaks for its employer; its forms may end in a redirect to the return_url. */
function send(res: Response, view: View, l?: { brand: Located['brand']; record: OnboardingRecord }): void {
  const page = renderPage({ title: view.title, body: view.body, brand: l?.brand }, { formAction: l ? returnOrigin(l.record) : [] });
  res.status(view.status).set(pageHeaders(page.csp)).end(page.html);
}

/** A return_url's origin: the redirect after a form is a form navigation, so form-action must admit it. */
function returnOrigin(r: OnboardingRecord): string[] {
  if (!r.return_url) return [];
  try {
    return [new URL(r.return_url).origin];
  } catch {
    return [];
  }
}

function cookieValue(req: Request): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Finds the link in any workspace, runs what fell due on its clock, and answers the pages of a
 * link that cannot be used (404 unknown; 410 replaced, revoked, expired, cancelled, finished).
 */
function locate(emulator: Emulator, req: Request, res: Response): Located | undefined {
  const token = String(req.params.token);
  const ws = emulator.workspaces().find((w) => findByLinkToken(w, token));
  if (!ws) return void send(res, notFoundView);
  ws.scheduler.runDue(); // a realtime clock may have passed timers since the last request
  const found = findByLinkToken(ws, token);
  if (!found) return void send(res, notFoundView);
  const { record, state } = found;
  const org = ws.store.organizations.get(record.organization_id);
  const brand = { name: org?.name ?? record.organization_id, color: org?.branding?.color ?? null };
  const link = record.hosted_link;
  const gone = (kind: Parameters<typeof goneView>[0]) => void send(res, goneView(kind, brand.name, link?.expires_at ?? null), { brand, record });
  if (record.status === 'cancelled') return gone('cancelled');
  if (record.status === 'completed') return gone('completed');
  if (state === 'replaced') return gone('replaced');
  if (!link || link.revoked_at) return gone('revoked');
  if (Date.parse(link.expires_at) <= ws.clock.nowMs()) return gone('expired');
  const session = cookieValue(req);
  return { ws, record, brand, model: { token, employer: brand.name, record }, session: hasSession(link, session) ? session : undefined };
}

/** The page a signed-in employee sees for the onboarding's status. */
function pageFor(l: Located): View {
  const r = l.record;
  switch (r.status) {
    case 'pending_employee': {
      const previous = r.employee_details;
      return detailsView(l.model, { values: valuesOf(previous), errors: {}, previousDocument: previous?.identity_document ?? undefined });
    }
    case 'in_review':
    case 'contract_ready':
      return inReviewView(l.model);
    case 'awaiting_employee_signature':
      return contractView(l.model);
    default:
      return signedView(l.model);
  }
}

const withRecord = (l: Located, record: OnboardingRecord): Located => ({ ...l, record, model: { ...l.model, record } });

function open(emulator: Emulator, options: HostedOptions): RequestHandler {
  return (req, res) => {
    let l = locate(emulator, req, res);
    if (!l) return;
    if (l.session) return send(res, pageFor(l), l);
    if (req.method !== 'HEAD' && needsCodeMail(l.record.hosted_link!)) {
      // Opening the link sends the code: the link's own code the first time, so an invitation's code keeps working.
      l = withRecord(l, sendCode(l.ws, l.record, baseUrlOf(req, options.publicUrl), false));
    }
    const current = l.record.hosted_link!;
    const notice = req.query.sent === '1' ? 'A new code is on its way; the previous code no longer works.' : undefined;
    send(res, codeView(l.model, { sentAt: current.code_sent_at, isVoid: codeVoid(current), notice }), l);
  };
}

/** Redirect after a post; Referrer-Policy keeps the token in the path away from the return_url's site. */
function seeOther(res: Response, location: string): void {
  res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).redirect(303, location);
}

const home = (l: Located) => `/hosted/${l.model.token}`;

function cookie(req: Request, res: Response, l: Located, session: string, options: HostedOptions): void {
  const secure = baseUrlOf(req, options.publicUrl).startsWith('https:') ? '; Secure' : '';
  res.append('Set-Cookie', `${COOKIE}=${session}; Path=${home(l)}; HttpOnly; SameSite=Lax${secure}`);
}

class FormReadError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** The whole body at most: the file limit plus room for the fields, so a file just over its limit still gets its inline message. */
const BODY_LIMIT = 2 * MAX_UPLOAD_BYTES;
const tooLarge = `The form is too large: the identity document may be at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`;
const FORM_TYPE = /^\s*(multipart\/form-data|application\/x-www-form-urlencoded)\s*(;|$)/i;

/**
 * Reads a web form with Node's own fetch implementation (undici): urlencoded or multipart, no
 * extra dependency. The body is counted while it streams in and refused beyond BODY_LIMIT.
 */
async function readForm(req: Request): Promise<FormData> {
  const type = req.get('content-type') ?? '';
  if (!FORM_TYPE.test(type)) throw new FormReadError(415, 'The form must be sent as a web form (multipart/form-data or application/x-www-form-urlencoded).');
  if (Number(req.get('content-length') ?? 0) > BODY_LIMIT) throw new FormReadError(413, tooLarge);
  let seen = 0;
  let over = false;
  async function* limited(): AsyncGenerator<Uint8Array> {
    // Leaving the loop must not destroy the request: the rest of the body is drained after the 413 page.
    for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>) {
      seen += chunk.length;
      if (seen > BODY_LIMIT) {
        over = true;
        throw new Error('body too large');
      }
      yield chunk;
    }
  }
  try {
    const init = { method: 'POST', headers: { 'content-type': type }, body: limited(), duplex: 'half' };
    return await new globalThis.Request('http://hosted.invalid/', init as unknown as RequestInit).formData();
  } catch {
    throw new FormReadError(over ? 413 : 400, over ? tooLarge : 'The form could not be read; send it again from the page.');
  }
}

const text = (form: FormData, name: string): string => {
  const v = form.get(name);
  return typeof v === 'string' ? v : '';
};

async function uploadOf(form: FormData): Promise<Upload | null> {
  const v = form.get('identity_document');
  if (v === null || typeof v === 'string') return null;
  // Only the first bytes are looked at; the size comes from the part itself.
  const head = new Uint8Array(await v.slice(0, 16).arrayBuffer());
  return { name: v.name || 'upload', type: v.type, size: v.size, bytes: head };
}

type Action = (req: Request, res: Response, l: Located) => Promise<void> | void;

/** A POST of one link's page: located, form read, life-cycle refusals shown on a page in their status. */
function post(emulator: Emulator, needsSession: boolean, action: Action): RequestHandler {
  return async (req, res) => {
    const l = locate(emulator, req, res);
    if (!l) return;
    if (needsSession && !l.session) {
      return send(res, refusedView(l.model, 403, 'Confirm your one-time code first: your session for this link has ended or was never started.'), l);
    }
    try {
      await action(req, res, l);
    } catch (err) {
      if (err instanceof FormReadError) {
        if (err.status === 413) lingeringClose(req, res);
        return send(res, refusedView(l.model, err.status, err.message), l);
      }
      if (!(err instanceof ApiError)) throw err;
      send(res, refusedView(l.model, err.status, err.message), l);
    }
  };
}

/** After submit or signature: the return_url when one was given, else the page that says what comes next. */
const done = (res: Response, l: Located) => seeOther(res, l.record.return_url ?? home(l));

export function mountHostedPages(app: Express, emulator: Emulator, options: HostedOptions = {}): void {
  app.get('/hosted/:token', open(emulator, options));

  app.post('/hosted/:token/code', post(emulator, false, async (req, res, l) => {
    const form = await readForm(req);
    const code = text(form, 'code').replace(/\s+/g, '');
    const link = l.record.hosted_link!;
    if (codeVoid(link)) {
      return send(res, codeView(l.model, { sentAt: link.code_sent_at, isVoid: true }, 422), l);
    }
    if (code === '') {
      return send(res, codeView(l.model, { sentAt: link.code_sent_at, isVoid: false, error: 'Enter the 6-digit code from the e-mail.' }, 422), l);
    }
    const result = confirmCode(l.ws, l.record, code);
    l.ws.scheduler.runDue(); // onboarding.started goes out now
    const sent = result.record.hosted_link!.code_sent_at;
    if (result.kind === 'void') {
      return send(res, codeView(l.model, { sentAt: sent, isVoid: true, error: 'That code was wrong 5 times and no longer works.' }, 422), l);
    }
    if (result.kind === 'wrong') {
      const error = `That code is not right. ${result.remaining === 1 ? '1 attempt is' : `${result.remaining} attempts are`} left before the code stops working.`;
      return send(res, codeView(l.model, { sentAt: sent, isVoid: false, error }, 422), l);
    }
    cookie(req, res, l, result.session, options);
    seeOther(res, home(l));
  }));

  app.post('/hosted/:token/code/new', post(emulator, false, (req, res, l) => {
    if (l.session) return seeOther(res, home(l)); // already confirmed in this browser
    sendCode(l.ws, l.record, baseUrlOf(req, options.publicUrl), true);
    seeOther(res, `${home(l)}?sent=1`);
  }));

  app.post('/hosted/:token/details', post(emulator, true, async (req, res, l) => {
    const form = await readForm(req);
    const fields = Object.fromEntries(DETAIL_FIELDS.map((f) => [f, text(form, f)])) as Record<DetailField, string>;
    const upload = await uploadOf(form);
    const previousDocument = l.record.employee_details?.identity_document ?? undefined;
    const checked = checkDetails(fields, upload, { today: l.ws.now().slice(0, 10), previousDocument });
    if (!checked.ok) {
      // Nothing is stored: the form comes back with what was typed and a message at each wrong field.
      return send(res, detailsView(l.model, { values: checked.values, errors: checked.errors, previousDocument }, 422), l);
    }
    const next = employeeSubmit(l.ws, l.record, { details: checked.details, newDocument: upload !== null && upload.size > 0 });
    l.ws.scheduler.runDue();
    done(res, { ...l, record: next });
  }));

  app.get('/hosted/:token/contract.pdf', (req, res) => {
    const l = locate(emulator, req, res);
    if (!l) return;
    if (!l.session) return send(res, refusedView(l.model, 403, 'Confirm your one-time code first to read the contract.'), l);
    const contract = l.record.documents.find((d) => d.kind === 'contract');
    const file = contract && documentFile(contract.file);
    if (!file) return send(res, refusedView(l.model, 404, 'There is no contract to read yet.'), l);
    res.status(200).set({
      'Content-Type': file.contentType,
      'Content-Disposition': 'inline; filename="contract.pdf"',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
    }).end(req.method === 'HEAD' ? undefined : Buffer.from(file.bytes));
  });

  app.post('/hosted/:token/sign', post(emulator, true, (_req, res, l) => {
    const next = employeeSign(l.ws, l.record);
    l.ws.scheduler.runDue();
    done(res, { ...l, record: next });
  }));
}
