import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile, JSONFileSync, TextFileSync } from 'lowdb/node';
import { ApiError } from '../core/errors.js';
import type { WorkspaceSnapshot } from '../core/snapshot.js';
import type { Emulator } from '../emulator.js';

/**
 * `--state-file PATH`: the default workspace kept in a JSON file (a snapshot document) through
 * lowdb. lowdb's file adapters write through steno: the text goes to `.NAME.tmp` beside the
 * file and is then renamed over it, so a kill -9 leaves the old or the new file, never a torn
 * one. Writes are coalesced: a change asks for a write within `delayMs`, later changes in that
 * window join it, and one write runs at a time. close() writes what is left.
 */
export class StateFileError extends Error {}

export interface StateFileOptions {
  path: string;
  /** Start from the fixtures and overwrite the file, whatever it holds. */
  reset?: boolean | undefined;
  /** How long a change waits for others to join its write; default 25 ms. */
  delayMs?: number | undefined;
  /** A failed background write (the next change tries again); default: ignored. */
  onError?: ((err: Error) => void) | undefined;
}

/** What happened at start: the file was read, made, or overwritten on --reset-state. */
export type StateFileStart = 'restored' | 'created' | 'reset';

/**
 * Realtime `now` moves on every read while nothing changed; the offset is what a realtime clock
 * keeps, so it is left out of the comparison that skips writing an unchanged state.
 */
function comparable(s: WorkspaceSnapshot): string {
  return JSON.stringify(s.clock.mode === 'realtime' ? { ...s, clock: { ...s.clock, now: null } } : s);
}

export class StateFile {
  readonly path: string;
  readonly start: StateFileStart;
  /** The stored state played another scenario than the one given at start, which replaced it. */
  readonly scenarioReplaced: boolean = false;
  private readonly db: Low<WorkspaceSnapshot | null>;
  private readonly delayMs: number;
  private last: string;
  private dirty = false;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> | null = null;
  private readonly unsubscribe: () => void;

  /** Reads (or makes) the file synchronously, so a bad file stops the start before the port opens. */
  constructor(private readonly emulator: Emulator, private readonly options: StateFileOptions) {
    this.path = resolve(options.path);
    this.delayMs = options.delayMs ?? 25;
    const found = options.reset ? NO_FILE : readFile(this.path);
    if (found !== NO_FILE) {
      restoreFrom(emulator, found, this.path);
      this.start = 'restored';
      // As the file holds it: timers that fell due at the restore, or a replaced scenario, changed the state, and that is written below.
      this.last = comparable(found as WorkspaceSnapshot);
      this.scenarioReplaced = emulator.adoptStartScenario(emulator.defaultWorkspace, (found as WorkspaceSnapshot).state_file?.start_scenario);
    } else {
      this.start = options.reset ? 'reset' : 'created';
      const fresh = this.document();
      try {
        mkdirSync(dirname(this.path), { recursive: true });
        new JSONFileSync<WorkspaceSnapshot>(this.path).write(fresh);
      } catch (err) {
        throw new StateFileError(`state file ${this.path} cannot be written: ${(err as Error).message}`);
      }
      this.last = comparable(fresh);
    }
    this.db = new Low<WorkspaceSnapshot | null>(new JSONFile(this.path), null);
    this.unsubscribe = emulator.onChange((ws) => {
      if (ws === emulator.defaultWorkspace) this.touch();
    });
    this.touch(); // written only if it differs from the file
  }

  /** Something may have changed: a write follows within delayMs, joined by further changes. */
  touch(): void {
    if (this.closed) return;
    this.dirty = true;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((err: unknown) => this.options.onError?.(err as Error));
    }, this.delayMs);
  }

  /**
   * Writes now if anything changed since the last write; waits for a write already running.
   * `always`: compare with the file even without a change notice (before a shutdown).
   */
  async flush(always = false): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (always) this.dirty = true;
    while (this.writing) await this.writing;
    if (!this.dirty) return;
    this.dirty = false;
    this.writing = this.write().finally(() => (this.writing = null));
    await this.writing;
  }

  /** The final write: after it, changes are no longer written. */
  async close(): Promise<void> {
    await this.flush(true);
    this.closed = true;
    this.unsubscribe();
  }

  /** The default workspace's snapshot with the start scenario it was written under. */
  private document(ws = this.emulator.defaultWorkspace): WorkspaceSnapshot {
    return { ...this.emulator.snapshot(ws), state_file: { start_scenario: this.emulator.startScenarioDigest() } };
  }

  private async write(): Promise<void> {
    try {
      const ws = this.emulator.defaultWorkspace;
      await ws.scheduler.settle(); // a delivery half done would be in neither state
      const snapshot = this.document(ws);
      const text = comparable(snapshot);
      if (text === this.last) return;
      this.db.data = snapshot;
      await this.db.write();
      this.last = text;
    } catch (err) {
      this.dirty = true; // the next change (or close) tries again
      throw new StateFileError(`state file ${this.path} could not be written: ${(err as Error).message}`);
    }
  }
}

const NO_FILE = Symbol('no file');

/** The file's JSON, or NO_FILE when there is none; a file that cannot be read or parsed is refused. */
function readFile(path: string): unknown {
  let text: string | null;
  try {
    text = new TextFileSync(path).read(); // null only when the file does not exist
  } catch (err) {
    throw new StateFileError(`state file ${path} cannot be read (${(err as Error).message})`);
  }
  if (text === null) return NO_FILE;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new StateFileError(`state file ${path} is not valid JSON (${(err as Error).message})`);
  }
}

function restoreFrom(emulator: Emulator, found: unknown, path: string): void {
  try {
    emulator.restore(emulator.defaultWorkspace, found);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const details = (err.details ?? []).slice(0, 10).map((d) => `\n  ${d.path}: ${d.message}`).join('');
    const more = (err.details?.length ?? 0) > 10 ? `\n  ... and ${err.details!.length - 10} more` : '';
    throw new StateFileError(`state file ${path} does not hold a snapshot this emulator can restore: ${err.message}${details}${more}`);
  }
}

/** Opens the state file of the default workspace: restored from it, or written fresh. */
export function openStateFile(emulator: Emulator, options: StateFileOptions): StateFile {
  return new StateFile(emulator, options);
}
