import { matches, type ExpectedCount, type JournalEntry, type RequestFilter, type RequestMatcher, type Verification } from '../core/journal.js';
import { paginate, type Page } from '../core/pagination.js';
import type { Workspace } from '../core/workspace.js';

export interface RequestsFilter extends RequestFilter {
  limit?: number | undefined;
  starting_after?: string | undefined;
}

/** `limit`: the requests the journal keeps; 0 when it is off (`--journal-limit 0`). */
export type RequestPage = Page<JournalEntry> & { total: number; dropped: number; limit: number };

/** The workspace's recorded /v1 requests, newest first, filtered and paged. */
export function findRequests(ws: Workspace, filter: RequestsFilter = {}): RequestPage {
  const { limit, starting_after: startingAfter, ...matcher } = filter;
  const all = ws.requests.newestFirst();
  const match = (e: JournalEntry) => matches(e, matcher);
  const page = paginate(all, (e) => e.id, { limit, starting_after: startingAfter }, { defaultLimit: 100, filter: match });
  return { ...page, total: all.filter(match).length, dropped: ws.requests.dropped, limit: ws.requests.limit };
}

export function verifyRequests(ws: Workspace, input: { matcher: RequestMatcher; expected: ExpectedCount }): Verification {
  return ws.requests.verify(input.matcher, input.expected);
}

/** Empties the journal and its count of dropped requests; says what it held. */
export function clearRequests(ws: Workspace): { deleted: number; dropped: number } {
  const held = { deleted: ws.requests.newestFirst().length, dropped: ws.requests.dropped };
  ws.requests.clear();
  return held;
}
