import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { monotonicMs } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { wallTimeout } from '../core/timers.js';
import type { WorkspaceSnapshot } from './snapshot.js';
import type { Workspace } from '../core/workspace.js';
import { appendDurably, writeDurably, writeDurablySync } from './durable-file.js';
import { ChangeTracker, logLine, replayLog, type LogDamage, type Replayed } from './change-log.js';
import type { StoreLayout } from '../core/store.js';
import { STORE_LAYOUT } from '../resources/collections.js';

/**
 * `--state-file PATH`: the default workspace kept in a JSON file (a snapshot document) and its
 * change log beside it (`PATH.log`, src/persistence/change-log.ts). The promise is that an
 * answer is only sent once the files hold what its request changed: the HTTP layer awaits
 * commit() before it answers (src/http/hold.ts). Writes are group commits: one runs at a time,
 * and everything that asks for a write while it runs shares the next one, which takes what
 * changed when it starts. A write appends one record to the log, so it costs what changed,
 * not what the store holds; the document is written whole (and the log emptied) at start, at
 * close, after a reset, a restore or a failed write, once the log outgrows the document, and
 * once writes pause (compaction). Every write is durable (src/persistence/durable-file.ts), and
 * a snapshot never waits for webhook attempts: one still running is stored as due again.
 */
export class StateFileError extends Error {
  /** What to do about it, one or two sentences for the command line. */
  readonly hint: string;

  /** `hint`: when the message already says what to do, '' (nothing more is printed). */
  constructor(message: string, cause?: unknown, hint?: string) {
    super(message);
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    this.hint = hint ?? (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? accessHint(code) : 'The file was left as it is. Fix or remove it, or start with --reset-state to start from the fixtures and overwrite it.');
  }
}

/** No permission, or a read-only file system: --reset-state cannot help, a writable folder can. */
function accessHint(code: string): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const who = uid === undefined ? 'the emulator' : `the emulator (uid ${uid})`;
  return `${who} may not write there (${code === 'EROFS' ? 'a read-only file system' : 'permission denied'}). `
    + 'Put the state file in a folder it can write: in the container image that is /data, with a volume mounted on it '
    + '(-v emu-state:/data -e EMULATOR_STATE_FILE=/data/state.json); a folder of the host mounted there must belong to uid 1000 (chown 1000 DIR).';
}

/**
 * What the state file asks of the emulator (the composition root, which opens it). It hears the
 * changes of the default workspace from the workspace itself (`activity`, its change notice).
 */
export interface StateFileHost {
  readonly defaultWorkspace: Workspace;
  snapshot(ws: Workspace): WorkspaceSnapshot;
  restore(ws: Workspace, document: unknown, restart?: number): void;
  /** Names the scenario given at start, so a stored state can say which one it played. */
  startScenarioDigest(): string | null;
  /** After a restore at start: a start scenario other than the stored state's replaces it; says whether it did. */
  adoptStartScenario(ws: Workspace, storedDigest: string | null | undefined): boolean;
}

export interface StateFileOptions {
  path: string;
  /** Start from the fixtures and overwrite the file, whatever it holds. */
  reset?: boolean | undefined;
  /**
   * A change log damaged before its end does not stop the start: the records before the damage
   * are kept, the log is moved aside (`repaired` says where and what was dropped).
   */
  repair?: boolean | undefined;
  /** A failed write nobody waited for (timers, deliveries); the next write tries again. Default: ignored. */
  onError?: ((err: Error) => void) | undefined;
  /** The document is rewritten with the log folded in once no write came for this long (ms). Default 200. */
  compactAfterIdleMs?: number | undefined;
  /** The document is rewritten once the log holds more bytes than it and than this. Default 8 MiB. */
  compactLogBytes?: number | undefined;
}

/**
 * A change no answer waits for (a timer, a delivery's outcome, an in-process call, a request's
 * journal entry, written once its answer is out) rides with the next write; when none starts
 * this long after the writes under way ended, it gets a write of its own. A client sending
 * requests one after another so pays one write per request, not a second for what trails each.
 */
const CHANGE_WRITE_AFTER_MS = 25;

/** The change log beside the state file. */
export const logPathOf = (path: string): string => `${path}.log`;

/**
 * Pairs a log with the document it follows. Not drawn from the workspace's seeded source: it
 * must differ between runs with the same seed (a log left by an earlier run must never match),
 * and no answer, event or snapshot shows it, so --seed determinism is untouched.
 */
const newLogId = (): string => randomBytes(8).toString('hex');

