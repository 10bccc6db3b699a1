import type { Command } from 'commander';
import type { ControlClient, RequestPage } from '../../control/control.client.js';
import type { ExpectedCount } from '../../core/journal.match.js';
import { action, clientCommand, commandGroup, optionsOf, printJson, printTable } from '../client.js';
import { ApiError, httpControl, UsageError } from '../../client/http.js';
import { parseInterval, pollUntilInterrupted, printNdjson, tableStream } from '../follow.js';

type Entry = RequestPage['data'][number];
type Filter = NonNullable<Parameters<ControlClient['requests']['find']>[0]>;
type Matcher = Parameters<ControlClient['requests']['verify']>[0];

/** The filter flags, shared by the list and `verify`; `--key` is the API key of every client command, so the request's key is `--with-key`. */
interface FilterOptions {
  method?: string;
  path?: string;
  status?: string;
  errorCode?: string;
  withKey?: string;
  since?: string;
  onboarding?: string;
  idempotencyKey?: string;
  withoutIdempotencyKey?: boolean;
  replayed?: boolean;
  workspace?: string;
}

function addFilterOptions(cmd: Command): Command {
  return cmd
    .option('--method <method>', 'only requests of this method (GET, POST, PATCH, PUT, DELETE)')
    .option('--path <path>', 'only requests to this path, exact or a prefix ending in * (/v1/onboardings*)')
    .option('--status <code>', 'only requests answered with this HTTP status')
    .option('--error-code <code>', 'only requests answered with this error code, e.g. idempotency_key_reused')
    .option('--with-key <key>', 'only requests sent with this API key (full, or masked as the journal shows it)')
    .option('--since <iso>', 'only requests at or after this instant of the workspace clock')
    .option('--onboarding <id>', 'only requests naming this onboarding (path, body or answer)')
    .option('--idempotency-key <key>', 'only requests sent with this Idempotency-Key')
    .option('--without-idempotency-key', 'only requests sent without an Idempotency-Key (the ones a blind retry could repeat)')
    .option('--replayed', 'only requests answered with the replay of an earlier answer')
    .option('--workspace <id>', 'the workspace to read (default: the one --key belongs to, else default)');
}

function whole(raw: string, flag: string): number {
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`${flag} must be a whole number: ${raw}`);
  return Number(raw);
}

/** The flags as the route's query names them; only given values are sent. */
function filterOf(opts: FilterOptions): Matcher {
  return {
    // Any word is sent: the emulator refuses a method it does not know with 422, and the user sees why.
    ...(opts.method ? { method: opts.method.toUpperCase() as Matcher['method'] } : {}),
    ...(opts.path ? { path: opts.path } : {}),
    ...(opts.status ? { status: whole(opts.status, '--status') } : {}),
    ...(opts.errorCode ? { error_code: opts.errorCode } : {}),
    ...(opts.withKey ? { key: opts.withKey } : {}),
    ...(opts.since ? { since: opts.since } : {}),
    ...(opts.onboarding ? { onboarding_id: opts.onboarding } : {}),
    ...(opts.idempotencyKey ? { idempotency_key: opts.idempotencyKey } : {}),
    ...(opts.withoutIdempotencyKey ? { has_idempotency_key: false } : {}),
    ...(opts.replayed ? { replayed: true } : {}),
  };
}

/** The journal's own sequence (jrn_000042 is 42): it only grows, a clear included; a reset or a loaded snapshot starts another. */
const seqOf = (e: Entry | undefined): number => (e === undefined ? 0 : Number(/(\d+)$/.exec(e.id)?.[1] ?? 0));

const HEADERS = ['at', 'method', 'path', 'status', 'error code', 'replayed', 'idempotency key', 'ms'];
/** Wide enough for the usual values, so the rows of later polls line up with the first ones. */
const MIN_WIDTHS = [24, 6, 32, 6, 20, 8, 15];

function rowOf(e: Entry): (string | number | null)[] {
  return [
    e.at,
    e.method,
    e.path,
    // The answer an injected fault dropped: the status it would have had.
    e.answered ? e.status : `${e.status} unsent`,
    e.error_code,
    e.replayed ? 'yes' : 'no',
    e.headers.idempotency_key,
    e.duration_ms === null ? null : e.duration_ms.toFixed(1),
  ];
}

const UNMATCHED_HEADERS = ['at', 'method', 'path', 'status', 'error code', 'why', 'near miss'];

function unmatchedRowOf(e: Entry): (string | number | null)[] {
  const u = e.unmatched;
  return [e.at, e.method, e.path, e.status, e.error_code, u?.reason ?? null, u?.hint ?? null];
}

const note = (text: string) => process.stderr.write(`${text}\n`);

/**
 * --follow: each poll walks the matching requests newest first down to the last one printed
 * (by the ids' sequence), and prints what is above it oldest first. A second, unfiltered look at
 * the newest request tells a journal replaced (a reset, a loaded snapshot: the sequence went
 * back) from one that only grew; the last printed request missing from the walk means it was
 * dropped or cleared, which is said on stderr.
 */
