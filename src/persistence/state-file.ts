import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ApiError } from '../core/errors.js';
import type { WorkspaceSnapshot } from './snapshot.js';
import type { Workspace } from '../core/workspace.js';
import { writeDurably, writeDurablySync } from './durable-file.js';

/**
 * `--state-file PATH`: the default workspace kept in a JSON file (a snapshot document). The
 * promise is that an answer is only sent once the file holds what its request changed: the HTTP
 * layer awaits commit() before it answers (src/http/hold.ts). Writes are group commits: one runs
 * at a time, and everything that asks for a write while it runs shares the next one, which
 * takes its snapshot when it starts. A write is durable (src/persistence/durable-file.ts), and a
 * snapshot never waits for webhook attempts: one still running is stored as due again.
 */
export class StateFileError extends Error {
  /** What to do about it, one or two sentences for the command line. */
  readonly hint: string;

  constructor(message: string, cause?: unknown) {
    super(message);
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    this.hint = code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? accessHint(code) : 'The file was left as it is. Fix or remove it, or start with --reset-state to start from the fixtures and overwrite it.';
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

/** What the state file asks of the emulator (the composition root, which opens it). */
export interface StateFileHost {
  readonly defaultWorkspace: Workspace;
  snapshot(ws: Workspace): WorkspaceSnapshot;
  restore(ws: Workspace, document: unknown, restart?: number): void;
  /** Calls `listener` after each change to a workspace; returns how to stop. */
  onChange(listener: (ws: Workspace) => void): () => void;
  /** Names the scenario given at start, so a stored state can say which one it played. */
  startScenarioDigest(): string | null;
  /** After a restore at start: a start scenario other than the stored state's replaces it; says whether it did. */
  adoptStartScenario(ws: Workspace, storedDigest: string | null | undefined): boolean;
}

export interface StateFileOptions {
  path: string;
  /** Start from the fixtures and overwrite the file, whatever it holds. */
  reset?: boolean | undefined;
  /** A failed write nobody waited for (timers, deliveries); the next write tries again. Default: ignored. */
  onError?: ((err: Error) => void) | undefined;
}

/** What happened at start: the file was read, made, or overwritten on --reset-state. */
export type StateFileStart = 'restored' | 'created' | 'reset';

/**
 * The file's text, and the text compared with the last write to skip writing an unchanged
 * state: realtime `now` moves on every read while nothing changed (the offset is what a
 * realtime clock keeps), so it is null there and put in after. One serialisation for both, as
 * this runs for every batch of answers: `clock` comes before any record in a snapshot, so the
 * first `"now": null` is the clock's.
 */
function render(s: WorkspaceSnapshot): { comparable: string; file: () => string } {
  if (s.clock.mode !== 'realtime') {
    const text = JSON.stringify(s, null, 2);
    return { comparable: text, file: () => text };
  }
  const text = JSON.stringify({ ...s, clock: { ...s.clock, now: null } }, null, 2);
  return { comparable: text, file: () => text.replace('"now": null', `"now": ${JSON.stringify(s.clock.now)}`) };
}

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
  /** The comparable text of the last write that reached the disk. */
  private written: string;
  private closed = false;
  private running: Promise<void> | null = null;
  /** The next write's waiters; it starts when the running one ends. */
  private next: Batch | null = null;
  private readonly unsubscribe: () => void;

  /**
   * Reads (or makes) the file synchronously, so a bad file stops the start before the port
   * opens, and marks it open on the disk before any answer: a kill from now on is known at the
   * next start.
   */
  constructor(private readonly emulator: StateFileHost, private readonly options: StateFileOptions) {
    this.path = resolve(options.path);
    const found = options.reset ? NO_FILE : readFile(this.path);
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
    const document = this.document(true);
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      writeDurablySync(this.path, JSON.stringify(document, null, 2));
    } catch (err) {
      throw new StateFileError(`state file ${this.path} cannot be written: ${(err as Error).message}`, err);
    }
    this.written = render(document).comparable;
    this.unsubscribe = emulator.onChange((ws) => {
      if (ws === emulator.defaultWorkspace) this.touch();
    });
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

  /** A change nobody waits for (a timer, a delivery that finished): written with the next write. */
  touch(): void {
    this.commit().catch((err: unknown) => this.options.onError?.(err as Error));
  }

  /**
   * The last write, after the server stopped answering: marks the file closed, so the next
   * start continues the stored random position. Later changes are not written.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    while (this.running) await this.running;
    await this.write(false);
  }

  private runNext(): void {
    const waiting = this.next;
    if (!waiting) return;
    this.next = null;
    // write() takes its snapshot before its first await, so the batch holds every change made before now.
    this.running = this.write(true)
      .then(waiting.resolve, waiting.reject)
      .finally(() => {
        this.running = null;
        this.runNext();
      });
  }

  private async write(open: boolean): Promise<void> {
    let text: string;
    let file: string;
    try {
      const rendered = render(this.document(open));
      text = rendered.comparable;
      if (text === this.written) return;
      file = rendered.file();
    } catch (err) {
      throw new StateFileError(`state file ${this.path}: the state could not be taken: ${(err as Error).message}`);
    }
    try {
      await writeDurably(this.path, file);
    } catch (err) {
      throw new StateFileError(`state file ${this.path} could not be written: ${(err as Error).message}`, err);
    }
    this.written = text;
  }

  /** The default workspace's snapshot with what only the state file records. */
  private document(open: boolean): WorkspaceSnapshot {
    const snapshot = this.emulator.snapshot(this.emulator.defaultWorkspace);
    return { ...snapshot, state_file: { start_scenario: this.emulator.startScenarioDigest(), open, restarts: this.restarts } };
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
