import type { Logger } from 'pino';
import type { Emulator } from '../emulator.js';
import type { RunningServer } from '../http/server.js';

/**
 * The graceful stop of `serve` (SIGTERM, SIGINT): the server stops listening and lets every
 * request in flight finish and be answered, idle keep-alive connections closed. Then the
 * realtime alarms stop, and webhook attempts of the default workspace still running get what is
 * left of the time, so their outcome is stored instead of sent again after the restart. At the
 * deadline, connections still open are cut (those requests get no answer) and attempts still
 * running are left: the state file, written next, stores them as due again.
 */
export async function drain(emulator: Emulator, running: RunningServer, drainMs: number, logger: Logger): Promise<void> {
  const deadline = Date.now() + drainMs;
  // A relay's long poll, or a wait, would hold the stop for up to a minute: each is answered now.
  emulator.relays.stop();
  emulator.waits.stop();
  await running.close(drainMs);
  for (const ws of emulator.workspaces()) ws.scheduler.stop();
  const left = deadline - Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = await Promise.race([
    emulator.defaultWorkspace.scheduler.settle().then(() => true),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, left)))),
  ]);
  clearTimeout(timer);
  if (!settled) logger.warn({ drain_timeout_ms: drainMs }, 'webhook attempts still running at the drain deadline are stored as due again');
}
