import { performance } from 'node:perf_hooks';
import type { Request, Response } from 'express';
import { answerIds, isOnboardingId, JOURNAL_BODY_CAP, maskKey, type DeferredIds, type JournalEntry } from '../core/journal.js';
import type { Workspace } from '../core/workspace.js';
import type { WithRawBody } from './body.js';
import { droppedAnswerOf } from './faults.js';
import { keepOutcome, outcomeOf } from './reply.js';

/** Answers longer than this are not parsed for their error code or onboarding id. */
const ANSWER_READ_LIMIT = 256 * 1024;


const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The onboarding ids of the path and of the body's onboarding_id. */
function requestIds(path: string, body: unknown): string[] {
  const ids: string[] = [];
  // The path's segments starting with onb_, each once.
  for (let at = path.indexOf('/onb_'); at !== -1; ) {
    const end = path.indexOf('/', at + 1);
    const id = path.slice(at + 1, end === -1 ? undefined : end);
    if (!ids.includes(id)) ids.push(id);
    at = end === -1 ? -1 : path.indexOf('/onb_', end);
  }
  const onboardingId = isRecord(body) ? body.onboarding_id : undefined;
  if (isOnboardingId(onboardingId) && !ids.includes(onboardingId)) ids.push(onboardingId);
  return ids;
}

/** Made out here, so the thunk holds the answer's text and nothing of the request or response. */
const deferredIds = (text: string): DeferredIds => ({ bytes: text.length, ids: () => answerIds(parsed(text)) });


/** The ISO text of the last instant asked for: requests arriving within the same millisecond share it. */
let lastMs = Number.NaN;
let lastIso = '';
function isoAt(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

/** Masked keys by key: only keys that named a workspace get here, a handful per workspace. */
const maskedKeys = new Map<string, string>();
function masked(key: string): string {
  let m = maskedKeys.get(key);
  if (m === undefined) {
    if (maskedKeys.size >= 1000) maskedKeys.clear();
    m = maskKey(key);
    maskedKeys.set(key, m);
  }
  return m;
}

/** The body's size as sent: its Content-Length, else (chunked) the size of its JSON. */
function sizeOf(req: Request, body: unknown): number {
  const length = Number(req.headers['content-length']);
  return Number.isInteger(length) && length >= 0 ? length : Buffer.byteLength(JSON.stringify(body) ?? '', 'utf8');
}

/**
 * Shared by every entry without a query or without these headers (most of them): an entry is
 * kept long enough to outlive the young generation, so what it holds is what it costs.
 */
const NO_QUERY: Record<string, unknown> = Object.freeze({});
const NO_HEADERS = Object.freeze({ idempotency_key: null, service_version: null, service_organization: null });

function headersOf(req: Request): JournalEntry['headers'] {
  const h = req.headers;
  const idempotencyKey = h['idempotency-key'];
  const version = h['service-version'];
  const organization = h['service-organization'];
  if (idempotencyKey === undefined && version === undefined && organization === undefined) return NO_HEADERS;
  const one = (v: string | string[] | undefined): string | null => (v === undefined ? null : Array.isArray(v) ? v.join(', ') : v);
  return { idempotency_key: one(idempotencyKey), service_version: one(version), service_organization: one(organization) };
}

function parsed(text: string | undefined): unknown {
  if (text === undefined || text.length > ANSWER_READ_LIMIT) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Records a /v1 request in its workspace's journal once its answer has been sent, whatever
 * answered it (the route, a replay, a fault or the error handler). Called as soon as the key
 * has named the workspace; a request whose client hangs up before the answer is not recorded,
 * one whose answer a fault dropped, or whose slow answer the client hung up on, is
 * (`answered: false`). What was answered (status, error code, the JSON text for the ids) is
 * what the writer recorded (src/http/reply.ts), never re-read from the bytes sent. With the
 * journal off (`--journal-limit 0`) it does nothing at all: no listeners.
 */
export function journalRequest(req: Request, res: Response, workspace: Workspace, key: string): void {
  if (!workspace.requests.enabled) return;
  keepOutcome(res);
  const started = performance.now();
  const at = isoAt(workspace.clock.nowMs());
  const record = (status: number, text: string | undefined, errorCode: string | null | undefined, replayed: boolean, answered: boolean, answerOnboardingIds?: string[]): void => {
    const sent: unknown = (req as Request & { body?: unknown }).body ?? null;
    const raw = sent === null ? undefined : (req as WithRawBody).rawBody;
    const bodyBytes = sent === null ? null : raw ? raw.length : sizeOf(req, sent);
    // The body as sent, as text; a large one as its size only (JOURNAL_BODY_CAP). Its ids are still read below.
    const bodyText = sent === null || bodyBytes! > JOURNAL_BODY_CAP ? null : raw ? raw.toString('utf8') : JSON.stringify(sent);
    const path = req.path;
    let ids = requestIds(path, sent);
    let error = errorCode;
    let later: DeferredIds | undefined;
    if (status >= 400) {
      // Only a dropped answer has its code still to read (its envelope is small); an envelope names no onboarding.
      if (error === undefined) error = (parsed(text) as { error?: { code?: unknown } } | undefined)?.error?.code as string | undefined;
    } else if (answerOnboardingIds) {
      // Named by the writer, which had the answer as an object.
      for (const id of answerOnboardingIds) if (!ids.includes(id)) ids = [...ids, id];
    } else if (text !== undefined && text.length <= ANSWER_READ_LIMIT) {
      // A success answer is only read for its ids: parsed when the journal is read, if ever.
      later = deferredIds(text);
    }
    workspace.requests.append({
      at,
      key: masked(key),
      method: req.method,
      path,
      // Express parses the query anew on every read of req.query: not at all when there is none.
      query: req.originalUrl.includes('?') ? { ...(req.query as Record<string, unknown>) } : NO_QUERY,
      headers: headersOf(req),
      body: null,
      body_text: bodyText,
      body_bytes: bodyBytes,
      status,
      error_code: typeof error === 'string' ? error : null,
      replayed,
      answered,
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
      onboarding_ids: ids,
    }, later);
  };
  res.on('finish', () => {
    const sent = outcomeOf(res);
    record(res.statusCode, sent?.json, sent ? (sent.errorCode ?? null) : null, res.getHeader('Idempotent-Replayed') === 'true', true, sent?.onboardingIds);
  });
  // An answer an injected fault dropped, or a slow one the client hung up on: the request ran
  // and committed, so it is recorded with what it would have answered. A client that hung up
  // on an ordinary request is not. Only a fault taken by
  // this request drops its answer, and faults are taken right after this call, synchronously:
  // with none waiting now, there is nothing to listen for.
  if (workspace.faults.size === 0) return;
  res.on('close', () => {
    const dropped = res.writableFinished ? undefined : droppedAnswerOf(res);
    if (dropped) record(dropped.status, dropped.text, undefined, dropped.replayed, false);
  });
}