async function follow(client: ControlClient, filter: Filter, limit: number | undefined, interval: number, print: (batch: Entry[]) => void): Promise<void> {
  let last = 0;
  /** The last printed request is no longer in the journal: said once, until a newer one is printed. */
  let lastGone = false;
  let newestSeen = 0;
  let dropped = 0;
  const probe = async () => {
    const page = await client.requests.find({ limit: 1 });
    return { newest: seqOf(page.data[0]), dropped: page.dropped };
  };
  /** The newest `limit` matching requests, as a listing would show them; the start of the follow. */
  const backlog = async () => {
    const page = await client.requests.find({ ...filter, ...(limit !== undefined ? { limit } : {}) });
    const p = await probe();
    print([...page.data].reverse());
    last = seqOf(page.data[0]);
    lastGone = false;
    newestSeen = p.newest;
    dropped = p.dropped;
  };
  await backlog();
  note('following new requests (Ctrl-C to stop)');
  await pollUntilInterrupted(interval, async () => {
    const fresh: Entry[] = [];
    let reachedLast = false;
    let cursor: string | undefined;
    try {
      for (;;) {
        const page = await client.requests.find({ ...filter, limit: 100, ...(cursor !== undefined ? { starting_after: cursor } : {}) });
        for (const e of page.data) {
          if (seqOf(e) <= last) {
            reachedLast = true;
            break;
          }
          fresh.push(e);
        }
        if (reachedLast || !page.has_more || page.next_cursor === null) break;
        cursor = page.next_cursor;
      }
    } catch (err) {
      // The page's cursor was dropped between two pages: walk again at the next poll.
      if (err instanceof ApiError && err.code === 'cursor_invalid') return;
      throw err;
    }
    const p = await probe();
    if (p.newest !== 0 && p.newest < newestSeen) {
      note('the journal was replaced (workspace reset or snapshot loaded): following it from its newest requests');
      return backlog();
    }
    if (!reachedLast && last > 0 && !lastGone) {
      lastGone = true;
      note(p.dropped > dropped
        ? 'older requests were dropped from the journal (it keeps the newest 1000) before this poll: some may be missing'
        : 'the last request shown is no longer in the journal (cleared, or the workspace reset): requests recorded and removed between two polls are not shown');
    }
    print(fresh.reverse());
    if (fresh.length > 0) {
      last = seqOf(fresh.at(-1));
      lastGone = false;
    }
    newestSeen = Math.max(newestSeen, p.newest);
    dropped = p.dropped;
  });
}

function expectedOf(opts: { exactly?: string; atLeast?: string; atMost?: string }): ExpectedCount {
  const given = [
    ...(opts.exactly !== undefined ? [{ exactly: whole(opts.exactly, '--exactly') }] : []),
    ...(opts.atLeast !== undefined ? [{ at_least: whole(opts.atLeast, '--at-least') }] : []),
    ...(opts.atMost !== undefined ? [{ at_most: whole(opts.atMost, '--at-most') }] : []),
  ];
  if (given.length !== 1) throw new UsageError('give exactly one of --exactly, --at-least, --at-most');
  return given[0]!;
}

const describeExpected = (expected: object) => Object.entries(expected).map(([k, v]) => `${k.replace('_', ' ')} ${String(v)}`).join(', ');

