import { monotonicMs } from './clock.js';
import { afterThisTurn, wallDeadline } from './timers.js';

/** Listeners run at most this often: under a stream of changes a wait's check, which reads the store, runs 100 times a second, not once per request. */
const MIN_GAP_MS = 10;

/**
 * A workspace's one change notice, "this workspace may have changed". Whatever changes a
 * workspace raises it once its change is made: the pipeline at the end of every row
 * (`serve()`, over HTTP and in process), the scheduler after each timer (and once a timer's
 * asynchronous work, a delivery, is done), the request journal when it records a request
 * (once the answer is out, which may be long after the pipeline), and the emulator on a
 * reset, a restore or a deletion. Its listeners (the waits, the state file) hear it once per
 * turn of the event loop however many changes the turn made (and no sooner than MIN_GAP_MS
 * after the last time), after the turn's own work (an answer's journal entry, a delivery's
 * outcome) is done, and not at all while nobody listens, so the requests of a workspace nobody
 * waits on pay one size check.
 */
export class Activity {
  private readonly listeners = new Set<() => void>();
  private queued = false;
  private lastRun = -Infinity;

  on(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  notify(): void {
    if (this.queued || this.listeners.size === 0) return;
    this.queued = true;
    const run = () => {
      this.queued = false;
      this.lastRun = monotonicMs();
      for (const listener of [...this.listeners]) listener();
    };
    const wait = this.lastRun + MIN_GAP_MS - monotonicMs();
    if (wait > 0) wallDeadline(wait, run);
    else afterThisTurn(run);
  }
}
