import type { Activity } from './activity.js';
import { fail } from './errors.js';

/** Waits open at once, across workspaces: each holds a connection and is checked on every change. */
export const WAIT_LIMIT = 256;

/**
 * A safety net under the change notices: a wait is checked at least this often, so a change
 * nothing announced (a workspace deleted) still ends it. Announced changes answer at once.
 */
const RECHECK_MS = 250;

/** How a wait ended: its condition held (with what the check found), or it did not in time. */
export type WaitOutcome<T> = { met: true; value: T } | { met: false; why: 'timeout' | 'stopping' | 'hung_up' };

/**
 * Long polls on workspaces (GET /_emulator/wait): each is a check, run now and again after every
 * change its workspace announces, until it finds something, its time is up, its client hangs up
 * or the emulator stops. A check that throws ends its wait with that error.
 */
export class Waits {
  private readonly open = new Set<(why: 'stopping') => void>();
  private stopped = false;

  get size(): number {
    return this.open.size;
  }

  until<T>(activity: Activity, check: () => T | undefined, timeoutMs: number, signal?: AbortSignal): Promise<WaitOutcome<T>> {
    const first = check();
    if (first !== undefined) return Promise.resolve({ met: true, value: first });
    if (this.stopped) return Promise.resolve({ met: false, why: 'stopping' });
    if (timeoutMs <= 0) return Promise.resolve({ met: false, why: 'timeout' });
    if (signal?.aborted) return Promise.resolve({ met: false, why: 'hung_up' });
    if (this.open.size >= WAIT_LIMIT) {
      throw fail('wait_limit_reached', `${WAIT_LIMIT} waits are open already; end one (or let it time out) before starting another.`);
    }
    return new Promise((resolve, reject) => {
      const end = (outcome: WaitOutcome<T> | Error) => {
        off();
        clearInterval(poll);
        clearTimeout(timer);
        signal?.removeEventListener('abort', hungUp);
        this.open.delete(stop);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      /** True once the wait ended, met or failed. */
      const recheck = (): boolean => {
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
      const poll = setInterval(recheck, RECHECK_MS);
      // The last look at the deadline catches a change whose notice is still queued.
      const timer = setTimeout(() => recheck() || end({ met: false, why: 'timeout' }), timeoutMs);
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