/** What happened at start: the file was read, made, or overwritten on --reset-state. */
export type StateFileStart = 'restored' | 'created' | 'reset';

/** A start that went on past a damaged change log (`repair`): what it kept, what it dropped, where the log went. */
export interface StateFileRepair {
  log: string;
  offset: number;
  kept: number;
  dropped: number;
  moved_to: string;
}

/** The line a start prints about a repair. */
export const repairMessage = (r: StateFileRepair): string =>
  `state file change log ${r.log} was damaged at byte ${r.offset}: kept the ${r.kept} records before it, dropped ${r.dropped} from it on; the damaged log was moved to ${r.moved_to}`;

interface Batch {
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

function batch(): Batch {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

export class StateFile {
  readonly path: string;
  readonly start: StateFileStart;
  /** The stored state played another scenario than the one given at start, which replaced it. */
  readonly scenarioReplaced: boolean = false;
  /** Starts on this file that followed a kill (the file was still open); each draws fresh ids. */
  readonly restarts: number;
  /** The start went on past a damaged change log (the `repair` option); null otherwise. */
  readonly repaired: StateFileRepair | null = null;
  readonly logPath: string;
  /** Follows the workspace since the document was written; null: the next write writes it whole. */
  private tracker: ChangeTracker | null = null;
  private documentBytes = 0;
  private logBytes = 0;
  /** The next write writes the document whole (compaction once writes paused). */
  private wholeNext = false;
  /** Stops the idle timer that folds the log into the document (a wall-clock wait: it is about the disk, not the workspace). */
  private cancelIdle: (() => void) | undefined;
  private closed = false;
  private running: Promise<void> | null = null;
  /** The next write's waiters; it starts when the running one ends. */
  private next: Batch | null = null;
  /** Writes started so far: one that started after a change notice holds that change. */
  private started = 0;
  /** When the last write ended (monotonic ms). */
  private endedAt = -Infinity;
  /** `started` at the last change notice no write was asked for yet. */
  private changedAt = 0;
  /** Stops the wait for a write to take the last change (CHANGE_WRITE_AFTER_MS). */
  private cancelChangeWrite: (() => void) | undefined;
  private readonly unsubscribe: () => void;

  /**
   * Reads (or makes) the file synchronously, so a bad file stops the start before the port
   * opens, and marks it open on the disk before any answer: a kill from now on is known at the
   * next start.
   */
  constructor(private readonly emulator: StateFileHost, private readonly options: StateFileOptions) {
    this.path = resolve(options.path);
    this.logPath = logPathOf(this.path);
    const read = options.reset ? null : readState(this.path, emulator.defaultWorkspace.recipe.collections, options.repair === true);
    const found = read === null ? NO_FILE : read.document;
    let restarts = 0;
    if (found !== NO_FILE) {
      // Read before the restore checks the document: a refused one never gets this far.
      const stored = (found as Partial<WorkspaceSnapshot> | null)?.state_file;
      restarts = typeof stored?.restarts === 'number' ? stored.restarts : 0;
      // Still open: the process was killed, and may have answered with ids past the stored random position.
      restoreFrom(emulator, found, this.path, stored?.open === true ? ++restarts : undefined);
      this.start = 'restored';
      this.scenarioReplaced = emulator.adoptStartScenario(emulator.defaultWorkspace, stored?.start_scenario);
    } else {
      this.start = options.reset ? 'reset' : 'created';
    }
    this.restarts = restarts;
    if (read?.damage) this.repaired = moveAside(this.logPath, read.damage);
    const logId = newLogId();
    const document = this.document(true, logId);
    const tracker = new ChangeTracker(emulator.defaultWorkspace, document, logId);
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      const text = JSON.stringify(document, null, 2);
      writeDurablySync(this.path, text);
      writeDurablySync(this.logPath, '');
      this.documentBytes = Buffer.byteLength(text);
    } catch (err) {
      throw new StateFileError(`state file ${this.path} cannot be written: ${(err as Error).message}`, err);
    }
    this.tracker = tracker;
    // The workspace object stays the same across a reset and a restore, and so does its notice.
    this.unsubscribe = emulator.defaultWorkspace.activity.on(() => this.changed());
  }

  /**
   * Resolves once a write that started after this call has reached the disk (or found the
   * state as the file holds it); rejects with a StateFileError when that write failed. After
   * close(), resolves at once: nothing more is written.
   */
  commit(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const waiting = (this.next ??= batch());
    if (!this.running) this.runNext();
    return waiting.promise;
  }

  /**
   * The default workspace's change notice, heard once the turn that changed it is over. A
   * request whose answer waits for the file asked for its write already (commit()), before its
   * notice came; what changed after that write took the state (the request's journal entry, say)
   * goes with the next one. So a write is only asked for when none started since the notice
   * within CHANGE_WRITE_AFTER_MS of the writes under way ending.
   */
  private changed(): void {
    if (this.closed || this.next) return; // a write still to start takes the change
    this.changedAt = this.started;
    if (this.cancelChangeWrite) return;
    const check = () => {
      const left = this.running ? CHANGE_WRITE_AFTER_MS : this.endedAt + CHANGE_WRITE_AFTER_MS - monotonicMs();
      if (left > 0) {
        this.cancelChangeWrite = wallTimeout(left, check);
        return;
      }
      this.cancelChangeWrite = undefined;
      if (this.started === this.changedAt) this.touch();
    };
    this.cancelChangeWrite = wallTimeout(CHANGE_WRITE_AFTER_MS, check);
  }

  /** A write nobody waits for; a failure goes to `onError`, and the next write tries again. */
  private touch(): void {
    this.commit().catch((err: unknown) => this.options.onError?.(err as Error));
  }

  /**
   * The last write, after the server stopped answering: marks the file closed, so the next
   * start continues the stored random position. Later changes are not written.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancelIdle?.();
    this.cancelChangeWrite?.();
    this.unsubscribe();
    while (this.running) await this.running;
    await this.write(false, true);
  }

  private runNext(): void {
    const waiting = this.next;
    if (!waiting) return;
    this.next = null;
    // write() takes what changed before its first await, so the batch holds every change made before now.
    const whole = this.wholeNext;
    this.wholeNext = false;
    this.started++;
    this.running = this.write(true, whole)
      .then(waiting.resolve, waiting.reject)
      .finally(() => {
        this.running = null;
        this.endedAt = monotonicMs();
        this.runNext();
      });
  }

  /**
   * Appends what changed as one record to the log, or writes the document whole (`whole`, or
   * when the log cannot follow: nothing written yet, a failed write, a reset or a restore, a log
   * larger than the document).
   */
  private async write(open: boolean, whole: boolean): Promise<void> {
    const ws = this.emulator.defaultWorkspace;
    const tracker = this.tracker;
    if (!whole && tracker?.follows(ws) && this.logBytes <= Math.max(this.documentBytes, this.options.compactLogBytes ?? 8 * 1024 * 1024)) {
      let line: string | null;
      try {
        const record = tracker.take(this.trailer(open, tracker.logId));
        line = record && logLine(record);
      } catch (err) {
        this.tracker = null;
        throw new StateFileError(`state file ${this.path}: the state could not be taken: ${(err as Error).message}`);
      }
      if (line === null) return;
      try {
        await appendDurably(this.logPath, line);
      } catch (err) {
        // The log may end in part of the record now: the next write starts a new document and log.
        this.tracker = null;
        throw new StateFileError(`state file ${this.path} could not be written: ${(err as Error).message}`, err);
      }
      this.logBytes += Buffer.byteLength(line);
      this.compactWhenIdle();
      return;
    }
    this.tracker = null;
    let text: string;
    const logId = newLogId();
    let next: ChangeTracker;
    try {
      const document = this.document(open, logId);
      next = new ChangeTracker(ws, document, logId);
      text = JSON.stringify(document, null, 2);
    } catch (err) {
      throw new StateFileError(`state file ${this.path}: the state could not be taken: ${(err as Error).message}`);
    }
    try {
      // The document first: a kill between the two leaves the old log, which names the old document and is ignored.
      await writeDurably(this.path, text);
      await writeDurably(this.logPath, '');
    } catch (err) {
      throw new StateFileError(`state file ${this.path} could not be written: ${(err as Error).message}`, err);
    }
    this.documentBytes = Buffer.byteLength(text);
    this.logBytes = 0;
    this.tracker = next;
  }

  /** Once no write came for a while, the next write folds the log into the document. */
  private compactWhenIdle(): void {
    this.cancelIdle?.();
    this.cancelIdle = wallTimeout(this.options.compactAfterIdleMs ?? 200, () => {
      if (this.closed || this.logBytes === 0) return;
      this.wholeNext = true;
      this.touch();
    });
  }

  private trailer(open: boolean, log: string): NonNullable<WorkspaceSnapshot['state_file']> {
    return { start_scenario: this.emulator.startScenarioDigest(), open, restarts: this.restarts, log };
  }

  /** The default workspace's snapshot with what only the state file records. */
  private document(open: boolean, log: string): WorkspaceSnapshot {
    const snapshot = this.emulator.snapshot(this.emulator.defaultWorkspace);
    return { ...snapshot, state_file: this.trailer(open, log) };
  }
}

const NO_FILE = Symbol('no file');

/** The file's JSON, or NO_FILE when there is none; a file that cannot be read or parsed is refused. */
function readFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return NO_FILE;
    throw new StateFileError(`state file ${path} cannot be read (${(err as Error).message})`, err);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new StateFileError(`state file ${path} is not valid JSON (${(err as Error).message})`);
  }
}

