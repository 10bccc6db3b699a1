import { performance } from 'node:perf_hooks';
import type { Request, Response } from 'express';
import { maskKey } from '../core/journal.js';
import type { Workspace } from '../core/workspace.js';
import { droppedAnswerOf } from './faults.js';

/** Answers longer than this are not parsed for their error code or onboarding id. */
const ANSWER_READ_LIMIT = 256 * 1024;

const isOnboardingId = (v: unknown): v is string => typeof v === 'string' && v.startsWith('onb_');

function onboardingIds(path: string, body: unknown, answer: unknown): string[] {
  const ids = new Set(path.split('/').filter(isOnboardingId));
  for (const source of [body, answer]) {
    if (source === null || typeof source !== 'object' || Array.isArray(source)) continue;
    const { id, onboarding_id: onboardingId } = source as Record<string, unknown>;
    if (source === answer && isOnboardingId(id)) ids.add(id);
    if (isOnboardingId(onboardingId)) ids.add(onboardingId);
  }
  return [...ids];
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
 * one whose answer a fault dropped is (`answered: false`).
 */
export function journalRequest(req: Request, res: Response, workspace: Workspace, key: string): void {
  const started = performance.now();
  const at = workspace.clock.iso();
  // The answer's text, caught on its way out: its envelope gives the error code, its id the onboarding.
  let answer: string | undefined;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((...args: unknown[]) => {
    const [chunk] = args;
    if (typeof chunk === 'string') answer = chunk;
    else if (Buffer.isBuffer(chunk) && chunk.length <= ANSWER_READ_LIMIT) answer = chunk.toString('utf8');
    return end(...args);
  }) as Response['end'];
  const record = (status: number, text: string | undefined, json: boolean, replayed: boolean, answered: boolean): void => {
    const body: unknown = (req as Request & { body?: unknown }).body ?? null;
    const reply = status >= 400 || json ? parsed(text) : undefined;
    const error = status >= 400 ? (reply as { error?: { code?: unknown } } | undefined)?.error?.code : undefined;
    workspace.requests.record({
      at,
      key: maskKey(key),
      method: req.method,
      path: req.path,
      query: { ...(req.query as Record<string, unknown>) },
      headers: {
        idempotency_key: req.get('Idempotency-Key') ?? null,
        service_version: req.get('Service-Version') ?? null,
        service_organization: req.get('Service-Organization') ?? null,
      },
      body,
      status,
      error_code: typeof error === 'string' ? error : null,
      replayed,
      answered,
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
      onboarding_ids: onboardingIds(req.path, body, reply),
    });
  };
  res.on('finish', () => {
    const json = res.getHeader('Content-Type')?.toString().startsWith('application/json') === true;
    record(res.statusCode, answer, json, res.getHeader('Idempotent-Replayed') === 'true', true);
  });
  // An answer an injected fault dropped: the request ran and committed, so it is recorded with
  // what it would have answered. A client that hung up on its own is not.
  res.on('close', () => {
    const dropped = res.writableFinished ? undefined : droppedAnswerOf(res);
    if (dropped) record(dropped.status, dropped.text, true, dropped.replayed, false);
  });
}
