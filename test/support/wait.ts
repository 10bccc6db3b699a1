/**
 * Bounded waits for a condition, in place of sleeping a guessed time: a test goes on as soon as
 * what it waits for has happened, and fails saying what did not happen when the deadline passes.
 */

/** Resolves as `promise` does, or rejects with "<what> within <ms> ms" once `ms` have passed. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)));
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** Polls `condition` (sync or async) every 10 ms until it holds; rejects naming `what` after `ms`. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A promise the test opens itself: slow work of a stand-in (a disk, a receiver) that ends on the
 * test's word, once the test has seen what it waits for, instead of after a guessed time.
 */
export function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
