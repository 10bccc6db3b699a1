import { performance } from 'node:perf_hooks';
import type { Request, Response } from 'express';
import { isOnboardingId, JOURNAL_BODY_CAP, type JournalInputAtMs, type LaterIds } from '../core/journal.js';
import { maskSecret } from '../core/mask.js';
import { tracer } from '../core/tracing.js';
import type { Workspace } from '../core/workspace.js';
import { hasBody, type WithRawBody } from './body.js';
import { droppedAnswerOf } from './faults.js';
import { keepOutcome } from './reply.js';

/** Answers longer than this are not parsed for their error code or onboarding id. */
const ANSWER_READ_LIMIT = 256 * 1024;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The onboarding ids of the path: its segments starting with onb_, each once. */
function pathIds(path: string): string[] {
  const ids: string[] = [];
  for (let at = path.indexOf('/onb_'); at !== -1; ) {
    const end = path.indexOf('/', at + 1);
    const id = path.slice(at + 1, end === -1 ? undefined : end);
    if (!ids.includes(id)) ids.push(id);
    at = end === -1 ? -1 : path.indexOf('/onb_', end);
  }
  return ids;
}

/**
 * A path as the entries keep it, and the onboarding ids it names: the entries for one path share
 * its string and its ids (never changed: the journal copies them when read), instead of each
 * keeping objects of its own until the journal drops it, long after the young generation.
 */
interface KnownPath {
  path: string;
  ids: string[];
}
const knownPaths = new Map<string, KnownPath>();
function known(path: string): KnownPath {
  let k = knownPaths.get(path);
  if (k === undefined) {
    if (knownPaths.size >= 1000) knownPaths.clear();
    k = { path, ids: pathIds(path) };
    knownPaths.set(path, k);
  }
  return k;
}

/** The onboarding ids of the path and of the body's onboarding_id. */
function requestIds(path: KnownPath, body: unknown): string[] {
  const onboardingId = isRecord(body) ? body.onboarding_id : undefined;
  return isOnboardingId(onboardingId) && !path.ids.includes(onboardingId) ? [...path.ids, onboardingId] : path.ids;
}

/** Masked keys by key: only keys that named a workspace get here, a handful per workspace. */
const maskedKeys = new Map<string, string>();
function masked(key: string): string {
  let m = maskedKeys.get(key);
  if (m === undefined) {
    if (maskedKeys.size >= 1000) maskedKeys.clear();
    m = maskSecret(key);
    maskedKeys.set(key, m);
  }
  return m;
}

/** The body's size as sent: its Content-Length, else (chunked) the size of its JSON. */
function sizeOf(req: Request, body: unknown): number {
  const length = Number(req.headers['content-length']);
  return Number.isInteger(length) && length >= 0 ? length : Buffer.byteLength(JSON.stringify(body) ?? '', 'utf8');
}

/** Shared by every entry without a query (most of them): Express parses req.query anew on every read. */
const NO_QUERY: Record<string, unknown> = Object.freeze({});

/** A header as the journal keeps it: repeated values joined, none as null. */
export const headerText = (v: string | string[] | undefined): string | null => (v === undefined ? null : Array.isArray(v) ? v.join(', ') : v);

/**
 * One input for every request, filled in place: append() copies what it keeps, so recording
 * makes no object per request beyond what the entry holds (its ids, its body's text).
 */
const input: JournalInputAtMs = {
  at: 0,
  key: '',
  method: '',
  path: '',
  query: NO_QUERY,
  headers: { idempotency_key: null, service_version: null, service_organization: null },
  body: null,
  body_text: null,
  answer_text: null,
  body_bytes: null,
  status: 0,
  error_code: null,
  replayed: false,
  answered: false,
  duration_ms: 0,
  onboarding_ids: [],
  trace_id: null,
};