/**
 * The document at `path` with the records of its change log applied (they follow it only when
 * they name it: an older log and a torn last record are ignored), or NO_FILE when there is no
 * document. A log damaged before its end is refused, unless `repair`: then what comes before
 * the damage is applied, and `damage` says where it starts.
 */
function readState(path: string, layout: StoreLayout, repair: boolean): { document: unknown; damage: LogDamage | null } {
  const found = readFile(path);
  return found === NO_FILE ? { document: found, damage: null } : applyChangeLog(found, path, layout, repair);
}

/**
 * A document read from `path` with the records of its change log (`path`.log) applied, when it
 * is a state file that names one: what the emulator would restore from it (`snapshot load`
 * takes a state file too). Anything else is returned as it is. Throws a StateFileError when
 * the log cannot be read, is damaged before its end, or does not apply.
 */
export function withChangeLog(document: unknown, path: string, layout: StoreLayout = STORE_LAYOUT): unknown {
  return applyChangeLog(document, path, layout, false).document;
}

function applyChangeLog(document: unknown, path: string, layout: StoreLayout, repair: boolean): { document: unknown; damage: LogDamage | null } {
  const none = { document, damage: null };
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return none;
  const log = (document as Partial<WorkspaceSnapshot>).state_file?.log;
  if (typeof log !== 'string') return none; // written before the log existed, or a saved snapshot
  const logPath = logPathOf(resolve(path));
  let text: string;
  try {
    text = readFileSync(logPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return none;
    throw new StateFileError(`state file ${path}: its change log ${logPath} cannot be read (${(err as Error).message})`, err);
  }
  let replayed: Replayed;
  try {
    replayed = replayLog(document as Record<string, unknown>, text, layout);
  } catch (err) {
    throw new StateFileError(`state file ${path}: its change log ${logPath} does not apply to it (${(err as Error).message})`);
  }
  const { damage } = replayed;
  if (damage && !repair) {
    // One line that says it all: the start stops, and a person decides.
    throw new StateFileError(
      `state file ${path}: its change log ${logPath} is damaged at byte ${damage.offset} (line ${damage.line} of ${damage.line + damage.dropped - 1}); `
        + 'both files were left as they are: start with --state-file-repair to keep the '
        + `${damage.line - 1} records before the damage and move the log aside, or with --reset-state to start from the fixtures`,
      undefined,
      '',
    );
  }
  return { document, damage };
}

/** A damaged log moved aside (to the first free `PATH.log.damaged`, `.damaged-2`, ...), so nothing is lost by a repair. */
function moveAside(logPath: string, damage: LogDamage): StateFileRepair {
  let to = `${logPath}.damaged`;
  for (let i = 2; existsSync(to); i++) to = `${logPath}.damaged-${i}`;
  try {
    renameSync(logPath, to);
  } catch (err) {
    throw new StateFileError(`state file change log ${logPath} could not be moved aside to ${to}: ${(err as Error).message}`, err);
  }
  return { log: logPath, offset: damage.offset, kept: damage.line - 1, dropped: damage.dropped, moved_to: to };
}

function restoreFrom(emulator: StateFileHost, found: unknown, path: string, restart: number | undefined): void {
  try {
    emulator.restore(emulator.defaultWorkspace, found, restart);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const details = (err.details ?? []).slice(0, 10).map((d) => `\n  ${d.path}: ${d.message}`).join('');
    const more = (err.details?.length ?? 0) > 10 ? `\n  ... and ${err.details!.length - 10} more` : '';
    throw new StateFileError(`state file ${path} does not hold a snapshot this emulator can restore: ${err.message}${details}${more}`);
  }
}

/** Opens the state file of the default workspace: restored from it, or written fresh. */
export function openStateFile(emulator: StateFileHost, options: StateFileOptions): StateFile {
  return new StateFile(emulator, options);
}
