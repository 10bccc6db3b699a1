/**
 * "This workspace may have changed", told to whoever waits on it (a long poll): once per turn of
 * the event loop however many changes the turn made, after the turn's own work (an answer's
 * journal entry, a delivery's outcome) is done, and not at all while nobody listens, so the
 * requests of a workspace nobody waits on pay one size check.
 */
export class Activity {
  private readonly listeners = new Set<() => void>();
  private queued = false;

  on(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  notify(): void {
    if (this.queued || this.listeners.size === 0) return;
    this.queued = true;
    setImmediate(() => {
      this.queued = false;
      for (const listener of [...this.listeners]) listener();
    });
  }
}