function parsed(text: string | undefined): unknown {
  if (text === undefined || text.length > ANSWER_READ_LIMIT) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What a request was answered, or would have been (`answered: false`). */
interface Answered {
  status: number;
  /** The JSON text sent, when the writer kept it. */
  text: string | undefined;
  /** undefined: still to read from the text (a dropped answer's). */
  errorCode: string | null | undefined;
  replayed: boolean;
  answered: boolean;
  /** Named by the writer, which had the answer as an object. */
  onboardingIds: string[] | undefined;
}

/**
 * What a request asked, read as it names its workspace, while the route handler has the request
 * at hand: once the answer has gone, every read of the request is a slow lookup (Express gives
 * each request a hidden class of its own, which the engine's caches have forgotten by then).
 */
class Asked {
  readonly started = performance.now();
  /** On the workspace clock, in epoch milliseconds: the journal makes it an ISO instant when read. */
  readonly at: number;
  readonly key: string;
  readonly method: string;
  readonly path: KnownPath;
  readonly query: Record<string, unknown>;
  readonly idempotencyKey: string | null;
  readonly serviceVersion: string | null;
  readonly serviceOrganization: string | null;
  /** False when the client sent no body: none is read into the request then (readJsonBody). */
  readonly hasBody: boolean;
  /** The trace of the request's span (src/http/tracing.ts); null with tracing off. */
  readonly traceId: string | null;

  constructor(readonly req: Request, workspace: Workspace, key: string) {
    const h = req.headers;
    this.at = workspace.clock.nowMs();
    this.key = masked(key);
    this.method = req.method;
    this.path = known(req.path);
    // Express parses the query anew on every read of req.query: not at all when there is none.
    this.query = req.url.includes('?') ? { ...(req.query as Record<string, unknown>) } : NO_QUERY;
    this.idempotencyKey = headerText(h['idempotency-key']);
    this.serviceVersion = headerText(h['service-version']);
    this.serviceOrganization = headerText(h['service-organization']);
    this.hasBody = hasBody(req);
    this.traceId = tracer().traceId() || null;
  }
}

/** The body's text as sent, without the byte order mark the JSON parser skipped (JSON.parse does not). */
const textOf = (raw: Buffer): string => (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.toString('utf8', 3) : raw.toString('utf8'));

/** Fills the shared input with the request and its answer, and appends it to the workspace's journal. */
function record(workspace: Workspace, asked: Asked, answer: Answered): void {
  const { req } = asked;
  const sent: unknown = asked.hasBody ? ((req as Request & { body?: unknown }).body ?? null) : null;
  const raw = sent === null ? undefined : (req as WithRawBody).rawBody;
  const bodyBytes = sent === null ? null : raw ? raw.length : sizeOf(req, sent);
  let ids = requestIds(asked.path, sent);
  let error = answer.errorCode;
  let later: LaterIds | undefined;
  if (answer.status >= 400) {
    // Only a dropped answer has its code still to read (its envelope is small); an envelope names no onboarding.
    if (error === undefined) error = (parsed(answer.text) as { error?: { code?: unknown } } | undefined)?.error?.code as string | undefined;
  } else if (answer.onboardingIds) {
    for (const id of answer.onboardingIds) if (!ids.includes(id)) ids = [...ids, id];
  } else if (answer.text !== undefined && answer.text.length <= ANSWER_READ_LIMIT) {
    // A success answer is only read for its ids: parsed when the journal is read, if ever.
    later = answer.text;
  }
  input.at = asked.at;
  input.key = asked.key;
  input.method = asked.method;
  input.path = asked.path.path;
  input.query = asked.query;
  input.headers.idempotency_key = asked.idempotencyKey;
  input.headers.service_version = asked.serviceVersion;
  input.headers.service_organization = asked.serviceOrganization;
  // The body as sent, as text; a large one as its size only (JOURNAL_BODY_CAP). Its ids are read above.
  input.body_text = sent === null || bodyBytes! > JOURNAL_BODY_CAP ? null : raw ? textOf(raw) : JSON.stringify(sent);
  input.body_bytes = bodyBytes;
  input.answer_text = answer.text ?? null;
  input.status = answer.status;
  input.error_code = typeof error === 'string' ? error : null;
  input.replayed = answer.replayed;
  input.answered = answer.answered;
  input.duration_ms = Math.round((performance.now() - asked.started) * 1000) / 1000;
  input.onboarding_ids = ids;
  input.trace_id = asked.traceId;
  workspace.requests.append(input, later);
  workspace.activity.notify();
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
  const kept = keepOutcome(res);
  const asked = new Asked(req, workspace, key);
  res.on('finish', () => {
    const { sent } = kept;
    const answer: Answered = sent
      ? { status: sent.status, text: sent.json, errorCode: sent.errorCode ?? null, replayed: sent.replayed, answered: true, onboardingIds: sent.onboardingIds }
      : { status: res.statusCode, text: undefined, errorCode: null, replayed: res.getHeader('Idempotent-Replayed') === 'true', answered: true, onboardingIds: undefined };
    record(workspace, asked, answer);
  });
  // An answer an injected fault dropped, or a slow one the client hung up on: the request ran
  // and committed, so it is recorded with what it would have answered. A client that hung up
  // on an ordinary request is not. Only a fault taken by
  // this request drops its answer, and faults are taken right after this call, synchronously:
  // with none waiting now, there is nothing to listen for.
  if (workspace.faults.size === 0) return;
  res.on('close', () => {
    const dropped = res.writableFinished ? undefined : droppedAnswerOf(res);
    if (dropped) record(workspace, asked, { status: dropped.status, text: dropped.text, errorCode: undefined, replayed: dropped.replayed, answered: false, onboardingIds: undefined });
  });
}