export function registerRequests(program: Command): void {
  const requests = commandGroup(program, 'requests', "List, follow, verify or clear the workspace's recorded /v1 requests (/_emulator/requests); `requests` alone lists them");

  // The default command: `requests --status 422` is `requests list --status 422`.
  addFilterOptions(clientCommand(requests, 'list', "List the recorded /v1 requests, newest at the bottom, or follow new ones (GET /_emulator/requests)", { isDefault: true }))
    .option('--limit <n>', 'how many of the newest matching requests to show (1 to 1000; default 100)')
    .option('--follow', 'after the list, print each new request once as it arrives, until Ctrl-C')
    .option('--interval <ms>', 'with --follow, how often to poll, in milliseconds', '500')
    .addHelpText('after', [
      '',
      'The table shows the newest matching requests with the newest at the bottom, as a log reads;',
      'the time is the workspace clock. --json prints the route\'s answer as it came (newest first);',
      'with --follow, one request per line (NDJSON) in arrival order. Notes (dropped requests, a',
      'cleared or replaced journal) go to stderr.',
      '',
      'Examples:',
      '  onboarding-emulator requests --path \'/v1/onboardings*\' --status 422',
      '  onboarding-emulator requests --follow --method POST',
      '  onboarding-emulator requests --format har > requests.har',
      '  onboarding-emulator requests verify --method POST --path /v1/onboardings --exactly 1',
      '  onboarding-emulator requests clear',
      '',
      '`requests` alone is this command; `requests verify` and `requests clear` are the others.',
    ].join('\n'))
    .option('--unmatched', 'the requests that reached no workspace instead (no key, an unknown key, a path no route serves), each with its near miss')
    .option('--format <format>', 'table (the default; --json for the answer as it came) or har: the matching requests, oldest first, as an HTTP Archive (HAR 1.2) on stdout, every one unless --limit')
    .action(action(async (opts: FilterOptions & { limit?: string; follow?: boolean; interval: string; unmatched?: boolean; format?: string }, cmd: Command) => {
      const o = optionsOf(cmd);
      const filter: Filter = { ...filterOf(opts), ...(opts.unmatched ? { unmatched: true } : {}) };
      const limit = opts.limit !== undefined ? whole(opts.limit, '--limit') : undefined;
      const client = httpControl(o, opts.workspace);
      if (opts.follow && opts.unmatched) throw new UsageError('--follow follows a workspace\'s journal; --unmatched lists the requests that reached none: use one of them');
      if (opts.format !== undefined && opts.format !== 'table' && opts.format !== 'har') throw new UsageError(`--format must be table or har: ${opts.format}`);
      if (opts.format === 'har') {
        if (opts.follow) throw new UsageError('--format har writes one document; it cannot --follow');
        return printJson(await client.requests.har({ ...filter, ...(limit !== undefined ? { limit } : {}) }));
      }
      if (opts.follow) {
        const interval = parseInterval(opts.interval);
        const table = tableStream(HEADERS, MIN_WIDTHS);
        return follow(client, filter, limit, interval, (batch) => (o.json ? printNdjson(batch) : table(batch.map(rowOf))));
      }
      const page = await client.requests.find({ ...filter, ...(limit !== undefined ? { limit } : {}) });
      if (o.json) return printJson(page);
      if (page.data.length === 0) process.stdout.write('no requests\n');
      else if (opts.unmatched) printTable(UNMATCHED_HEADERS, [...page.data].reverse().map(unmatchedRowOf));
      else printTable(HEADERS, [...page.data].reverse().map(rowOf));
      if (page.has_more) process.stdout.write(`showing the newest ${page.data.length} of ${page.total} matching (--limit for more)\n`);
      if (page.dropped > 0) process.stdout.write(`${page.dropped} older requests were dropped to keep the journal bounded\n`);
    }));

  addFilterOptions(clientCommand(requests, 'verify', 'Check how many recorded requests match; exit 1 when not as expected, with the nearest requests and how they differ'))
    .option('--body-includes <json>', 'fields the body must hold with these values, as JSON (objects by subset)')
    .option('--exactly <n>', 'exactly this many must match')
    .option('--at-least <n>', 'at least this many must match')
    .option('--at-most <n>', 'at most this many must match')
    .addHelpText('after', '\nExample:\n  onboarding-emulator requests verify --method POST --path /v1/onboardings --body-includes \'{"employee":{"email":"a@example.com"}}\' --exactly 1')
    .action(action(async (opts: FilterOptions & { bodyIncludes?: string; exactly?: string; atLeast?: string; atMost?: string }, cmd: Command) => {
      const o = optionsOf(cmd);
      const matcher = filterOf(opts);
      if (opts.bodyIncludes !== undefined) {
        try {
          matcher.body_includes = JSON.parse(opts.bodyIncludes) as unknown;
        } catch (err) {
          throw new UsageError(`--body-includes is not valid JSON: ${(err as Error).message}`);
        }
      }
      const expected = expectedOf(opts);
      const result = await httpControl(o, opts.workspace).requests.verify(matcher, expected);
      if (!result.ok) process.exitCode = 1;
      if (o.json) return printJson(result);
      const counted = `${result.count} matching request${result.count === 1 ? '' : 's'} (expected ${describeExpected(result.expected)})`;
      process.stdout.write(result.ok ? `ok: ${counted}\n` : `not as expected: ${counted}\n`);
      if (result.nearest.length === 0) return;
      process.stdout.write('\nnearest:\n');
      printTable(['at', 'method', 'path', 'status', 'error code', 'differs in'], result.nearest.map(({ request: e, differs }) => [
        e.at, e.method, e.path, e.status, e.error_code, differs.length > 0 ? differs.join(', ') : '(matches)',
      ]));
    }));

  clientCommand(requests, 'clear', 'Empty the request journal and its dropped count (DELETE /_emulator/requests)')
    .option('--workspace <id>', 'the workspace to clear (default: the one --key belongs to, else default)')
    .action(action(async (opts: { workspace?: string }, cmd: Command) => {
      const o = optionsOf(cmd);
      const cleared = await httpControl(o, opts.workspace).requests.clear();
      if (o.json) return printJson(cleared);
      process.stdout.write(`cleared ${cleared.deleted} request${cleared.deleted === 1 ? '' : 's'}${cleared.dropped > 0 ? ` (and a count of ${cleared.dropped} dropped)` : ''}\n`);
    }));
}
