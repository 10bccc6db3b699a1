import { performance } from 'node:perf_hooks';
import type { Request, Response } from 'express';
import { answerIds, isOnboardingId, JOURNAL_BODY_CAP } from '../core/journal.js';
import { maskSecret } from '../core/mask.js';
import { tracer } from '../core/tracing.js';
import type { Workspace } from '../core/workspace.js';
import { hasBody, type WithRawBody } from './body.js';
import { droppedAnswerOf } from './faults.js';
import { onAnswer, type Sent } from './reply.js';

/** Answers longer than this are not parsed for their error code or onboarding id. */
const ANSWER_READ_LIMIT = 256 * 1024;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A header as the journal keeps it: repeated values joined, none as null. */
export const headerText = (v: string | string[] | undefined): string | null => (v === undefined ? null : Array.isArray(v) ? v.join(', ') : v);

/** The onboarding ids of the path (its segments starting with onb_) and of the body's onboarding_id, each once. */
function requestIds(path: string, body: unknown): string[] {
  const ids: string[] = [];
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

/** The body's size as sent: its Content-Length, else (chunked) the size of its JSON. */
function sizeOf(req: Request, body: unknown): number {
  const length = Number(req.headers['content-length']);
  return Number.isInteger(length) && length >= 0 ? length : Buffer.byteLength(JSON.stringify(body) ?? '', 'utf8');
}

/** The body's text as sent, without the byte order mark the JSON parser skipped (JSON.parse does not). */
const textOf = (raw: Buffer): string => (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.toString('utf8', 3) : raw.toString('utf8'));

function parsed(text: string | undefined): unknown {
  if (text === undefined || text.length > ANSWER_READ_LIMIT) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What a request asked, read as it arrives: its arrival time and trace are those of that moment. */
interface Asked {
  started: number;
  at: string;
  key: string;
  traceId: string | null;
}

/** What a request was answered, or would have been (`answered: false`). */
interface Answered {
  status: number;
  /** The JSON text sent, when the writer had one. */
  text: string | undefined;
  /** undefined: still to read from the text (a dropped answer's). */
  errorCode: string | null | undefined;
  replayed: boolean;
  answered: boolean;
  /** Named by the writer, which had the answer as an object. */
  onboardingIds: string[] | undefined;
}

/** Records the request and what it was answered in the workspace's journal. */
function record(workspace: Workspace, req: Request, asked: Asked, answer: Answered): void {
  const h = req.headers;
  const sent: unknown = hasBody(req) ? ((req as Request & { body?: unknown }).body ?? null) : null;
  const raw = sent === null ? undefined : (req as WithRawBody).rawBody;
  const bodyBytes = sent === null ? null : raw ? raw.length : sizeOf(req, sent);
  const ids = requestIds(req.path, sent);
  let error = answer.errorCode;
  if (answer.status >= 400) {
    // Only a dropped answer has its code still to read (its envelope is small); an envelope names no onboarding.
    if (error === undefined) error = (parsed(answer.text) as { error?: { code?: unknown } } | undefined)?.error?.code as string | undefined;
  } else {
    for (const id of answer.onboardingIds ?? answerIds(parsed(answer.text))) if (!ids.includes(id)) ids.push(id);
  }
  workspace.requests.record({
    at: asked.at,
    key: asked.key,
    method: req.method,
    path: req.path,
    // Express parses the query anew on every read of req.query: not at all when there is none.
    query: req.url.includes('?') ? { ...(req.query as Record<string, unknown>) } : {},
    headers: { idempotency_key: headerText(h['idempotency-key']), service_version: headerText(h['service-version']), service_organization: headerText(h['service-organization']) },
    body: null,
    // The body as sent, as text; a large one as its size only (JOURNAL_BODY_CAP). Its ids are read above.
    body_text: sent === null || bodyBytes! > JOURNAL_BODY_CAP ? null : raw ? textOf(raw) : JSON.stringify(sent),
    body_bytes: bodyBytes,
    answer_text: answer.text ?? null,
    status: answer.status,
    error_code: typeof error === 'string' ? error : null,
    replayed: answer.replayed,
    answered: answer.answered,
    duration_ms: Math.round((performance.now() - asked.started) * 1000) / 1000,
    onboarding_ids: ids,
    trace_id: asked.traceId,
  });
  workspace.activity.notify();
}

/**
 * Records a /v1 request in its workspace's journal once its answer has been sent, whatever
 * answered it (the route, a replay, a fault or the error handler). Called as soon as the key
 * has named the workspace; a request whose client hangs up before the answer is not recorded,
 * one whose answer a fault dropped, or whose slow answer the client hung up on, is
 * (`answered: false`). What was answered (status, error code, the JSON text for the ids) is
 * what the writer handed over as it sent it (src/http/reply.ts, onAnswer), never re-read from
 * the bytes sent. With the journal off (`--journal-limit 0`) it does nothing at all.
 */
export function journalRequest(req: Request, res: Response, workspace: Workspace, key: string): void {
  if (!workspace.requests.enabled) return;
  const asked: Asked = { started: performance.now(), at: workspace.clock.iso(), key: maskSecret(key), traceId: tracer().traceId() || null };
  let sent: Sent | undefined;
  onAnswer(res, (s) => void (sent ??= s));
  res.on('finish', () => {
    // An answer the writer did not send (none is expected) is recorded from the response.
    const answer: Answered = sent
      ? { status: sent.status, text: sent.json, errorCode: sent.errorCode ?? null, replayed: sent.replayed, answered: true, onboardingIds: sent.onboardingIds }
      : { status: res.statusCode, text: undefined, errorCode: null, replayed: res.getHeader('Idempotent-Replayed') === 'true', answered: true, onboardingIds: undefined };
    record(workspace, req, asked, answer);
  });
  // An answer an injected fault dropped, or a slow one the client hung up on: the request ran
  // and committed, so it is recorded with what it would have answered. A client that hung up
  // on an ordinary request is not. Only a fault taken by this request drops its answer, and
  // faults are taken right after this call, synchronously: with none waiting now, there is
  // nothing to listen for.
  if (workspace.faults.size === 0) return;
  res.on('close', () => {
    const dropped = res.writableFinished ? undefined : droppedAnswerOf(res);
    if (dropped) record(workspace, req, asked, { status: dropped.status, text: dropped.text, errorCode: undefined, replayed: dropped.replayed, answered: false, onboardingIds: undefined });
  });
}
