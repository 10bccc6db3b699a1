import type { AnsweredEntry, JournalEntry } from '../core/journal.js';
import { matches, verifyEntries, type ExpectedCount, type RequestFilter, type RequestMatcher, type Verification } from '../core/journal.match.js';
import { paginate, type Page } from '../core/pagination.js';
import type { Unmatched } from '../core/unmatched.js';
import type { Workspace } from '../core/workspace.js';
import type { JsonFile } from '../operations/reply.js';
import { harFile } from './har.document.js';
import type { Har } from './har.schemas.js';
import { requestEntry } from './requests.har.js';

export interface RequestsFilter extends RequestFilter {
  limit?: number | undefined;
  starting_after?: string | undefined;
  unmatched?: boolean | undefined;
  format?: 'json' | 'har' | undefined;
}

type Listed = JournalEntry & { unmatched?: Unmatched };

/** `limit`: the requests the journal keeps; 0 when it is off (`--journal-limit 0`). */
export type RequestPage = Page<Listed> & { total: number; dropped: number; limit: number };

/** What requests are read from: a workspace's journal, or the emulator's unmatched requests. */
interface RequestSource {
  newestFirst(): Listed[];
  /** The entries with the answers still held; a source that keeps none has no such method. */
  answeredNewestFirst?(): AnsweredEntry[];
  readonly dropped: number;
  readonly limit: number;
}

/** The recorded requests, newest first, filtered and paged. */
export function findRequests(source: RequestSource, filter: RequestsFilter = {}): RequestPage {
  const { limit, starting_after: startingAfter, unmatched: _source, format: _format, ...matcher } = filter;
  const all = source.newestFirst();
  const match = (e: JournalEntry) => matches(e, matcher);
  const page = paginate(all, (e) => e.id, { limit, starting_after: startingAfter }, { defaultLimit: 100, filter: match });
  return { ...page, total: all.filter(match).length, dropped: source.dropped, limit: source.limit };
}

/**
 * The requests a HAR export holds: filtered and, with `limit` or `starting_after`, paged as the
 * list is; else every one the journal keeps. Oldest first, as a browser lists what it saw.
 */
export function harRequests(source: RequestSource, filter: RequestsFilter, baseUrl: string): JsonFile<Har> {
  const { limit, starting_after: startingAfter, unmatched: _source, format: _format, ...matcher } = filter;
  const all = source.answeredNewestFirst?.() ?? source.newestFirst().map((entry) => ({ entry, answer: null }));
  const page = paginate(all, (e) => e.entry.id, { limit, starting_after: startingAfter }, { defaultLimit: all.length, filter: (e) => matches(e.entry, matcher) });
  const entries = page.data.reverse().map((e) => requestEntry(e, baseUrl));
  return harFile(entries, `${entries.length} recorded request(s)${page.has_more ? `; older ones after starting_after=${page.next_cursor}` : ''}`);
}

export function verifyRequests(ws: Workspace, input: { matcher: RequestMatcher; expected: ExpectedCount }): Verification {
  return verifyEntries(ws.requests.newestFirst(), input.matcher, input.expected);
}

/** Empties the journal and its count of dropped requests; says what it held. */
export function clearRequests(ws: Workspace): { deleted: number; dropped: number } {
  const held = { deleted: ws.requests.newestFirst().length, dropped: ws.requests.dropped };
  ws.requests.clear();
  return held;
}
