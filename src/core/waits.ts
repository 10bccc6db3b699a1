import type { Activity } from './activity.js';
import { ApiError } from './errors.js';
import { wallDeadline } from './timers.js';

/** Waits open at once on one workspace. */
export const WAIT_LIMIT_PER_WORKSPACE = 64;
/**
 * Each workspace's first waits are its own: they take no shared place, so a workspace with
 * none open can always open these, however many the others hold.
 */
export const WAIT_OWN_PLACES = 2;
/**
 * The places every workspace's further waits share. With 100 workspaces at most, no more than
 * 100 x 2 + 192 = 392 waits are open at once (each holds a connection and is checked on every
 * change of its workspace).
 */
export const WAIT_SHARED_PLACES = 192;

/** How a wait ended: its condition held (with what the check found), or it did not in time. */
export type WaitOutcome<T> = { met: true; value: T } | { met: false; why: 'timeout' | 'stopping' | 'hung_up' };

/**
 * Long polls on workspaces (GET /_emulator/wait): each is a check, run now and again after every
 * change its workspace announces, until it finds something, its time is up, its client hangs up
 * or the emulator stops. A check that throws ends its wait with that error.
 */
export class Waits {
  private readonly open = new Set<(why: 'stopping') => void>();
  private readonly perWorkspace = new Map<string, number>();
  /** The shared places taken: each workspace's waits beyond its own. */
  private shared = 0;
  private stopped = false;

  get size(): number {
    return this.open.size;
  }

  /**
   * Checked only when `activity` announces a change (the workspace announces every one, its
   * deletion included): a wait on a quiet workspace costs nothing.
   */
  until<T>(workspaceId: string, activity: Activity, check: () => T | undefined, timeoutMs: number, signal?: AbortSignal): Promise<WaitOutcome<T>> {
    const first = check();
    if (first !== undefined) return Promise.resolve({ met: true, value: first });
    if (this.stopped) return Promise.resolve({ met: false, why: 'stopping' });
    if (timeoutMs <= 0) return Promise.resolve({ met: false, why: 'timeout' });
    if (signal?.aborted) return Promise.resolve({ met: false, why: 'hung_up' });
    const mine = this.perWorkspace.get(workspaceId) ?? 0;
    if (mine >= WAIT_LIMIT_PER_WORKSPACE) {
      throw new ApiError('wait_limit_reached', `${WAIT_LIMIT_PER_WORKSPACE} waits are open on workspace ${workspaceId} already; end one (or let it time out) before starting another.`, undefined, { 'Retry-After': '1' });
    }
    if (mine >= WAIT_OWN_PLACES && this.shared >= WAIT_SHARED_PLACES) {
      throw new ApiError('wait_limit_reached',
        `The ${WAIT_SHARED_PLACES} wait places the workspaces share are taken, and workspace ${workspaceId} holds ${mine} waits, its own ${WAIT_OWN_PLACES} among them; end one (or let it time out) before starting another.`,
        undefined, { 'Retry-After': '1' });
    }
    this.perWorkspace.set(workspaceId, mine + 1);
    if (mine >= WAIT_OWN_PLACES) this.shared++;
    return new Promise((resolve, reject) => {
      let ended = false;
      const end = (outcome: WaitOutcome<T> | Error) => {
        // A listener already queued when another one ended this wait may still call in.
        if (ended) return;
        ended = true;
        off();
        cancelTimeout();
        signal?.removeEventListener('abort', hungUp);
        this.open.delete(stop);
        const left = (this.perWorkspace.get(workspaceId) ?? 1) - 1;
        if (left > 0) this.perWorkspace.set(workspaceId, left);
        else this.perWorkspace.delete(workspaceId);
        // Which wait ends does not matter: a workspace holds shared places for its waits beyond its own.
        if (left >= WAIT_OWN_PLACES) this.shared--;
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      /** True once the wait ended, met or failed. */
      const recheck = (): boolean => {
        if (ended) return true;
        try {
          const value = check();
          if (value === undefined) return false;
          end({ met: true, value });
        } catch (err) {
          end(err instanceof Error ? err : new Error(String(err)));
        }
        return true;
      };
      const off = activity.on(recheck);
      // The last look at the deadline catches a change whose notice is still queued.
      const cancelTimeout = wallDeadline(timeoutMs, () => recheck() || end({ met: false, why: 'timeout' }));
      const hungUp = () => end({ met: false, why: 'hung_up' });
      const stop = (why: 'stopping') => end({ met: false, why });
      signal?.addEventListener('abort', hungUp, { once: true });
      this.open.add(stop);
    });
  }

  /** Ends every open wait now, unmet (a stopping server answers them instead of holding its stop), and refuses to hold new ones. */
  stop(): void {
    this.stopped = true;
    for (const stop of [...this.open]) stop('stopping');
  }
}
